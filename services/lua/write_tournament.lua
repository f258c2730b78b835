-- A tournament's document and list line, unless a later version of them is written already; its line moves to
-- the sorted set of its status.
-- KEYS: its document, versions (hash), lines (hash), then the upcoming, running and finished sorted sets.
-- ARGV: tournament id, version, document, line, status index (1..3), score (its start, ms).
local have = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if tonumber(ARGV[2]) <= have then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SET', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
for i = 4, 6 do redis.call('ZREM', KEYS[i], ARGV[1]) end
redis.call('ZADD', KEYS[3 + tonumber(ARGV[5])], ARGV[6], ARGV[1])
return 1
