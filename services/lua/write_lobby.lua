local current = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local version = tonumber(ARGV[2])
if version <= current then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local updated = tonumber(ARGV[4])
redis.call('ZADD', KEYS[3], updated, ARGV[1])
for i, status in ipairs({'setup', 'playing', 'finished'}) do
  if status == ARGV[5] then redis.call('ZADD', KEYS[3 + i], updated, ARGV[1])
  else redis.call('ZREM', KEYS[3 + i], ARGV[1]) end
end
if ARGV[6] == '1' then redis.call('ZADD', KEYS[7], updated, ARGV[1]) else redis.call('ZREM', KEYS[7], ARGV[1]) end
return 1
