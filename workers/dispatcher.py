"""The dispatcher: reads every partition log with a consumer group and enqueues the jobs each event calls for.

For each batch: a projection job per game touched, and an AI turn when an AI seat must act. An entry is
acknowledged only once its effect is visible (the game's projections have reached its version and no AI seat is
still to act at it); until then it stays pending, and pending entries, of this consumer or of one that died, are
claimed back (XAUTOCLAIM) after ``claim_idle_ms`` and their jobs enqueued again. So a job lost with a killed worker
is redone. Jobs are idempotent: a batch handled twice changes nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import threading

import redis

from services.ai_turns import ai_seats_to_act
from services.context import Runtime

log = logging.getLogger(__name__)

GROUP = "dispatch"


class Dispatcher:
    def __init__(self, runtime: Runtime, consumer: str | None = None, claim_idle_ms: int | None = None,
                 batch: int = 200):
        self.runtime = runtime
        self.redis = runtime.redis
        self.keys = runtime.store.keys
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{threading.get_ident()}"
        self.claim_idle_ms = runtime.settings.claim_idle_ms if claim_idle_ms is None else claim_idle_ms
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
        projected, ai_waits_at = {}, {}
        for gid in gids:
            game = self.runtime.service.load(gid)
            projected[gid] = self.runtime.projector.projected(gid)
            if projected[gid] < game.version:
                self.runtime.jobs.project(gid)
            ai_seats = ai_seats_to_act(game.meta, game.module.to_act(game.state))
            for seat in ai_seats:
                self.runtime.jobs.ai_turn(gid, seat, game.version, game.meta.get("client"))
            ai_waits_at[gid] = game.version if ai_seats else None
        done = []
        for eid, fields in entries:
            gid, version = fields[b"gid"].decode(), int(fields[b"v"])
            if version <= projected[gid] and version != ai_waits_at[gid]:
                done.append(eid)
        if done:
            self.redis.xack(log_key, GROUP, *done)
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
