-- Quick pairing, atomically (services/people/seeks.py): a new seek is paired with the oldest compatible open seeks
-- of live seekers, or waits. A seek is paired at most once, whatever the number of servers racing: this script
-- alone takes seeks out of the open ones.
-- KEYS: 1 open seeks (hash id → JSON), 2 the open seeks of this kind (sorted set id → created ms),
--       3 open seeks per account (hash account → count), 4 accounts seen (sorted set account → ms)
-- ARGV: 1 the seek (JSON), 2 now (ms), 3 seen within (ms), 4 seats, 5 most open seeks per account
-- Returns {"paired", json, json, ...} (the new seek first), {"waiting"} or {"too_many"}.
local seek = cjson.decode(ARGV[1])
local now, fresh, seats = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local group = {seek}
local function drop(other)
  redis.call('HDEL', KEYS[1], other.id)
  redis.call('ZREM', KEYS[2], other.id)
  if redis.call('HINCRBY', KEYS[3], other.account, -1) <= 0 then redis.call('HDEL', KEYS[3], other.account) end
end
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if #group == seats then break end
  local raw = redis.call('HGET', KEYS[1], id)
  if not raw then
    redis.call('ZREM', KEYS[2], id)
  else
    local other = cjson.decode(raw)
    local seen = tonumber(redis.call('ZSCORE', KEYS[4], other.account) or '0')
    if now - seen > fresh then
      drop(other)  -- its seeker has had no page or stream open: the seek lapses
    elseif other.account ~= seek.account then
      local fits = true
      for _, member in ipairs(group) do
        if member.account == other.account
           or other.rating < member.range[1] or other.rating > member.range[2]
           or member.rating < other.range[1] or member.rating > other.range[2] then
          fits = false
        end
      end
      if fits then table.insert(group, other) end
    end
  end
end
if #group == seats then
  local out = {'paired', ARGV[1]}
  for i = 2, #group do
    drop(group[i])
    table.insert(out, cjson.encode(group[i]))
  end
  return out
end
if tonumber(redis.call('HGET', KEYS[3], seek.account) or '0') >= tonumber(ARGV[5]) then return {'too_many'} end
redis.call('HSET', KEYS[1], seek.id, ARGV[1])
redis.call('ZADD', KEYS[2], now, seek.id)
redis.call('HINCRBY', KEYS[3], seek.account, 1)
return {'waiting'}
