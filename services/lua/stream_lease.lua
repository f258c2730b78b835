-- Take a place for one open live stream of a client, under its cap (services/live.py).
-- KEYS: 1 the client's open streams (sorted set: stream → its lease's expiry, ms)
-- ARGV: 1 the stream's id, 2 now (ms), 3 lease (ms), 4 cap (0: none)
-- Returns 1 (taken) or 0 (the client is at its cap). Streams of a dead process drop out when their leases expire.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local cap = tonumber(ARGV[4])
if cap > 0 and redis.call('ZCARD', KEYS[1]) >= cap then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
