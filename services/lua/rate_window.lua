-- KEYS[1] the client's creations in this window; ARGV: 1 limit, 2 window ms. Returns 0, or ms to the next window.
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then return math.max(1, redis.call('PTTL', KEYS[1])) end
return 0
