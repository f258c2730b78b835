if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
local game = ARGV[2]
local players = {}
for i = 8, #ARGV, 2 do players[#players + 1] = {name = ARGV[i], score = tonumber(ARGV[i + 1])} end
redis.call('HINCRBY', KEYS[2], game .. ':finished', 1)
redis.call('HINCRBY', KEYS[2], game .. ':termination:' .. ARGV[7], 1)
redis.call('HINCRBY', KEYS[2], game .. ':events', tonumber(ARGV[3]))
local winners = 0
for i, p in ipairs(players) do
  if p.score == 1 then
    winners = winners + 1
    redis.call('HINCRBY', KEYS[2], game .. ':wins_by_seat:' .. (i - 1), 1)
  end
end
if winners == 0 then redis.call('HINCRBY', KEYS[2], game .. ':draws', 1) end
local n = #players
if n < 2 or ARGV[6] ~= '1' then return 1 end
redis.call('HINCRBY', KEYS[2], game .. ':rated', 1)
local ratings = {}
for i, p in ipairs(players) do
  ratings[i] = tonumber(redis.call('HGET', KEYS[3], game .. ':' .. p.name) or ARGV[4])
end
local k = tonumber(ARGV[5]) / (n - 1)
for i, p in ipairs(players) do
  local delta = 0
  for j, q in ipairs(players) do
    if i ~= j and p.name ~= q.name then
      local expected = 1 / (1 + 10 ^ ((ratings[j] - ratings[i]) / 400))
      local actual = 0.5
      if p.score > q.score then actual = 1 elseif p.score < q.score then actual = 0 end
      delta = delta + k * (actual - expected)
    end
  end
  redis.call('HSET', KEYS[3], game .. ':' .. p.name, tostring(ratings[i] + delta))
  redis.call('HINCRBY', KEYS[4], game .. ':' .. p.name, 1)
  redis.call('ZADD', KEYS[5], ratings[i] + delta, p.name)
end
return 1
