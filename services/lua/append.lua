-- Append events to one game, atomically, after every check and before any write (Redis does not roll back).
-- KEYS: 1 game stream, 2 command-id hash, 3 partition log, 4 seats hash (seat -> token hash)
-- ARGV: 1 expected version (-1: any), 2 command id ('' none), 3 stored result, 4 gid, 5 time ms,
--       6 meta ('' none; only with the first event), 7 request id ('' none: written in the log entries, so that
--       the jobs the dispatcher makes of them log it), 8 n: seat, token-hash pairs that follow (a seat taken by
--       these events: its hash is written with them, never apart), then type, data pairs
local expected = tonumber(ARGV[1])
local command_id = ARGV[2]
if command_id ~= '' then
  local previous = redis.call('HGET', KEYS[2], command_id)
  if previous then return {'dup', previous} end
end
local current = redis.call('XLEN', KEYS[1])
if expected >= 0 and current ~= expected then return {'conflict', tostring(current)} end
if ARGV[6] ~= '' and current ~= 0 then return {'conflict', tostring(current)} end
local version = current
local first_event = 9 + 2 * tonumber(ARGV[8])
for i = first_event, #ARGV, 2 do
  version = version + 1
  local id = '0-' .. version
  if version == 1 and ARGV[6] ~= '' then
    redis.call('XADD', KEYS[1], id, 'type', ARGV[i], 'data', ARGV[i + 1], 'at', ARGV[5], 'meta', ARGV[6])
  else
    redis.call('XADD', KEYS[1], id, 'type', ARGV[i], 'data', ARGV[i + 1], 'at', ARGV[5])
  end
  if ARGV[7] ~= '' then
    redis.call('XADD', KEYS[3], '*', 'gid', ARGV[4], 'v', version, 'type', ARGV[i], 'rid', ARGV[7])
  else
    redis.call('XADD', KEYS[3], '*', 'gid', ARGV[4], 'v', version, 'type', ARGV[i])
  end
end
for i = 9, first_event - 1, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
if command_id ~= '' then redis.call('HSET', KEYS[2], command_id, ARGV[3]) end
return {'ok', tostring(version)}
