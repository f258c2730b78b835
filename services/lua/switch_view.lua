local fresh = tonumber(redis.call('GET', KEYS[2]) or '0')
local live = tonumber(redis.call('GET', KEYS[4]) or '0')
if fresh >= live then
  redis.call('RENAME', KEYS[1], KEYS[3])
  redis.call('RENAME', KEYS[2], KEYS[4])
  return 1
end
redis.call('DEL', KEYS[1], KEYS[2])
return 0
