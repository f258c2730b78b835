"""What a deployment measures, in the Prometheus format (``GET /metrics``; docs/api.md, "Operations").

``Metrics`` holds the metrics each process *observes* (commands, requests, jobs, projection lag, clock lateness,
open live streams); the composition root builds one per process (``burrow/runtime.py``) and, when the process is
one of several (``PROMETHEUS_MULTIPROC_DIR``, set up by ``burrow/observed.py``), prometheus-client keeps their
values in files of that directory, which ``scrape`` adds up over every process, live or dead (a dead process's
counters still count: a counter never goes down; its live-stream gauge is dropped).

What is *read* rather than observed — queue depths, dead letters, accounts, workers and dispatchers alive, each
Redis's round-trip time and memory — is read from Redis when scraped (``StateCollector``), by the one process
answering the scrape: a gauge written by every process would be counted once per process.

Label values are bounded: a game's name from the registry (else ``other``), an outcome from the errors' codes, a
route's template (never its path), a queue's kind.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from domain.registry import GAME_NAMES

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: a command takes a few ms; an HTTP request up to the body deadline; a job up to an AI's 2 × ai_time or
# an analysis chunk; a projection's lag is ms when the workers keep up and seconds when they do not.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
LAG = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def multiprocess_dir() -> str | None:
    """The directory prometheus-client keeps every process's values in, or None (this process alone)."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def game_label(name: str | None) -> str:
    """A game's name as a label value: one of the registered games, else ``other`` (bounded cardinality)."""
    return name if name in GAME_NAMES else "other"


class Metrics:
    """The metrics this process observes. Built once per process by the composition root; with a multiprocess
    directory they are registered nowhere (``scrape`` reads every process's files), else in ``registry``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        shared = multiprocess_dir() is not None
        where = {"registry": None if shared else self.registry}
        self.commands = Counter("burrow_commands", "Commands answered, by game and outcome (ok or the error code)",
                                ["game", "outcome"], **where)
        self.command_seconds = Histogram("burrow_command_seconds", "Time to judge and append a command",
                                         ["game"], buckets=FAST, **where)
        self.http_requests = Counter("burrow_http_requests", "HTTP requests answered, by route template and "
                                     "status", ["route", "status"], **where)
        self.http_seconds = Histogram("burrow_http_request_seconds", "Time to answer an HTTP request (to its "
                                      "head, for a live stream)", ["route"], buckets=FAST, **where)
        self.live_streams = Gauge("burrow_live_streams", "Live streams (SSE) open now",
                                  multiprocess_mode="livesum", **where)
        self.projection_lag = Histogram("burrow_projection_lag_seconds", "From a game's first poke (its command "
                                        "appended) to its documents written", buckets=LAG, **where)
        self.job_seconds = Histogram("burrow_job_seconds", "Time an RQ job ran, by queue", ["queue"],
                                     buckets=SLOW, **where)
        self.jobs = Counter("burrow_jobs", "RQ jobs ended, by queue and outcome (ok, failed)",
                            ["queue", "outcome"], **where)
        self.ai_turn_seconds = Histogram("burrow_ai_turn_seconds", "Time an AI turn took, by outcome",
                                         ["outcome"], buckets=SLOW, **where)
        self.clock_lateness = Histogram("burrow_clock_lateness_seconds", "How long after its deadline a game "
                                        "whose clock ran out was ended", buckets=LAG, **where)
        self.dispatcher_errors = Counter("burrow_dispatcher_redis_errors", "Dispatcher loops that could not "
                                         "reach Redis", **where)


def scrape(metrics: Metrics, state: StateCollector | None = None) -> bytes:
    """The text exposition of every process's metrics (or this one's), and ``state`` read now."""
    directory = multiprocess_dir()
    if directory is None:
        registry = metrics.registry
        if state is None:
            return generate_latest(registry)
        out = CollectorRegistry(auto_describe=False)
        out.register(_Both(registry, state))
        return generate_latest(out)
    registry = CollectorRegistry(auto_describe=False)
    MultiProcessCollector(registry, path=directory)
    if state is not None:
        registry.register(state)
    return generate_latest(registry)


class _Both:
    """A collector of a registry's metrics and another collector's."""

    def __init__(self, registry: CollectorRegistry, state: Any):
        self.registry, self.state = registry, state

    def collect(self) -> Iterator:
        yield from self.registry.collect()
        yield from self.state.collect()


class StateCollector:
    """What Redis says when scraped: the queues' depths, games waiting for a projection, dead letters, accounts,
    sessions, workers and dispatchers alive, each Redis's round-trip time, memory and whether it answered. A part
    that cannot be read is left out and ``burrow_redis_up`` says which Redis did not answer."""

    def __init__(self, runtime: Any):
        self.runtime = runtime

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from services.jobs import doctor
        from services.jobs.failures import Failures

        rt = self.runtime
        up = GaugeMetricFamily("burrow_redis_up", "1 if the Redis answered this scrape's PING", labels=["redis"])
        rtt = GaugeMetricFamily("burrow_redis_roundtrip_seconds", "A PING's round trip, measured at the scrape",
                                labels=["redis"])
        reachable = {}
        for label, client in self._clients():
            started = time.perf_counter()
            try:
                client.ping()
            except Exception:  # noqa: BLE001 - reported as down
                reachable[label] = False
                up.add_metric([label], 0)
                continue
            reachable[label] = True
            up.add_metric([label], 1)
            rtt.add_metric([label], time.perf_counter() - started)
        yield up
        yield rtt
        if reachable.get("queues"):
            yield from self._queues(rt, doctor)
        if reachable.get("events"):
            yield from self._events(rt, doctor, Failures)
        if all(reachable.values()):
            used = GaugeMetricFamily("burrow_redis_memory_used_bytes", "Memory a Redis uses", labels=["redis"])
            limit = GaugeMetricFamily("burrow_redis_memory_max_bytes", "A Redis's maxmemory (0: none)",
                                      labels=["redis"])
            for server in _quietly(lambda: doctor.memory(rt), []):
                used.add_metric([server["redis"]], server["used"])
                limit.add_metric([server["redis"]], server["maxmemory"])
            yield used
            yield limit

    def _clients(self) -> list[tuple[str, Any]]:
        rt = self.runtime
        clients = [("events", rt.redis)]
        if rt.rq_redis is not rt.redis:
            clients.append(("queues", rt.rq_redis))
        else:
            clients.append(("queues", rt.redis))
        return clients

    @staticmethod
    def _queues(rt, doctor) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily("burrow_queue_jobs", "Jobs waiting in an RQ queue", labels=["queue"])
        workers = GaugeMetricFamily("burrow_workers", "RQ workers alive (beat in the last 30 s) serving a queue",
                                    labels=["queue"])
        alive = _quietly(lambda: doctor.live_workers(rt.rq_redis, time.time() * 1000), [])
        for kind, queue in rt.jobs.queues.items():
            count = _quietly(lambda queue=queue: queue.count, None)
            if count is not None:
                depth.add_metric([kind], count)
            workers.add_metric([kind], sum(queue.name in w.queue_names() for w in alive))
        yield depth
        yield workers
        waiting = _quietly(rt.jobs.pending, None)
        if waiting is not None:
            yield GaugeMetricFamily("burrow_projection_games_waiting", "Games waiting for a projection job",
                                    value=waiting)

    @staticmethod
    def _events(rt, doctor, failures_of) -> Iterator[GaugeMetricFamily]:
        keys = rt.store.keys
        failures = failures_of(rt.redis, keys)
        now = doctor.now_ms()
        dead = GaugeMetricFamily("burrow_dead_letters", "Log entries the dispatchers gave up on, by partition",
                                 labels=["partition"])
        behind = GaugeMetricFamily("burrow_log_behind_seconds", "Age of the oldest log entry whose effect is not "
                                   "visible yet, by partition", labels=["partition"])
        for p in range(keys.partitions):
            summary = _quietly(lambda p=p: doctor.partition_summary(rt.redis, keys, failures, p, now), None)
            if summary is not None:
                dead.add_metric([str(p)], summary["dead_letters"])
                behind.add_metric([str(p)], summary["lag_ms"] / 1000)
        yield dead
        yield behind
        seen = _quietly(lambda: doctor.Heartbeats(rt.redis, keys).seen(), None)
        if seen is not None:
            yield GaugeMetricFamily("burrow_dispatchers", "Dispatchers that read the logs in the last 15 s",
                                    value=sum(now - at <= doctor.ALIVE_MS for at in seen.values()))
        accounts = _quietly(lambda: rt.redis.hlen(keys.usernames()), None)
        if accounts is not None:
            yield GaugeMetricFamily("burrow_accounts", "Accounts (usernames claimed)", value=accounts)


def _quietly(read, default):
    """``read()``, or ``default`` if Redis could not answer it (the scrape shows what it could read)."""
    try:
        return read()
    except Exception:  # noqa: BLE001 - a part left out of the scrape
        return default
