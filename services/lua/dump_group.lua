-- Every key matching ARGV[1] (one hash-tag group of the store: all in KEYS[1]'s slot, on this node), with its
-- time to live (ms, -1 none) and its DUMP, read atomically: a game's stream, its command ids, its seats and its
-- partition's log are backed up as of one moment. Returns {key, pttl, dump, key, pttl, dump, ...}.
local out = {}
local cursor = "0"
repeat
  local found = redis.call("SCAN", cursor, "MATCH", ARGV[1], "COUNT", 1000)
  cursor = found[1]
  for _, key in ipairs(found[2]) do
    local dumped = redis.call("DUMP", key)
    if dumped then
      out[#out + 1] = key
      out[#out + 1] = redis.call("PTTL", key)
      out[#out + 1] = dumped
    end
  end
until cursor == "0"
return out
