-- A finished game counted once into its game's statistics (the counted set and the counts change together).
-- KEYS: counted set, stats hash. ARGV: gid, game, length (events), rated (1/0), the result's termination, then
-- 1 or 0 per seat (a winner or not).
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
local game = ARGV[2]
redis.call('HINCRBY', KEYS[2], game .. ':finished', 1)
redis.call('HINCRBY', KEYS[2], game .. ':termination:' .. ARGV[5], 1)
redis.call('HINCRBY', KEYS[2], game .. ':events', tonumber(ARGV[3]))
if ARGV[4] == '1' then redis.call('HINCRBY', KEYS[2], game .. ':rated', 1) end
local winners = 0
for i = 6, #ARGV do
  if ARGV[i] == '1' then
    winners = winners + 1
    redis.call('HINCRBY', KEYS[2], game .. ':wins_by_seat:' .. (i - 6), 1)
  end
end
if winners == 0 then redis.call('HINCRBY', KEYS[2], game .. ':draws', 1) end
return 1
