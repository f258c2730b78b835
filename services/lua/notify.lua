-- One notification to an account: kept in its stream (its open streams resume from it) and announced on the
-- notifications log (every web process's hub follows it) with its id there (services/people/notifications.py).
-- KEYS: 1 the account's notifications, 2 the notifications log
-- ARGV: 1 the account, 2 the payload (JSON), 3 kept per account, 4 kept in the log
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'data', ARGV[2])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'to', 'account:' .. ARGV[1], 'id', id, 'data', ARGV[2])
return id
