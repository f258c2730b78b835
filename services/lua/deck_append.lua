-- One deck event appended and folded into the deck's projection in one step (services/learn/deck.py).
-- KEYS: the deck's event stream, its cards hash, its due sorted set, the set of accounts with a deck.
-- ARGV: account id, card id, event type, event data, commit time (ms), the card's new JSON, its due time (ms),
--       the card's JSON the event was decided on ('' for a new card), the deck's bound (cards).
-- A new card is added only if the deck has no card of that id and fewer cards than its bound; a review only if
-- the card is still as it was read (else another answer came first: 'conflict', and nothing is written).
local current = redis.call('HGET', KEYS[2], ARGV[2])
if ARGV[8] == '' then
  if current then return 'exists' end
  if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[9]) then return 'full' end
else
  if current ~= ARGV[8] then return 'conflict' end
end
redis.call('XADD', KEYS[1], '*', 'type', ARGV[3], 'data', ARGV[4], 'at', ARGV[5])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1])
return 'ok'
