-- A sliding-window rate limit (chat messages, challenges): at most ARGV[3] actions in any ARGV[2] ms.
-- KEYS: 1 the actor's recent actions (sorted set: action id → when, ms)
-- ARGV: 1 now (ms), 2 window (ms), 3 limit, 4 this action's id
-- Returns 0 (counted: go ahead) or the ms to wait until the oldest action leaves the window.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1]))
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
