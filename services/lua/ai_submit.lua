local id, now, cap, stale = ARGV[1], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local finished = redis.call('ZSCORE', KEYS[4], id)
if finished and now - tonumber(finished) < stale then return 0 end
local known = redis.call('HGET', KEYS[3], id)
if known == 'w' then return 0 end
if known == 'a' then
  local since = redis.call('ZSCORE', KEYS[1], id)
  if since and now - tonumber(since) < stale then return 0 end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - stale)
if cap == 0 or redis.call('ZCARD', KEYS[1]) < cap then
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('HSET', KEYS[3], id, 'a')
  return 1
end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], id, 'w')
return 0
