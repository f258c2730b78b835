-- Count one more analysis asked for and not done yet, under the client's cap and the whole backlog's
-- (services/reads/analysis.py). An analysis older than the window is taken for lost and forgotten.
-- KEYS: 1 the client's analyses (sorted set: analysis → when asked, ms), 2 every client's (the same)
-- ARGV: 1 the analysis ("gid:version"), 2 now (ms), 3 the client's cap (0: none), 4 the backlog's cap (0: none),
--       5 window (ms)
-- Returns 1 (counted; also when it was already), 0 (the client is at its cap), -1 (the backlog is full).
local now, window = tonumber(ARGV[2]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
local mine, total = tonumber(ARGV[3]), tonumber(ARGV[4])
if mine > 0 and redis.call('ZCARD', KEYS[1]) >= mine then return 0 end
if total > 0 and redis.call('ZCARD', KEYS[2]) >= total then return -1 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], window)
return 1
