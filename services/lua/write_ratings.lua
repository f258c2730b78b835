-- The ratings of one game's players after it (and after the games that finished after it, when it came late),
-- written at once if no other write of this game's ratings came first.
-- KEYS: version counter, order zset, results hash, ratings hash, ranking zset, then one history list per user.
-- ARGV: expected version, r, r x (gid, finished ms, result json), u, then per user (in KEYS order): username,
-- entries to drop from the history's end, current json or "" (no rated game left), ranking score or "" (none),
-- n, n history entries.
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
local i = 2
local r = tonumber(ARGV[i]); i = i + 1
for _ = 1, r do
  redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i])
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 2])
  i = i + 3
end
local u = tonumber(ARGV[i]); i = i + 1
for k = 1, u do
  local user, drop, current, score = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], ARGV[i + 3]
  local history = KEYS[5 + k]
  if drop > 0 then redis.call('LTRIM', history, 0, -(drop + 1)) end
  if current == '' then redis.call('HDEL', KEYS[4], user) else redis.call('HSET', KEYS[4], user, current) end
  if score == '' then redis.call('ZREM', KEYS[5], user) else redis.call('ZADD', KEYS[5], score, user) end
  local n = tonumber(ARGV[i + 4]); i = i + 5
  for _ = 1, n do
    redis.call('RPUSH', history, ARGV[i])
    i = i + 1
  end
end
redis.call('INCR', KEYS[1])
return 1
