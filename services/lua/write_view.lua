local current = tonumber(redis.call('GET', KEYS[2]) or '0')
local version = tonumber(ARGV[1])
if version <= current then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
return 1
