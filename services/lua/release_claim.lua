-- Give up a claim only if it is still ours (services/games/tables.py: the rematch being made).
-- KEYS: 1 the claim (a string with a TTL)
-- ARGV: 1 the claimant's random id
-- Returns 1 (released) or 0 (expired, or taken by another since).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
