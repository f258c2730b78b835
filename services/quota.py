"""How many open games one client may hold at once: a sorted set per client address in Redis, with an expiry.

A game counts from its creation until it finishes, or for ``WINDOW_MS`` at most (an abandoned game stops counting
after a day). The set's key expires with the window, so idle clients leave nothing behind.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from services import errors
from services.store import EventStore

WINDOW_MS = 24 * 3600 * 1000

RESERVE = """
-- KEYS[1] the client's games (gid → creation ms); ARGV: 1 gid, 2 now ms, 3 limit, 4 window ms
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[4]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""


class OpenGames:
    """The per-client limit on open games (``limits["open_games_per_client"]``; None: no limit)."""

    def __init__(self, store: EventStore, limit: int | None):
        self.store = store
        self.limit = limit
        self._reserve = store.redis.register_script(RESERVE)

    def key(self, client: str) -> str:
        return f"{self.store.keys.prefix}:client:{client}"

    def reserve(self, client: str | None, gid: str, is_open: Callable[[str], bool]) -> None:
        """Count ``gid`` as one of ``client``'s open games, or raise ``TooMany`` (429) at the limit."""
        if client is None or self.limit is None:
            return
        if self._try(client, gid):
            return
        key = self.key(client)  # at the limit: forget the games that have finished since, then try once more
        finished = [g.decode() for g in self.store.redis.zrange(key, 0, -1) if not is_open(g.decode())]
        if finished:
            self.store.redis.zrem(key, *finished)
            if self._try(client, gid):
                return
        raise errors.TooMany(f"too many open games from this client (at most {self.limit} at once): "
                             "finish one first, or try again later")

    def release(self, client: str | None, gid: str) -> None:
        """Forget a reservation whose game was not created after all."""
        if client is not None and self.limit is not None:
            self.store.redis.zrem(self.key(client), gid)

    def _try(self, client: str, gid: str) -> bool:
        now = int(time.time() * 1000)
        return bool(self._reserve(keys=[self.key(client)], args=[gid, now, self.limit, WINDOW_MS]))
