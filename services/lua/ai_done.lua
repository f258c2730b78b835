local now, cap = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - tonumber(ARGV[4]))
redis.call('ZADD', KEYS[4], now, ARGV[1])
local out = {}
while (cap == 0 or redis.call('ZCARD', KEYS[1]) < cap) do
  local payload = redis.call('LPOP', KEYS[2])
  if not payload then break end
  local id = cjson.decode(payload)['id']
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('HSET', KEYS[3], id, 'a')
  out[#out + 1] = payload
end
return out
