-- Events appended to a tournament if it is still at the version they were decided on. Its first events (expected
-- version 0) count it among the open tournaments, refused ('full_all' / 'full_creator') when either set is full;
-- an end takes it out of them.
-- KEYS: the tournament's stream, every tournament (zset), the open ones (zset), its creator's open ones (zset).
-- ARGV: expected version, commit time (ms), tournament id, open in all at most, open per creator at most,
--       1 if the events end it, then type, data pairs.
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {'conflict', version} end
if version == 0 then
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return {'full_all', 0} end
  if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[5]) then return {'full_creator', 0} end
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
end
for i = 7, #ARGV, 2 do
  version = version + 1
  redis.call('XADD', KEYS[1], '0-' .. version, 'type', ARGV[i], 'data', ARGV[i + 1], 'at', ARGV[2])
end
if ARGV[6] == '1' then
  redis.call('ZREM', KEYS[3], ARGV[3])
  redis.call('ZREM', KEYS[4], ARGV[3])
end
return {'ok', version}
