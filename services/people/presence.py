"""Presence: whether each seat's player has the game's page or their account's stream open (docs/api.md "Meeting
people": ``online`` per seat, within 30 s).

A seat's page says so every ``BEAT_MS`` (``POST /api/games/<gid>/presence`` with its token), and a seat reading
its own document is seen too; a signed-in account is seen while one of its streams (``GET /api/me/stream``) is
open, renewed by the stream's process. A seat is online when either was seen in the last ``ONLINE_MS``. Only a
beat tells the game's other pages that a seat came online (a ``presence`` notice): a read notes when the seat was
seen, and publishes nothing. Nothing of this is a game event: it changes no state, only what a document says right
now, and what a waiting player may claim (``claim victory``, ``claim draw``) of an opponent away ``AWAY_MS`` on
their turn.
"""

from __future__ import annotations

import time
from datetime import datetime

import redis

from services.store.streams import Keys

BEAT_MS = 15_000  # how often a page says it is still open
ONLINE_MS = 30_000  # seen this recently: online
AWAY_MS = 60_000  # away this long on their turn: the other seat may claim the game
KEEP_MS = 86_400_000  # a game's presence is kept a day after its last beat
CREATOR_GONE_MS = 300_000  # an open game whose creator has had no page open this long leaves the open list


def now_ms() -> int:
    return int(time.time() * 1000)


class Presence:
    """Presence of every game's seats and of every account (``keys``) on ``client``."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys

    def seat_seen(self, gid: str, seat: int, at: int | None = None) -> None:
        """The seat's player has the game open now (its page read the seat's document)."""
        key, at = self.keys.presence(gid), at or now_ms()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(key, str(seat), at)
        pipe.pexpire(key, KEEP_MS)
        pipe.execute()

    def seat_beat(self, gid: str, seat: int, at: int | None = None) -> bool:
        """The seat's page says it is open (its beat): seen now; True when that page had not said so in the last
        ``ONLINE_MS`` (it came online, or back: the game's other pages are worth telling). A page reads its
        document before its first beat, so whether to tell is the beats' record, not the reads'."""
        key, beats, at = self.keys.presence(gid), self.keys.presence_beats(gid), at or now_ms()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(beats, str(seat))
        for name in (beats, key):
            pipe.hset(name, str(seat), at)
            pipe.pexpire(name, KEEP_MS)
        before = pipe.execute()[0]
        return before is None or at - int(before) > ONLINE_MS

    def accounts_seen(self, accounts: list[str], at: int | None = None) -> None:
        if accounts:
            self.redis.zadd(self.keys.accounts_seen(), dict.fromkeys(accounts, at or now_ms()))

    def last_seen(self, gid: str, accounts: list[str | None]) -> list[int | None]:
        """When each seat's player was last seen (ms), by its page or its account (``accounts``: each seat's
        account, or None); None: never."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.keys.presence(gid))
        named = [a for a in accounts if a]
        if named:
            pipe.zmscore(self.keys.accounts_seen(), named)
        found = pipe.execute()
        seats = {int(k): int(v) for k, v in found[0].items()}
        by_account = dict(zip(named, found[1])) if named else {}
        out = []
        for seat, account in enumerate(accounts):
            times = [seats.get(seat), by_account.get(account) if account else None]
            known = [int(t) for t in times if t is not None]
            out.append(max(known) if known else None)
        return out

    def online(self, gid: str, accounts: list[str | None], now: int | None = None) -> list[bool]:
        """Each seat: its player seen in the last ``ONLINE_MS``."""
        now = now or now_ms()
        return [seen is not None and now - seen <= ONLINE_MS for seen in self.last_seen(gid, accounts)]

    def account_seen_at(self, account: str) -> int | None:
        score = self.redis.zscore(self.keys.accounts_seen(), account)
        return int(score) if score is not None else None

    def creators_here(self, lines: list[dict], now: int | None = None) -> list[dict]:
        """The lobby lines of open games whose creator (the first seat a person holds) has had the game's page
        open in the last ``CREATOR_GONE_MS`` (or created it that recently): nobody joins a game to wait for a
        player who left. One round trip for the page."""
        now = now or now_ms()
        creators = [next((p["seat"] for p in line["players"]
                          if not p.get("ai") and p["seat"] not in line.get("open_seats", [])), None)
                    for line in lines]
        pipe = self.redis.pipeline(transaction=False)
        for line, seat in zip(lines, creators):
            pipe.hget(self.keys.presence(line["id"]), str(seat if seat is not None else -1))
        seen = pipe.execute() if lines else []
        out = []
        for line, last in zip(lines, seen):
            created = _ms(line.get("created"))
            latest = max(int(last) if last is not None else 0, created)
            if now - latest <= CREATOR_GONE_MS:
                out.append(line)
        return out


def _ms(iso: str | None) -> int:
    """Milliseconds of an ISO time of the lobby (0 when there is none)."""
    return int(datetime.fromisoformat(iso).timestamp() * 1000) if iso else 0
