-- Events appended to an existing account, if it is still at the version they were decided on; a passkey added
-- claims its credential id in the same step (one credential belongs to one account).
-- KEYS: the account's stream, passkeys hash.
-- ARGV: expected version, commit time (ms), credential id or "", account id, then type, data pairs.
local version = redis.call('XLEN', KEYS[1])
if version == 0 then return {'missing', 0} end
if version ~= tonumber(ARGV[1]) then return {'conflict', version} end
if ARGV[3] ~= '' then
  local owner = redis.call('HGET', KEYS[2], ARGV[3])
  if owner and owner ~= ARGV[4] then return {'credential', version} end
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
end
for i = 5, #ARGV, 2 do
  version = version + 1
  redis.call('XADD', KEYS[1], '0-' .. version, 'type', ARGV[i], 'data', ARGV[i + 1], 'at', ARGV[2])
end
return {'ok', version}
