"""Wiring: the Redis connections, store, service, projector and job queue of one process.

Production: ``REDIS_URL`` (and optionally ``RQ_URL``). Embedded: one in-process ``fakeredis.FakeServer`` shared
by Flask, the dispatcher thread and the RQ worker thread, with a journal on disk.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import redis
import rq

from services.config import Settings
from services.games import GameService
from services.jobs import RQJobs
from services.projections import Projector
from services.ratings import Ratings
from services.store import EventStore, Keys


@dataclass
class Runtime:
    settings: Settings
    redis: redis.Redis
    rq_redis: redis.Redis
    store: EventStore
    service: GameService
    projector: Projector
    queue: rq.Queue
    jobs: RQJobs
    ratings: Ratings
    embedded: bool = False
    loaded_games: int = 0


def build(settings: Settings, *, fake_server=None, journal: bool | None = None) -> Runtime:
    """A runtime for ``settings``; embedded (fakeredis) when ``settings.redis_url`` is None.

    ``journal`` (default: on when embedded) keeps the embedded store's events in ``settings.data_dir``.
    """
    keys = Keys(settings.prefix, settings.partitions)
    embedded = settings.redis_url is None
    if embedded:
        import fakeredis

        server = fake_server or fakeredis.FakeServer()
        client = fakeredis.FakeRedis(server=server)
        rq_client = client
    else:
        client = connect(settings.redis_url)
        if settings.rq_url is None and settings.redis_url.startswith(CLUSTER_SCHEME):
            raise ValueError("RQ cannot use a Redis Cluster: set RQ_URL to a plain Redis for the job queues")
        rq_client = redis.Redis.from_url(settings.rq_url) if settings.rq_url else client
    loaded = 0
    if journal if journal is not None else embedded:
        from services.journal import JournaledEventStore

        store = JournaledEventStore(client, keys, settings.data_dir)
        loaded = store.load()
    else:
        store = EventStore(client, keys)
    queue = rq.Queue(settings.queue_name, connection=rq_client)
    jobs = RQJobs(queue)
    service = GameService(store, jobs if settings.fast_path else None, limits=settings.limits)
    return Runtime(settings, client, rq_client, store, service, Projector(service), queue, jobs, Ratings(service),
                   embedded, loaded)


CLUSTER_SCHEME = "redis+cluster://"


def connect(url: str) -> redis.Redis:
    """A client for ``url``: ``redis+cluster://host:port`` (any node of it) is a Redis Cluster."""
    if url.startswith(CLUSTER_SCHEME):
        from redis.cluster import RedisCluster

        return RedisCluster.from_url("redis://" + url.removeprefix(CLUSTER_SCHEME), socket_timeout=10,
                                     socket_connect_timeout=5)
    return redis.Redis.from_url(url, health_check_interval=30, socket_timeout=10, socket_connect_timeout=5)


_current: Runtime | None = None
_lock = threading.Lock()


def install(runtime: Runtime) -> None:
    """Make ``runtime`` the one job functions use in this process (embedded mode, tests)."""
    global _current
    _current = runtime


def current() -> Runtime:
    """This process's runtime; built from the environment on first use (``rq worker`` processes)."""
    global _current
    with _lock:
        if _current is None:
            _current = build(Settings.from_env(), journal=False)
        return _current
