"""Is the pipeline healthy? Pending entries, retries and dead letters per partition, projection lag, dispatchers,
workers and queues: the summary ``burrow doctor`` prints and ``GET /api/stats`` carries under ``"doctor"``.

Dispatchers say they are alive in ``P:{ops}:dispatchers`` (consumer → last read, ms) every time they read the
logs (about once a second); one seen within ``ALIVE_MS`` (8 s) counts as alive. RQ workers keep their own
registry, and beat every 2 s (``workers/worker.py``): one silent ``WORKER_ALIVE_MS`` (8 s) is dead.

Redis memory: each server's (each master's, on a cluster; the queues' server too when it is another) used memory
against its ``maxmemory``. Above ``MEMORY_LIMIT`` (80%) it is a problem: with ``noeviction`` (production's
policy) a full Redis refuses every write, so commands would fail. A server without ``maxmemory`` is a warning
(nothing to measure against: it would grow until the machine swaps or kills it); warnings do not fail the check.
"""

from __future__ import annotations

import datetime
import time
from typing import Any, Protocol

import redis
import rq

from services.jobs.failures import Failures
from services.jobs.queues import RQJobs
from services.store.log import LOG_GROUP as GROUP
from services.store.streams import EventStore, Keys


class Runtime(Protocol):
    """What the doctor reads of a process's ``services.context.Runtime`` (named here, not imported: the runtime's
    metrics read the doctor)."""

    redis: redis.Redis
    rq_redis: redis.Redis
    store: EventStore
    jobs: RQJobs

WORKER_ALIVE_MS = 8_000  # an RQ worker silent this long is dead (it beats every 2 s: workers/worker.py)
ALIVE_MS = 8_000  # a dispatcher silent for longer is taken for dead (it beats every second of its loop)
LAG_LIMIT_MS = 60_000  # an entry whose effect is not visible after this long means something is stuck
FORGET_MS = 24 * 3600 * 1000  # dispatchers silent for a day are dropped from the list
MEMORY_LIMIT = 0.8  # a Redis using more of its maxmemory than this is a problem


def now_ms() -> int:
    return int(time.time() * 1000)


class Heartbeats:
    """Dispatchers' last reads of the logs."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys

    def beat(self, consumer: str, at: int | None = None) -> None:
        self.redis.hset(self.keys.dispatchers(), consumer, at if at is not None else now_ms())

    def seen(self) -> dict[str, int]:
        """Each dispatcher's last read (ms); forgets those silent for a day."""
        raw = {k.decode(): int(v) for k, v in self.redis.hgetall(self.keys.dispatchers()).items()}
        old = [k for k, at in raw.items() if now_ms() - at > FORGET_MS]
        if old:
            self.redis.hdel(self.keys.dispatchers(), *old)
        return {k: at for k, at in raw.items() if k not in old}


def _id_ms(entry_id: bytes | str) -> int:
    """The time part (ms) of a stream entry id."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-")[0])


def partition_summary(client: redis.Redis, keys: Keys, failures: Failures, partition: int, now: int) -> dict:
    """One partition: log length, entries pending (delivered, not acknowledged) and not yet delivered, failing
    entries, dead letters, and the lag: age of the oldest log entry whose effect is not yet visible."""
    log_key = keys.log(partition)
    length = client.xlen(log_key)
    pending = undelivered = 0
    oldest = None
    if length:
        try:
            summary = client.xpending(log_key, GROUP)
        except redis.ResponseError:  # no consumer group yet: no dispatcher ever ran
            summary = None
        if summary is None:
            undelivered = length
            first = client.xrange(log_key, count=1)
            oldest = _id_ms(first[0][0]) if first else None
        else:
            pending = summary["pending"]
            if pending:
                oldest = _id_ms(summary["min"])
            group = next((g for g in client.xinfo_groups(log_key) if g["name"] in (GROUP, GROUP.encode())), None)
            last = group["last-delivered-id"] if group else b"0-0"
            last = last.decode() if isinstance(last, bytes) else last
            after = client.xrange(log_key, min=f"({last}", count=1)
            if after:
                undelivered = group.get("lag") if group and group.get("lag") is not None else None
                if undelivered is None:  # Redis could not tell: count them
                    undelivered = len(client.xrange(log_key, min=f"({last}"))
                first_new = _id_ms(after[0][0])
                oldest = first_new if oldest is None else min(oldest, first_new)
    return {
        "partition": partition,
        "log": length,
        "pending": pending,
        "undelivered": undelivered,
        "retrying": len(failures.of(partition)),
        "dead_letters": failures.dead_count(partition),
        "lag_ms": max(0, now - oldest) if oldest is not None else 0,
    }


def live_workers(connection, now: int) -> list[rq.Worker]:
    """The RQ workers that said they were alive in the last ``WORKER_ALIVE_MS``: a worker beats every 2 s from a
    thread of its own, while it waits and while a job runs (``workers/worker.py``, ``Worker.beating``), so a
    worker killed without a word (SIGKILL) drops out within 8 s, long before RQ forgets its key."""
    out = []
    for worker in rq.Worker.all(connection=connection):
        beat = worker.last_heartbeat
        if beat is not None and beat.tzinfo is None:  # RQ stores UTC
            beat = beat.replace(tzinfo=datetime.UTC)
        if beat is not None and now - beat.timestamp() * 1000 <= WORKER_ALIVE_MS:
            out.append(worker)
    return out


def _servers(client, name: str) -> list[tuple[str, Any]]:
    """(label, client) of each Redis server ``client`` writes to: its masters on a cluster."""
    if hasattr(client, "get_primaries"):
        return [(f"{name} {node.host}:{node.port}", node.redis_connection or client.get_redis_connection(node))
                for node in client.get_primaries()]
    return [(name, client)]


def _where(client) -> tuple:
    kwargs = client.connection_pool.connection_kwargs if hasattr(client, "connection_pool") else {}
    return kwargs.get("host"), kwargs.get("port"), kwargs.get("path")


def memory(runtime: Runtime) -> list[dict[str, Any]]:
    """Each Redis server's memory: ``{"redis", "used", "maxmemory", "share", "policy"}`` (bytes; ``share`` of
    ``maxmemory``, None without one). Servers that do not say (the embedded store) are left out."""
    servers = _servers(runtime.redis, "events")
    if runtime.rq_redis is not runtime.redis and _where(runtime.rq_redis) != _where(runtime.redis):
        servers += _servers(runtime.rq_redis, "queues")
    out = []
    for label, client in servers:
        try:
            info = client.info("memory")
        except (redis.RedisError, AttributeError):
            continue
        used, limit = int(info.get("used_memory", 0)), int(info.get("maxmemory", 0))
        out.append({"redis": label, "used": used, "maxmemory": limit,
                    "share": round(used / limit, 3) if limit else None,
                    "policy": str(info.get("maxmemory_policy", ""))})
    return out


def memory_notes(servers: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(problems, warnings) about Redis memory."""
    problems, warnings = [], []
    for m in servers:
        if not m["maxmemory"]:
            warnings.append(f"redis ({m['redis']}) has no maxmemory: set one (docker-compose.yml: --maxmemory) so "
                            f"that doctor can warn before it fills; it uses {_size(m['used'])} now")
        elif m["share"] > MEMORY_LIMIT:
            problems.append(f"redis ({m['redis']}) uses {m['share']:.0%} of its maxmemory ({_size(m['used'])} of "
                            f"{_size(m['maxmemory'])}): raise maxmemory or add memory before writes are refused")
    return problems, warnings


def _size(n: int) -> str:
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def summary(runtime: Runtime, lag_limit_ms: int = LAG_LIMIT_MS) -> dict[str, Any]:
    """The whole pipeline, and ``problems``: a sentence for each thing that is wrong (empty when healthy)."""
    client, keys = runtime.redis, runtime.store.keys
    failures = Failures(client, keys)
    now = now_ms()
    partitions = [partition_summary(client, keys, failures, p, now) for p in range(keys.partitions)]
    seen = Heartbeats(client, keys).seen()
    alive = sorted(name for name, at in seen.items() if now - at <= ALIVE_MS)
    queues = list(runtime.jobs.queues.values())
    workers = live_workers(runtime.rq_redis, now)
    serving = {q.name: sum(q.name in w.queue_names() for w in workers) for q in queues}
    problems = []
    for p in partitions:
        where = f"partition {p['partition']}"
        if p["dead_letters"]:
            problems.append(f"{where}: {p['dead_letters']} dead letter(s); 'burrow doctor --dead' lists them")
        if p["retrying"]:
            problems.append(f"{where}: {p['retrying']} log entr{'y is' if p['retrying'] == 1 else 'ies are'} "
                            "failing and being retried")
        if p["lag_ms"] > lag_limit_ms:
            problems.append(f"{where}: projections lag {p['lag_ms'] / 1000:.1f} s behind the log "
                            f"({p['pending']} pending, {p['undelivered']} not yet read)")
    if not alive:
        problems.append(f"no dispatcher has read the logs in the last {ALIVE_MS // 1000} s: "
                        "start 'burrow dispatch'")
    for name, count in serving.items():
        if not count:
            problems.append(f"no RQ worker serves the queue {name}: start 'burrow worker'")
    servers = memory(runtime)
    full, warnings = memory_notes(servers)
    problems += full
    return {
        "ok": not problems,
        "problems": problems,
        "warnings": warnings,
        "memory": servers,
        "partitions": partitions,
        "dispatchers": len(alive),
        "queues": [{"name": q.name, "jobs": q.count, "workers": serving[q.name]} for q in queues],
        "games_waiting": runtime.jobs.pending(),  # for a projection job (taken by the jobs in batches)
    }
