local id, now, cap, stale = ARGV[1], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local finished = redis.call('ZSCORE', KEYS[4], id)
if finished and now - tonumber(finished) < stale then return 0 end
local known = redis.call('HGET', KEYS[3], id)
if known == 'a' then
  local since = redis.call('ZSCORE', KEYS[1], id)
  if since and now - tonumber(since) < stale then return 0 end
end
-- A slot held longer than ``stale`` was lost with its job (a worker killed, the queue Redis failing over before
-- the job's end was written): freed here. A turn waiting ('w') behind slots that are all gone would otherwise
-- wait for an end that never comes: with room now, it takes a slot itself (and leaves the waiting list).
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - stale)
local room = cap == 0 or redis.call('ZCARD', KEYS[1]) < cap
if known == 'w' and not room then return 0 end
if room then
  if known == 'w' then redis.call('LREM', KEYS[2], 0, ARGV[2]) end
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('HSET', KEYS[3], id, 'a')
  return 1
end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], id, 'w')
return 0
