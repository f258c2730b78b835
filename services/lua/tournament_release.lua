-- The end of a tournament job's turn: if the tournament changed meanwhile (its 'again' flag), the job keeps the
-- lock and looks again ('again'); else it lets the lock go ('done'). One step, so a change either is seen by the
-- holder or finds the lock free.
-- KEYS: the lock, the flag. ARGV: the holder's token.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'lost' end
if redis.call('DEL', KEYS[2]) == 1 then return 'again' end
redis.call('DEL', KEYS[1])
return 'done'
