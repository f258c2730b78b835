-- A new account: the name's claim and the account's first events in one step, so of two racing sign-ups for one
-- name (ignoring case) exactly one wins. A passkey made with the account claims its credential id here too.
-- KEYS: usernames hash, the account's stream, passkeys hash.
-- ARGV: lower-case username, account id, commit time (ms), credential id or "", then type, data pairs.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return {'taken', 0} end
if ARGV[4] ~= '' and redis.call('HEXISTS', KEYS[3], ARGV[4]) == 1 then return {'credential', 0} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'exists', 0} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[2]) end
local version = 0
for i = 5, #ARGV, 2 do
  version = version + 1
  redis.call('XADD', KEYS[2], '0-' .. version, 'type', ARGV[i], 'data', ARGV[i + 1], 'at', ARGV[3])
end
return {'ok', version}
