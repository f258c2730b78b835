-- Several sliding-window limits checked and counted together, all or nothing (sign-in attempts: a name's and an
-- address's failures and checks; reserved before the password is checked, so racing tries cannot overshoot).
-- KEYS: the sorted sets of recent actions (member → when, ms), one per limit
-- ARGV: 1 now (ms), 2 this action's member, then per key: its window (ms), its limit
-- Returns 0 (counted in every set: go ahead) or the ms to wait until the fullest set has room (nothing counted).
local now = tonumber(ARGV[1])
local wait = 0
for i, key in ipairs(KEYS) do
  local window, limit = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    wait = math.max(wait, 1, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then
  return wait
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, tonumber(ARGV[1 + 2 * i]))
end
return 0
