"""The partition logs, followed: the only place their Redis read commands are issued.

Every append also adds one entry per event to its partition's log ``P:{pN}:log`` (``gid``, ``v``, ``type``). Two
kinds of readers follow the logs, from two kinds of *position*, through one ``Follower`` (a position, a batch
size, a handler):

* ``Group`` — the dispatchers' consumer group: each entry goes to one dispatcher, stays pending until that one
  acknowledges it (its effect is visible), and is claimed back by another if its dispatcher dies. Work that must
  happen once per entry, whoever does it.
* ``Tail`` — a web process's live hub: every entry, from the log's end as it was when the tail started, nothing
  acknowledged. Every process must see every entry (its own watchers), and an entry missed while nobody watched
  is of no interest to anyone.

Entries are ``LogEntry``s; a deleted or malformed entry comes back with ``gid`` None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import redis

from services.store.streams import Keys

LOG_GROUP = "dispatch"  # the dispatchers' consumer group on every partition log


@dataclass(frozen=True)
class LogEntry:
    """One log entry: the game and the version it records (``gid`` None: deleted or malformed)."""

    id: str
    gid: str | None
    version: int
    fields: dict


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def parse(raw: list) -> list[LogEntry]:
    """``(id, fields)`` pairs as redis-py returns them, as ``LogEntry``s."""
    out = []
    for entry_id, fields in raw:
        try:
            gid, version = _text(fields[b"gid"]), int(fields[b"v"])
        except (KeyError, ValueError, TypeError, UnicodeDecodeError):
            gid, version = None, 0
        out.append(LogEntry(_text(entry_id), gid, version, fields or {}))
    return out


class Position(Protocol):
    """Where a follower reads next in each partition log."""

    def read(self, partition: int, count: int, block_ms: int | None) -> list[LogEntry]: ...


class Group:
    """The consumer group ``group`` on every partition log, read as ``consumer``."""

    def __init__(self, client: redis.Redis, keys: Keys, consumer: str, group: str = LOG_GROUP):
        self.redis = client
        self.keys = keys
        self.consumer = consumer
        self.group = group

    def ensure(self) -> None:
        """Create the group on every partition log (from its first entry) unless it exists."""
        for p in range(self.keys.partitions):
            try:
                self.redis.xgroup_create(self.keys.log(p), self.group, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def read(self, partition: int, count: int, block_ms: int | None = None) -> list[LogEntry]:
        """Entries never delivered to the group, now pending for this consumer; waits up to ``block_ms``."""
        answer = self.redis.xreadgroup(self.group, self.consumer, {self.keys.log(partition): ">"}, count=count,
                                       block=block_ms)
        return parse([entry for _, entries in answer or [] for entry in entries])

    def autoclaim(self, partition: int, idle_ms: int, count: int) -> list[LogEntry]:
        """Entries pending for at least ``idle_ms`` (of any consumer), now pending for this one."""
        return parse(self.redis.xautoclaim(self.keys.log(partition), self.group, self.consumer, idle_ms, "0-0",
                                           count=count)[1])

    def claim(self, partition: int, ids: list[str]) -> list[LogEntry]:
        """The pending entries ``ids``, whatever their idle time, now pending for this consumer."""
        if not ids:
            return []
        return parse(self.redis.xclaim(self.keys.log(partition), self.group, self.consumer, 0, ids))

    def ack(self, partition: int, ids: list[str]) -> None:
        """Acknowledge ``ids``: their effect is visible, nobody needs to see them again."""
        if ids:
            self.redis.xack(self.keys.log(partition), self.group, *ids)


class Tail:
    """Every new entry of every partition log (or of the logs ``key_of`` names), from each log's end as it was at
    ``start``."""

    def __init__(self, client: redis.Redis, keys: Keys, key_of: Callable[[int], str] | None = None):
        self.redis = client
        self.key_of = key_of or keys.log
        self.last: dict[int, str] = {}

    def start(self, partition: int) -> None:
        """Read ``partition`` from its newest entry now on: an entry appended after this call is read."""
        newest = self.redis.xrevrange(self.key_of(partition), count=1)
        self.last[partition] = _text(newest[0][0]) if newest else "0-0"

    def read(self, partition: int, count: int, block_ms: int | None = None) -> list[LogEntry]:
        answer = self.redis.xread({self.key_of(partition): self.last[partition]}, count=count, block=block_ms)
        entries = parse([entry for _, entries in answer or [] for entry in entries])
        if entries:
            self.last[partition] = entries[-1].id
        return entries


class Follower:
    """Reads a partition log from ``position`` in batches of ``batch`` and hands each batch to ``handler``."""

    def __init__(self, position: Position, batch: int, handler: Callable[[int, list[LogEntry]], None]):
        self.position = position
        self.batch = batch
        self.handler = handler

    def step(self, partition: int, block_ms: int | None = None) -> int:
        """One batch of ``partition`` (waiting up to ``block_ms`` for one), handled; returns its size."""
        entries = self.position.read(partition, self.batch, block_ms)
        if entries:
            self.handler(partition, entries)
        return len(entries)
