"""The dispatcher: reads every partition log with a consumer group and enqueues the jobs each event calls for.

For each batch: a projection job per game touched, and an AI turn when an AI seat must act. Entries are
acknowledged only after their jobs are enqueued; entries of a consumer that died are claimed back (XAUTOCLAIM)
after ``claim_idle_ms``. Jobs are idempotent, so a batch handled twice changes nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import threading

import redis

from services.ai_turns import ai_seats_to_act
from services.runtime import Runtime

log = logging.getLogger(__name__)

GROUP = "dispatch"


class Dispatcher:
    def __init__(self, runtime: Runtime, consumer: str | None = None, claim_idle_ms: int = 30_000,
                 batch: int = 200):
        self.runtime = runtime
        self.redis = runtime.redis
        self.keys = runtime.store.keys
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{threading.get_ident()}"
        self.claim_idle_ms = claim_idle_ms
        self.batch = batch
        self.stopping = threading.Event()
        self._ensure_groups()

    def _ensure_groups(self) -> None:
        for p in range(self.keys.partitions):
            try:
                self.redis.xgroup_create(self.keys.log(p), GROUP, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def run_once(self, block_ms: int = 1000) -> int:
        """Handle what is pending in every partition (claimed, then new); returns the number of log entries."""
        handled = 0
        per_partition_block = max(1, block_ms // self.keys.partitions)
        for p in range(self.keys.partitions):
            log_key = self.keys.log(p)
            claimed = self.redis.xautoclaim(log_key, GROUP, self.consumer, self.claim_idle_ms, "0-0",
                                            count=self.batch)[1]
            handled += self._handle(log_key, claimed)
            block = per_partition_block if handled == 0 else None
            fresh = self.redis.xreadgroup(GROUP, self.consumer, {log_key: ">"}, count=self.batch, block=block)
            for _, entries in fresh or []:
                handled += self._handle(log_key, entries)
        return handled

    def _handle(self, log_key: str, entries) -> int:
        entries = [(eid, fields) for eid, fields in entries if fields]  # deleted entries come back empty
        if not entries:
            return 0
        gids = list(dict.fromkeys(fields[b"gid"].decode() for _, fields in entries))
        for gid in gids:
            self.runtime.jobs.project(gid)
            game = self.runtime.service.load(gid)
            for seat in ai_seats_to_act(game.meta, game.module.to_act(game.state)):
                self.runtime.jobs.ai_turn(gid, seat, game.version)
        self.redis.xack(log_key, GROUP, *[eid for eid, _ in entries])
        return len(entries)

    def run(self, block_ms: int = 1000) -> None:
        """Loop until ``stop()``; a Redis outage is logged and retried."""
        while not self.stopping.is_set():
            try:
                self.run_once(block_ms)
            except redis.ConnectionError as exc:
                log.warning("dispatcher: redis unreachable (%s); retrying", exc)
                self.stopping.wait(1.0)
            except Exception:
                log.exception("dispatcher: batch failed; retrying")
                self.stopping.wait(1.0)

    def stop(self) -> None:
        self.stopping.set()
