"""Notifications: what an account's every open tab and device is told (``GET /api/me/stream``), and what a game's
open pages are told beside its versions (``GET /api/games/<gid>/notices``: a chat message posted, a player back).

An account's notifications are kept in a stream of its own, trimmed to its last ``KEPT`` (its streams resume from
there with ``Last-Event-ID``), and announced on one notifications log that every web process's hub follows
(``services/live/hub.py``), with its id in the account's stream. A game's notices go to the log only: they
carry no content a page must not see (a chat notice names the room and the message's id; the page fetches what it
may read).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import redis

from services.scripts import lua
from services.store.streams import Keys

KEPT = 100  # notifications kept per account
LOG_KEPT = 10_000  # entries kept in the notifications log (a few seconds of traffic: the hubs follow its end)

KINDS = ("game_started", "your_turn", "challenge", "challenge_declined", "challenge_accepted",
         "challenge_cancelled", "rematch_offered", "draw_offered", "draw_declined", "game_over", "seek_paired",
         "tournament_game", "vacation")


@dataclass(frozen=True)
class Notification:
    id: str
    data: dict


class Notifications:
    """The notifications of every account and game (``keys``) on ``client``."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys
        self._notify = client.register_script(lua("notify"))
        self.away: Callable[[list[tuple[str, str, dict]]], None] | None = None
        """Given every batch of account notifications once they are written (``services/away/``: pushes and
        mails, queued for the workers), when the composition root wires it."""

    def to_account(self, account: str, kind: str, **data) -> str:
        """Tell ``account`` (its username, lower case, or a guest session's id) something of ``kind``; returns the
        notification's id."""
        return self.to_accounts([(account, kind, data)])[0]

    def to_accounts(self, notices: list[tuple[str, str, dict]]) -> list[str]:
        """Tell each ``(account, kind, data)``; the notifications' ids. Then the batch goes away from the site
        (``away``) in one go."""
        ids = []
        for account, kind, data in notices:
            if kind not in KINDS:
                raise ValueError(f"no notification {kind!r}")
            payload = json.dumps({"type": kind, **data}, separators=(",", ":"))
            found = self._notify(keys=[self.keys.notifications(account), self.keys.notifications_log()],
                                 args=[account, payload, KEPT, LOG_KEPT])
            ids.append(found.decode() if isinstance(found, bytes) else found)
        if self.away is not None and notices:
            self.away(notices)
        return ids

    def to_game(self, gid: str, kind: str, **data) -> None:
        """Tell the open pages of game ``gid`` something beside its versions (a chat message posted)."""
        payload = json.dumps({"type": kind, **data}, separators=(",", ":"))
        self.redis.xadd(self.keys.notifications_log(), {"to": f"game:{gid}", "data": payload}, maxlen=LOG_KEPT,
                        approximate=True)

    def to_tournament(self, tid: str, version: int, document: str) -> None:
        """Tell the open pages of tournament ``tid`` its document at ``version`` (encoded once, for every one)."""
        self.redis.xadd(self.keys.notifications_log(), {"to": f"tournament:{tid}", "v": version, "data": document},
                        maxlen=LOG_KEPT, approximate=True)

    def since(self, account: str, after: str | None, count: int = KEPT) -> list[Notification]:
        """The account's notifications after the one with id ``after`` (None: none — the stream starts now)."""
        if after is None:
            return []
        found = self.redis.xrange(self.keys.notifications(account), f"({after}", "+", count=count)
        return [Notification(_text(i), json.loads(fields[b"data"])) for i, fields in found]

    def newest_id(self, account: str) -> str | None:
        found = self.redis.xrevrange(self.keys.notifications(account), count=1)
        return _text(found[0][0]) if found else None


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
