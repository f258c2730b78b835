"""The dispatchers' consumer group on the partition logs: the only place its Redis commands are issued.

Every partition log ``P:{pN}:log`` has one consumer group; each dispatcher is a consumer of it. An entry read is
pending for its consumer until acknowledged; one left pending ``idle_ms`` (its dispatcher died, or has not seen
its effect yet) is claimed back by whoever asks. Entries are ``(id, fields)`` pairs as redis-py returns them;
a deleted entry comes back with empty fields.
"""

from __future__ import annotations

import redis

from services.store.streams import Keys

LOG_GROUP = "dispatch"  # the dispatchers' consumer group on every partition log

Entry = tuple[bytes | str, dict]


class LogGroup:
    """The consumer group ``group`` on every partition log of ``keys``."""

    def __init__(self, client: redis.Redis, keys: Keys, group: str = LOG_GROUP):
        self.redis = client
        self.keys = keys
        self.group = group

    def ensure(self) -> None:
        """Create the group on every partition log (from its first entry) unless it exists."""
        for p in range(self.keys.partitions):
            try:
                self.redis.xgroup_create(self.keys.log(p), self.group, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def read(self, partition: int, consumer: str, count: int, block_ms: int | None = None) -> list[Entry]:
        """Entries never delivered to the group, now pending for ``consumer``; waits up to ``block_ms`` if none."""
        answer = self.redis.xreadgroup(self.group, consumer, {self.keys.log(partition): ">"}, count=count,
                                       block=block_ms)
        return [entry for _, entries in answer or [] for entry in entries]

    def autoclaim(self, partition: int, consumer: str, idle_ms: int, count: int) -> list[Entry]:
        """Entries pending for at least ``idle_ms`` (of any consumer), now pending for ``consumer``."""
        return self.redis.xautoclaim(self.keys.log(partition), self.group, consumer, idle_ms, "0-0",
                                     count=count)[1]

    def claim(self, partition: int, consumer: str, ids: list[str]) -> list[Entry]:
        """The pending entries ``ids``, whatever their idle time, now pending for ``consumer``."""
        if not ids:
            return []
        return self.redis.xclaim(self.keys.log(partition), self.group, consumer, 0, ids)

    def ack(self, partition: int, ids: list[str]) -> None:
        """Acknowledge ``ids``: their effect is visible, nobody needs to see them again."""
        if ids:
            self.redis.xack(self.keys.log(partition), self.group, *ids)
