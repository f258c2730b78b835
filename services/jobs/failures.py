"""Log entries the dispatcher failed to handle: retries with backoff, then the partition's dead letters.

A failure (an event that does not decode, a log that does not fold) belongs to one entry of one game; it never
holds back other entries. Each failure is counted in ``P:{pN}:failures`` (entry id → count, next try, last error),
so that every dispatcher, including one that took over from a dead one, sees the same count and waits out the
same backoff: ``retry_ms`` × 2^(failures − 1), at most ``MAX_BACKOFF_MS``. After ``limit`` failures the entry is
copied to the dead-letter stream ``P:{pN}:dead`` (entry, gid, v, type, failures, error, at) and acknowledged, in
one script. Dead letters stay until an operator deletes them; ``burrow doctor`` lists them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import redis

from services.scripts import lua
from services.store.log import LOG_GROUP
from services.store.streams import Keys

DEAD_LETTER_SCRIPT = lua("dead_letter")
MAX_BACKOFF_MS = 60_000
ERROR_CHARS = 500


@dataclass(frozen=True)
class Failure:
    """What is known of a failing entry: how often it failed, when it may be tried again, the last error."""

    count: int
    next_at: int
    error: str


@dataclass(frozen=True)
class DeadLetter:
    """An entry given up on: its log entry id, game, version, type, failures, last error and time (ms)."""

    id: str
    entry: str
    gid: str
    version: int
    type: str
    failures: int
    error: str
    at: int


class Failures:
    """Failure counts and dead letters of the partition logs read by the consumer group ``group``."""

    def __init__(self, client: redis.Redis, keys: Keys, group: str = LOG_GROUP, limit: int = 5,
                 retry_ms: int = 1000):
        if limit < 1:
            raise ValueError("the dead-letter limit must be at least 1")
        self.redis = client
        self.keys = keys
        self.group = group
        self.limit = limit
        self.retry_ms = retry_ms
        self._dead_letter = client.register_script(DEAD_LETTER_SCRIPT)

    def backoff_ms(self, count: int) -> int:
        """How long to wait after the ``count``-th failure before trying again."""
        return min(MAX_BACKOFF_MS, self.retry_ms * 2 ** min(count - 1, 30))

    def of(self, partition: int) -> dict[str, Failure]:
        """Every failing entry of the partition (few: entries leave at the limit)."""
        raw = self.redis.hgetall(self.keys.failures(partition))
        out = {}
        for eid, value in raw.items():
            item = json.loads(value)
            out[eid.decode()] = Failure(item["n"], item["next"], item["error"])
        return out

    def failed(self, partition: int, eid: str, fields: dict, error: str, now_ms: int,
               known: Failure | None) -> Failure | None:
        """Count one failure of entry ``eid`` (``fields``: its gid, v and type as text): the failure as now
        recorded, or None when this one reached the limit and the entry was dead-lettered and acknowledged."""
        count = (known.count if known else 0) + 1
        error = error.replace("\n", " ")[:ERROR_CHARS]
        if count >= self.limit:
            self._dead_letter(keys=[self.keys.log(partition), self.keys.failures(partition),
                                    self.keys.dead(partition)],
                              args=[self.group, eid, fields["gid"], fields["v"], fields.get("type", ""), count,
                                    error, now_ms])
            return None
        failure = Failure(count, now_ms + self.backoff_ms(count), error)
        value = json.dumps({"n": failure.count, "next": failure.next_at, "error": failure.error})
        self.redis.hset(self.keys.failures(partition), eid, value)
        return failure

    def recovered(self, partition: int, eids: list[str]) -> None:
        """Forget the failures of entries handled since."""
        if eids:
            self.redis.hdel(self.keys.failures(partition), *eids)

    def dead_count(self, partition: int) -> int:
        return self.redis.xlen(self.keys.dead(partition))

    def dead_letters(self, partition: int, count: int = 10) -> list[DeadLetter]:
        """The partition's most recent dead letters, newest first."""
        out = []
        for did, f in self.redis.xrevrange(self.keys.dead(partition), count=count):
            def text(name: bytes, f=f) -> str:
                return f.get(name, b"").decode(errors="replace")

            out.append(DeadLetter(did.decode(), text(b"entry"), text(b"gid"), int(f.get(b"v", 0)), text(b"type"),
                                  int(f.get(b"failures", 0)), text(b"error"), int(f.get(b"at", 0))))
        return out
