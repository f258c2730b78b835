"""The games waiting for each account: those where one of its seats is to act (docs/api.md "Away from the
site": the
"waiting for you" count in every page's header and tab title).

A sorted set per account, gid → since when it waits (ms), kept by the dispatcher from each game it reads in the
log (``workers/dispatcher.py``): a game where the account's seat is to act joins it (keeping its first time), any
other state of the game (the turn passed, the game over) takes it out. Reading it again changes nothing, so a
batch handled twice is harmless; it is a nudge like the notifications, the games' documents are the truth.
"""

from __future__ import annotations

import time

import redis

from services.store.streams import Keys

SHOWN = 50  # games a page is told of at most (the count is exact)


class Waiting:
    """The waiting games of every account (``keys``) on ``client``."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys

    def update(self, games: list[tuple[str, list[str | None], list[int], bool]]) -> None:
        """For each ``(gid, accounts by seat, seats to act, playing)``: the accounts to act wait on it, the others
        do not. One round trip."""
        if not games:
            return
        now = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        for gid, accounts, to_act, playing in games:
            for seat, account in enumerate(accounts):
                if not account:
                    continue
                key = self.keys.waiting(account.lower())
                if playing and seat in to_act:
                    pipe.zadd(key, {gid: now}, nx=True)
                else:
                    pipe.zrem(key, gid)
        pipe.execute()

    def of(self, account: str) -> tuple[int, list[str]]:
        """How many games wait for ``account`` (its username, lower case), and the ``SHOWN`` that wait longest."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(self.keys.waiting(account))
        pipe.zrange(self.keys.waiting(account), 0, SHOWN - 1)
        count, gids = pipe.execute()
        return count, [g.decode() if isinstance(g, bytes) else g for g in gids]
