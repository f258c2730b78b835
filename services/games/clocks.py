"""Clock deadlines: the games whose clock runs, by the time their next timeout falls due.

A seat whose time runs out loses within about a second of its deadline with no client connected (docs/api.md,
"Tables"). The dispatchers keep one sorted set per partition (``Keys.deadlines``): each game they read in the
log gets its current deadline there (or leaves the set when no clock runs), and their loop, which wakes for the
log anyway, wakes for the earliest deadline too and ends the games whose time is up (``Tables.flag``: an append
with the version it was judged on, so a move and a timeout racing for one version have one winner). A deadline
written late by a slower dispatcher is only ever a look too many: the check judges the game as it is now.
"""

from __future__ import annotations

import redis

from services.store.streams import Keys

RECHECK_MS = 50  # a game whose deadline came due but whose clock has not run out is looked at again this soon


class Clocks:
    """The deadlines of every partition (``keys``) on ``client``."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys

    def set(self, deadlines: dict[str, int | None]) -> None:
        """Each game's next deadline (ms), or None when no clock of it runs; one round trip."""
        if not deadlines:
            return
        pipe = self.redis.pipeline(transaction=False)
        for gid, deadline in deadlines.items():
            key = self.keys.deadlines(self.keys.partition(gid))
            if deadline is None:
                pipe.zrem(key, gid)
            else:
                pipe.zadd(key, {gid: deadline})
        pipe.execute()

    def due(self, partition: int, now_ms: int, count: int = 100) -> list[str]:
        """The games of ``partition`` whose deadline is ``now_ms`` or earlier, earliest first."""
        return [gid for gid, _ in self.due_at(partition, now_ms, count)]

    def due_at(self, partition: int, now_ms: int, count: int = 100) -> list[tuple[str, int]]:
        """``due``, each game with its deadline (ms)."""
        found = self.redis.zrangebyscore(self.keys.deadlines(partition), "-inf", now_ms, start=0, num=count,
                                         withscores=True)
        return [(g.decode() if isinstance(g, bytes) else g, int(at)) for g, at in found]

    def next_deadline(self) -> int | None:
        """The earliest deadline of any partition (ms), or None."""
        pipe = self.redis.pipeline(transaction=False)
        for p in range(self.keys.partitions):
            pipe.zrange(self.keys.deadlines(p), 0, 0, withscores=True)
        firsts = [int(score) for answer in pipe.execute() for _, score in answer]
        return min(firsts) if firsts else None

    def pending(self, partition: int) -> int:
        """How many games of ``partition`` have a clock running."""
        return self.redis.zcard(self.keys.deadlines(partition))
