"""Challenges (CONTRACT "Meeting people"): a signed-in player asks another, by name, for a game (game, options,
clock); the other accepts (the game starts, both told) or declines (the challenger is told).

A challenge is taken out of the open ones by one ``HDEL``: of racing answers exactly one acts. Each account may
challenge ``RATE`` times in any minute (429 beyond); an unanswered challenge lapses after ``LAPSE_MS``.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable

import redis

from domain.text import Text
from services import bounds, errors
from services.people.notifications import Notifications
from services.people.seeks import Start
from services.scripts import lua
from services.store.streams import Keys

RATE, RATE_WINDOW_MS = 10, 60_000
LAPSE_MS = 86_400_000


class Challenges:
    """Challenges on ``client`` (``keys``); ``start`` makes an accepted challenge's game; ``username_of`` gives an
    account's username as it was made (any case), or None for no such account."""

    def __init__(self, client: redis.Redis, keys: Keys, notifications: Notifications, start: Start,
                 username_of: Callable[[str], str | None]):
        self.redis = client
        self.keys = keys
        self.notifications = notifications
        self.start = start
        self.username_of = username_of
        self._rate = client.register_script(lua("sliding_rate"))

    def create(self, sender: str, to: object, game: str, options: dict, clock: dict | None) -> dict:
        """Challenge the player named ``to`` (the game, options and clock checked already); ``{"id"}``."""
        if not isinstance(to, str) or not to or len(to) > 40:
            raise errors.Unprocessable(Text("to: the name of the player to challenge"), field="to")
        recipient = self.username_of(to)
        if recipient is None:
            raise errors.NotFound(Text("no player named {name}", name=repr(to)))
        if recipient.lower() == sender.lower():
            raise errors.Unprocessable(Text("to: you cannot challenge yourself"), field="to")
        bounds.check_json(options, "options")
        now = _now()
        wait = self._rate(keys=[self.keys.challenge_rate(sender.lower())],
                          args=[now, RATE_WINDOW_MS, RATE, secrets.token_hex(6)])
        if wait:
            raise errors.TooMany(Text("at most {n} challenges a minute; wait {s} s", n=RATE,
                                      s=(int(wait) + 999) // 1000))
        challenge = {"id": secrets.token_hex(8), "from": sender, "to": recipient, "game": game,
                     "options": options, "clock": clock, "created": now}
        self.redis.hset(self.keys.challenges(), challenge["id"], json.dumps(challenge))
        self.notifications.to_account(recipient.lower(), "challenge", id=challenge["id"], game=game,
                                      **{"from": sender})
        return {"id": challenge["id"]}

    def accept(self, username: str, challenge_id: object) -> dict:
        """The recipient accepts: the game starts (seats in a random order), the challenger is told;
        ``{"game"}``."""
        challenge = self._take(username, challenge_id)
        players = [challenge["from"], challenge["to"]]
        random.SystemRandom().shuffle(players)
        gid = self.start(challenge["game"], challenge["options"], challenge["clock"], players)
        for seat, name in enumerate(players):
            self.notifications.to_account(name.lower(), "game_started", game=gid, seat=seat)
        return {"game": gid}

    def decline(self, username: str, challenge_id: object) -> None:
        """The recipient declines: the challenger is told."""
        challenge = self._take(username, challenge_id)
        self.notifications.to_account(challenge["from"].lower(), "challenge_declined", id=challenge["id"],
                                      by=challenge["to"])

    def of(self, username: str) -> dict:
        """``username``'s open challenges: ``{"incoming": [...], "outgoing": [...]}``, oldest first."""
        mine = username.lower()
        found = [c for c in self._open() if mine in (c["from"].lower(), c["to"].lower())]
        found.sort(key=lambda c: c["created"])
        shown = [{k: c[k] for k in ("id", "from", "to", "game", "options", "clock")} for c in found]
        return {"incoming": [c for c in shown if c["to"].lower() == mine],
                "outgoing": [c for c in shown if c["from"].lower() == mine]}

    def _open(self) -> list[dict]:
        now, out, lapsed = _now(), [], []
        for raw in self.redis.hvals(self.keys.challenges()):
            challenge = json.loads(raw)
            (lapsed if now - challenge["created"] > LAPSE_MS else out).append(challenge)
        if lapsed:
            self.redis.hdel(self.keys.challenges(), *[c["id"] for c in lapsed])
        return out

    def _take(self, username: str, challenge_id: object) -> dict:
        """The open challenge ``challenge_id`` to ``username``, taken out of the open ones (once: of racing
        answers, one)."""
        missing = errors.NotFound(Text("no open challenge {id} to you", id=repr(str(challenge_id)[:40])))
        if not isinstance(challenge_id, str) or len(challenge_id) > 40:
            raise missing
        raw = self.redis.hget(self.keys.challenges(), challenge_id)
        challenge = json.loads(raw) if raw else None
        if challenge is None or challenge["to"].lower() != username.lower() \
                or _now() - challenge["created"] > LAPSE_MS:
            raise missing
        if not self.redis.hdel(self.keys.challenges(), challenge_id):
            raise missing  # answered meanwhile
        return challenge


def _now() -> int:
    return int(time.time() * 1000)
