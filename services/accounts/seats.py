"""The seats an account holds, with their tokens, so that the account finds them on any device.

A seat's token is kept here in the clear (``Keys.account_tokens``), where only the account's own session reads it
(``GET /api/me/games``): the token must be handed back, and a hash cannot be. It is written before the seat is
taken (a crash may leave an entry for a seat never taken: readers check each entry against the game)."""

from __future__ import annotations

import re
import time

import redis

from domain.text import Text
from services import errors
from services.store.streams import Keys

CURSOR = re.compile(r"(\d{1,15})\.([0-9a-f]{12}:\d{1,2})\Z")
PAGE_SLACK = 50  # seats with the cursor's own time read past it, at most


class AccountSeats:
    """An account's seats (``Keys.account_games``) and their tokens (``Keys.account_tokens``)."""

    def __init__(self, client: redis.Redis, keys: Keys, journal=None):
        self.redis = client
        self.keys = keys
        self.journal = journal

    def add(self, account_id: str, gid: str, seat: int, token: str | None, at: int | None = None) -> None:
        """Record that the account sits (or is about to sit) at ``seat`` of ``gid`` with ``token``."""
        at = at if at is not None else int(time.time() * 1000)
        member = f"{gid}:{seat}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.zadd(self.keys.account_games(account_id), {member: at})
        if token:
            pipe.hset(self.keys.account_tokens(account_id), member, token)
        pipe.execute()
        if self.journal is not None:
            self.journal.write({"op": "seat", "account": account_id, "gid": gid, "seat": seat, "token": token,
                                "at": at})

    def page(self, account_id: str, limit: int, cursor: str | None = None,
             tokens: bool = True) -> tuple[list[dict], str | None]:
        """The account's seats, newest first: ``[{"id", "seat", "token"?, "at"}]`` and the next page's cursor."""
        key = self.keys.account_games(account_id)
        if cursor is None:
            found = self.redis.zrevrangebyscore(key, "+inf", "-inf", start=0, num=limit + 1, withscores=True)
            after = None
        else:
            match = CURSOR.match(cursor)
            if not match:
                raise errors.BadRequest(Text("cursor: not a cursor of this list (use the 'next' of a page)"))
            after = (int(match.group(1)), match.group(2))
            found = self.redis.zrevrangebyscore(key, after[0], "-inf", start=0, num=limit + 1 + PAGE_SLACK,
                                                withscores=True)
        rows = [(int(score), member.decode()) for member, score in found]
        if after is not None:
            rows = [r for r in rows if r < after]
        rows = rows[: limit + 1]
        following = f"{rows[limit - 1][0]}.{rows[limit - 1][1]}" if len(rows) > limit else None
        rows = rows[:limit]
        values = self.redis.hmget(self.keys.account_tokens(account_id), [m for _, m in rows]) if rows and tokens \
            else [None] * len(rows)
        out = []
        for (at, member), token in zip(rows, values):
            gid, _, seat = member.partition(":")
            entry = {"id": gid, "seat": int(seat), "at": at}
            if tokens:
                entry["token"] = token.decode() if token else None
            out.append(entry)
        return out, following

    def in_game(self, account_id: str, gid: str, seats: int) -> list[tuple[int, str | None]]:
        """The seats of ``gid`` (a game of ``seats`` seats) the account keeps, with their tokens: ``[(seat,
        token)]``, by seat. Two reads, whatever the number of the account's games."""
        members = [f"{gid}:{seat}" for seat in range(seats)]
        pipe = self.redis.pipeline(transaction=False)
        pipe.zmscore(self.keys.account_games(account_id), members)
        pipe.hmget(self.keys.account_tokens(account_id), members)
        scores, tokens = pipe.execute()
        return [(seat, token.decode() if token else None)
                for seat, (score, token) in enumerate(zip(scores, tokens)) if score is not None]

    def restore(self, record: dict) -> None:
        """Apply one journaled seat again (the embedded mode's start)."""
        member = f"{record['gid']}:{record['seat']}"
        self.redis.zadd(self.keys.account_games(record["account"]), {member: record["at"]})
        if record.get("token"):
            self.redis.hset(self.keys.account_tokens(record["account"]), member, record["token"])
