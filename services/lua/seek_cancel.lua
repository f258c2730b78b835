-- Cancel an open seek of its own seeker (services/people/seeks.py). KEYS as seek.lua (1 open, 2 the kind's, 3 counts).
-- ARGV: 1 the seek id, 2 the account. Returns 1 (cancelled) or 0 (no such open seek of this account).
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local seek = cjson.decode(raw)
if seek.account ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('HINCRBY', KEYS[3], seek.account, -1) <= 0 then redis.call('HDEL', KEYS[3], seek.account) end
return 1
