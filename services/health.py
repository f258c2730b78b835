"""Is this process's Redis there? ``GET /api/health``'s check, answered within ``DEADLINE`` whatever Redis does.

Each Redis the process uses (the event store's; the queues' when it is another) is asked a ``PING`` and how much of
its ``maxmemory`` it uses, on a thread of the checker's own; the answer waits for them at most ``DEADLINE``
seconds. A Redis that has not answered by then is *too slow* (its check goes on in the background, and the next
health request waits for that same check rather than starting another: a stalled Redis never piles up threads);
one that refused or timed out is *unreachable*; one above ``FULL`` of its ``maxmemory`` is *nearly full* (with
``noeviction`` it refuses writes when full). Each is a sentence in ``problems``.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import redis

from services.config import public_url

DEADLINE = 0.5  # seconds a health request waits for every Redis at once (the contract's bound is 1 s)
SLOW = 0.25  # a PING slower than this, answered within the deadline, is worth saying
FULL = 0.95  # used memory over this share of maxmemory: writes are about to be refused


class Health:
    """The health check of one process's Redis clients (``clients``: label → client)."""

    def __init__(self, clients: dict[str, Any], shown: dict[str, str] | None = None):
        self.clients = clients
        self.shown = shown or {}
        self._pool = ThreadPoolExecutor(max_workers=len(clients) or 1, thread_name_prefix="health")
        self._running: dict[str, Future] = {}
        self._lock = threading.Lock()

    @classmethod
    def of(cls, runtime: Any) -> Health:
        """The check of a runtime's clients: the event store's, and the queues' when they are another Redis."""
        settings = runtime.settings
        clients = {"events": runtime.redis}
        shown = {"events": public_url(settings.redis_url)}
        if runtime.rq_redis is not runtime.redis:
            clients["queues"] = runtime.rq_redis
            shown["queues"] = public_url(settings.rq_url)
        return cls(clients, shown)

    def check(self, deadline: float = DEADLINE) -> dict:
        """``{"ok", "problems", "redis": {label: url}}``; returns within about ``deadline`` seconds."""
        futures = {label: self._start(label) for label in self.clients}
        problems = []
        for label, future in futures.items():
            try:
                problems += future.result(timeout=deadline)
            except FutureTimeout:
                problems.append(f"redis ({label}) did not answer within {deadline:g} s")
                deadline = 0.0  # the others had the same time already
        return {"ok": not problems, "problems": problems, "redis": dict(self.shown)}

    def _start(self, label: str) -> Future:
        with self._lock:
            running = self._running.get(label)
            if running is None or running.done():
                running = self._running[label] = self._pool.submit(self._probe, label)
            return running

    def _probe(self, label: str) -> list[str]:
        client = self.clients[label]
        started = time.perf_counter()
        try:
            if hasattr(client, "get_primaries"):  # a cluster: a PING of every master; its memory is doctor's
                client.ping()
                memory = {}
            else:  # one round trip for both
                pipe = client.pipeline(transaction=False)
                pipe.ping()
                pipe.info("memory")
                _, memory = pipe.execute(raise_on_error=False)
                if isinstance(memory, redis.ResponseError):  # a Redis that does not say (the embedded one)
                    memory = {}
            took = time.perf_counter() - started
        except Exception as exc:  # noqa: BLE001 - any failure to answer is the problem reported
            return [f"redis ({label}) is unreachable: {type(exc).__name__}"]
        problems = []
        if took > SLOW:
            problems.append(f"redis ({label}) is slow: a round trip took {took * 1000:.0f} ms")
        used, limit = int(memory.get("used_memory", 0) or 0), int(memory.get("maxmemory", 0) or 0)
        if limit and used / limit > FULL:
            problems.append(f"redis ({label}) is nearly full: {used / limit:.0%} of its maxmemory; writes will be "
                            "refused")
        return problems
