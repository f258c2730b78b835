"""Redis clients: services/ is the only code that touches Redis, so the wiring asks here for its connections."""

from __future__ import annotations

from urllib.parse import unquote

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

CLUSTER_SCHEME = "redis+cluster://"
SENTINEL_SCHEME = "redis+sentinel://"
# Redis did not answer (down, or too slow), or a Redis Cluster is failing over (a slot without a master for a
# moment, a slot map gone stale), or a master just demoted (READONLY: Sentinel's failover), or Redis is at its
# maxmemory and refuses writes (OOM, with noeviction): nobody's fault, worth trying again (503). The cluster client
# refreshes its slot map itself on each of these, so the next request reaches the new master; Sentinel's client
# asks the sentinels again.
REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.exceptions.ClusterDownError,
              redis.exceptions.TryAgainError, redis.exceptions.MovedError, redis.exceptions.SlotNotCoveredError,
              redis.exceptions.ReadOnlyError, redis.exceptions.OutOfMemoryError)
# What a command treats as "Redis is unreachable".
UNREACHABLE = (ConnectionError, *REDIS_DOWN)


def connect(url: str, timeout: float = 2.0) -> redis.Redis:
    """A client for ``url``: ``redis+cluster://host:port`` (any node of it) is a Redis Cluster. A command that gets
    no answer within ``timeout`` seconds (connecting included) raises ``redis.TimeoutError``: a Redis that is
    stalled or cut off fails a request fast instead of holding it (``BURROW_REDIS_TIMEOUT``)."""
    if url.startswith(CLUSTER_SCHEME):
        from redis.cluster import RedisCluster

        return RedisCluster.from_url("redis://" + url.removeprefix(CLUSTER_SCHEME), socket_timeout=timeout,
                                     socket_connect_timeout=timeout)
    return plain(url, health_check_interval=30, socket_timeout=timeout, socket_connect_timeout=timeout,
                 retry=once())


def plain(url: str, **options) -> redis.Redis:
    """A client of one Redis: ``redis://…``, ``rediss://…``, ``unix://…``, or the master a group of Sentinels
    names (``redis+sentinel://``, ``sentinel``)."""
    if url.startswith(SENTINEL_SCHEME):
        return sentinel(url, **options)
    return redis.Redis.from_url(url, **options)


def sentinel_parts(url: str) -> tuple[list[tuple[str, int]], str, int, str | None]:
    """``redis+sentinel://[:password@]host1:port1,host2:port2/<service>/<db>`` → (sentinels, service, db,
    password); ``ValueError`` naming what is wrong."""
    rest = url.removeprefix(SENTINEL_SCHEME)
    userinfo, at, rest = rest.rpartition("@")
    password = unquote(userinfo.partition(":")[2]) if at and ":" in userinfo else (unquote(userinfo) or None)
    hosts, _, path = rest.partition("/")
    service, _, db = path.partition("/")
    if not hosts or not service:
        raise ValueError("a Sentinel URL is redis+sentinel://[:password@]host:port[,host:port…]/<service>[/<db>]")
    sentinels = []
    for item in hosts.split(","):
        host, colon, port = item.strip().rpartition(":")
        if not colon or not port.isdigit() or not host:
            raise ValueError(f"a Sentinel URL names host:port pairs, not {item[:60]!r}")
        sentinels.append((host.strip("[]"), int(port)))
    db = db.strip("/")
    if db and not db.isdigit():
        raise ValueError(f"a Sentinel URL's database is a number, not {db[:20]!r}")
    return sentinels, service, int(db or 0), password


def sentinel(url: str, **options) -> redis.Redis:
    """A client of the master the Sentinels of ``url`` name for its service: redis-py's ``Sentinel``. It asks
    them again whenever its connection fails (the master died) or the server it reaches says it is a replica now
    (READONLY: the old master, demoted), so every process follows a failover by itself."""
    from redis.sentinel import Sentinel

    sentinels, service, db, password = sentinel_parts(url)
    timeout = options.get("socket_timeout") or options.get("socket_connect_timeout") or 2.0
    # The Sentinels themselves are asked with short timeouts (a dead one is skipped for the next); the password
    # is the master's and its replicas' (Sentinels without a password of their own, as Redis ships them).
    manager = Sentinel(sentinels, sentinel_kwargs={"socket_timeout": timeout, "socket_connect_timeout": timeout})
    return manager.master_for(service, db=db, password=password, **options)


def once() -> Retry:
    """redis-py's retry policy for the store: a lost connection (a pooled socket Redis closed, a restart) is tried
    once more at once; a timeout is not (redis-py's default, ten tries on timeouts too, held a request for 30 s on
    a stalled Redis). A script re-sent after a lost connection is safe: the append checks its command id."""
    return Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.1), retries=1,
                 supported_errors=(redis.ConnectionError,))


def queue_client(rq_url: str | None, client: redis.Redis, redis_url: str, timeout: float = 2.0) -> redis.Redis:
    """The client the service uses for the RQ queues (enqueueing, the fair queues' scripts): ``rq_url`` if set,
    else the store's own client (not a cluster's). Never handed to an RQ worker: ``worker_client``."""
    if rq_url is None and redis_url.startswith(CLUSTER_SCHEME):
        raise ValueError("RQ cannot use a Redis Cluster: set RQ_URL to a plain Redis for the job queues")
    if not rq_url:
        return client
    return plain(rq_url, health_check_interval=30, socket_timeout=timeout, socket_connect_timeout=timeout,
                 retry=once())


def worker_client(rq_url: str | None, redis_url: str, timeout: float = 2.0) -> redis.Redis:
    """A client of the queues' Redis for RQ workers alone, with a pool of its own: an RQ worker raises its
    connection pool's socket timeout to outlast its blocking waits (``Worker._set_connection``), which on a shared
    pool would let a stalled Redis hold every web request for minutes."""
    return plain(rq_url or redis_url, health_check_interval=30, socket_connect_timeout=timeout)


def embedded(server=None) -> redis.Redis:
    """An in-process Redis (fakeredis) on ``server`` (a new one if None)."""
    import fakeredis

    return fakeredis.FakeRedis(server=server or fakeredis.FakeServer())
