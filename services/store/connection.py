"""Redis clients: services/ is the only code that touches Redis, so the wiring asks here for its connections."""

from __future__ import annotations

import redis

CLUSTER_SCHEME = "redis+cluster://"
# Redis did not answer (down, or too slow), or a Redis Cluster is failing over (a slot without a master for a
# moment, a slot map gone stale): nobody's fault, worth trying again (503). The cluster client refreshes its slot
# map itself on each of these, so the next request reaches the new master.
REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.exceptions.ClusterDownError,
              redis.exceptions.TryAgainError, redis.exceptions.MovedError, redis.exceptions.SlotNotCoveredError)
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
    return redis.Redis.from_url(url, health_check_interval=30, socket_timeout=timeout,
                                socket_connect_timeout=timeout)


def queue_client(rq_url: str | None, client: redis.Redis, redis_url: str, timeout: float = 2.0) -> redis.Redis:
    """The client for the RQ queues: ``rq_url`` if set, else the store's own client (not a cluster's). Its socket
    timeout leaves room for RQ's own blocking waits (``QUEUE_TIMEOUT``)."""
    if rq_url is None and redis_url.startswith(CLUSTER_SCHEME):
        raise ValueError("RQ cannot use a Redis Cluster: set RQ_URL to a plain Redis for the job queues")
    if not rq_url:
        return client
    return redis.Redis.from_url(rq_url, health_check_interval=30, socket_connect_timeout=timeout)


def embedded(server=None) -> redis.Redis:
    """An in-process Redis (fakeredis) on ``server`` (a new one if None)."""
    import fakeredis

    return fakeredis.FakeRedis(server=server or fakeredis.FakeServer())
