local n = #KEYS / 2
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('RENAME', KEYS[i], KEYS[n + i])
  else redis.call('DEL', KEYS[n + i]) end
end
return n
