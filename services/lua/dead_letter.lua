-- Move one log entry that failed too often to the partition's dead letters, and acknowledge it there.
-- KEYS: 1 partition log, 2 failures hash, 3 dead-letter stream
-- ARGV: 1 consumer group, 2 entry id, 3 gid, 4 version, 5 type, 6 failures, 7 last error, 8 time ms
redis.call('XADD', KEYS[3], '*', 'entry', ARGV[2], 'gid', ARGV[3], 'v', ARGV[4], 'type', ARGV[5],
           'failures', ARGV[6], 'error', ARGV[7], 'at', ARGV[8])
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[2])
return 1
