"""Quotas per client (``services/clients.py``: an address, or an IPv6 /64, hashed): how many open games one client
may hold at once (a sorted set per client in Redis, with an expiry), and how many games it may create a minute.

A game counts from its creation until it finishes, or for ``WINDOW_MS`` at most (an abandoned game stops counting
after a day). The set's key expires with the window, so idle clients leave nothing behind.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from domain.text import Text
from services import errors
from services.scripts import lua
from services.store.streams import EventStore

WINDOW_MS = 24 * 3600 * 1000

RESERVE = lua("reserve_open_game")


class OpenGames:
    """The per-client limit on open games (``Limits.open_games_per_client``; None: no limit)."""

    def __init__(self, store: EventStore, limit: int | None):
        self.store = store
        self.limit = limit
        self._reserve = store.redis.register_script(RESERVE)

    def key(self, client: str) -> str:
        return self.store.keys.client(client)

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
        raise errors.TooMany(Text("too many open games from this client (at most {limit} at once): finish one "
                                  "first, or try again later", limit=self.limit))

    def release(self, client: str | None, gid: str) -> None:
        """Forget a reservation whose game was not created after all."""
        if client is not None and self.limit is not None:
            self.store.redis.zrem(self.key(client), gid)

    def _try(self, client: str, gid: str) -> bool:
        now = int(time.time() * 1000)
        return bool(self._reserve(keys=[self.key(client)], args=[gid, now, self.limit, WINDOW_MS]))


RATE = lua("rate_window")

RATE_WINDOW_MS = 60_000


class CreationRate:
    """At most ``limit`` games created per client a minute (``Limits.games_per_minute_per_client``; None: no
    limit). A fixed window per client in Redis: one key expiring with its minute; idle clients leave nothing."""

    def __init__(self, store: EventStore, limit: int | None):
        self.store = store
        self.limit = limit
        self._count = store.redis.register_script(RATE)

    def key(self, client: str) -> str:
        return self.store.keys.client_rate(client)

    def spend(self, client: str | None) -> None:
        """Count one creation of ``client``, or raise ``TooMany`` (429) past the limit."""
        if client is None or self.limit is None:
            return
        wait_ms = int(self._count(keys=[self.key(client)], args=[self.limit, RATE_WINDOW_MS]))
        if wait_ms:
            seconds = max(1, round(wait_ms / 1000))
            raise errors.TooMany(Text("too many games created from this client (at most {limit} a minute): try "
                                      "again in {seconds} s",
                                      limit=self.limit, seconds=seconds), retry_after=seconds)
