"""Quick pairing (docs/api.md "Meeting people", seeks): a player — an account, or a guest under a name — asks for a
game — game, options, clock, seats, a rating range, rated or not — and is paired at once with compatible players
waiting, or waits for them.

Compatible: the same game, options, clock, number of seats and ratedness (a guest's seek is never rated, and rated
seeks pair only with rated ones), each seeker's rating within every other's range.
Pairing is one Lua script over the open seeks (``seek.lua``: they share a Redis Cluster slot), so a seek is paired
at most once however many web processes race; a seek whose seeker has had no page or stream open for
``SEEN_MS`` lapses (the script drops it when it comes across it). Each account has at most ``MAX_OPEN`` open seeks.
A pairing starts the game (``start``: every seat an account's, in a random order) and tells every seeker
(``game_started``).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

import redis

from domain.text import Text
from services import bounds, errors
from services.people.notifications import Notifications
from services.people.person import Person
from services.people.presence import ONLINE_MS, Presence
from services.scripts import lua
from services.store.streams import Keys

MAX_OPEN = 3
SEEN_MS = ONLINE_MS

# start(game, options, clock, people) → the new game's id; each seat its person's (an account's or a guest's, whose
# token is kept under its session), in that order.
Start = Callable[[str, dict, dict | None, list[Person]], str]


class Seeks:
    """Seeks on ``client`` (``keys``); ``start`` makes the game of a pairing."""

    def __init__(self, client: redis.Redis, keys: Keys, notifications: Notifications, presence: Presence,
                 start: Start):
        self.redis = client
        self.keys = keys
        self.notifications = notifications
        self.presence = presence
        self.start = start
        self._seek = client.register_script(lua("seek"))
        self._cancel = client.register_script(lua("seek_cancel"))

    def seek(self, person: Person, game: str, options: dict, clock: dict | None, seats: int, rating: float | None,
             rating_range: tuple[float, float], rated: bool = True) -> dict:
        """Open a seek (checked already: the game, its options, clock and seat count) and pair it if it can be;
        ``{"id", "status": "waiting"}`` or ``{"id", "status": "paired", "game"}``. ``rating``: the seeker's (None:
        a guest's, who has none and whose seek is unrated)."""
        lo, hi = rating_range
        bounds.check_json(options, "options")
        rated = rated and person.account is not None
        seek = {"id": secrets.token_hex(8), "account": person.key, "username": person.name,
                "person": person.dump(), "game": game, "options": options, "clock": clock, "seats": seats,
                "rating": float(rating if rating is not None else 1500), "shown_rating": rating,
                "range": [float(lo), float(hi)], "rated": rated, "created": _now()}
        self.presence.accounts_seen([seek["account"]])
        answer = self._seek(keys=self._keys(seek), args=[json.dumps(seek), _now(), SEEN_MS, seats, MAX_OPEN])
        status = _text(answer[0])
        if status == "too_many":
            raise errors.TooMany(Text("at most {n} open seeks per player; cancel one first", n=MAX_OPEN))
        if status == "waiting":
            return {"id": seek["id"], "status": "waiting"}
        group = [json.loads(raw) for raw in answer[1:]]
        random.SystemRandom().shuffle(group)  # who plays first: nobody's choice
        gid = self.start(game, options, clock, [_person(member) for member in group])
        for seat, member in enumerate(group):
            self.notifications.to_account(member["account"], "game_started", game=gid, seat=seat)
        return {"id": seek["id"], "status": "paired", "game": gid}

    def cancel(self, person: Person, seek_id: str) -> None:
        """Cancel an open seek of ``person``; ``NotFound`` for no such open seek of theirs."""
        valid = isinstance(seek_id, str) and len(seek_id) < 40
        raw = self.redis.hget(self.keys.seeks(), seek_id) if valid else None
        seek = json.loads(raw) if raw else None
        if seek is None or not self._cancel(keys=self._keys(seek)[:3], args=[seek_id, person.key]):
            raise errors.NotFound(Text("no open seek {id} of yours", id=repr(str(seek_id)[:40])))

    def open(self, game: str | None = None) -> list[dict]:
        """The open seeks (of ``game``), oldest first, without those whose seeker has gone."""
        seeks = [json.loads(raw) for raw in self.redis.hvals(self.keys.seeks())]
        seeks = [s for s in seeks if game is None or s["game"] == game]
        seen = self.redis.zmscore(self.keys.accounts_seen(), [s["account"] for s in seeks]) if seeks else []
        now = _now()
        live = [s for s, at in zip(seeks, seen) if at is not None and now - at <= SEEN_MS]
        return [{**{k: s[k] for k in ("id", "username", "game", "options", "clock", "seats", "range")},
                 "rating": s.get("shown_rating", s["rating"]), "rated": s.get("rated", True),
                 "guest": not s.get("person", {"account": s["username"]})["account"]}
                for s in sorted(live, key=lambda s: s["created"])]

    def _keys(self, seek: dict[str, Any]) -> list[str]:
        kind = hashlib.sha256(json.dumps([seek["game"], seek["options"], seek["clock"], seek["seats"],
                                          seek.get("rated", True)], sort_keys=True).encode()).hexdigest()[:16]
        keys = self.keys
        return [keys.seeks(), keys.seeks_of_kind(kind), keys.seek_counts(), keys.accounts_seen()]


def _person(seek: dict) -> Person:
    """Who made ``seek`` (one made before guests could seek: its account)."""
    return Person.load(seek["person"]) if "person" in seek else Person.of_account(seek["username"])


def _now() -> int:
    return int(time.time() * 1000)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
