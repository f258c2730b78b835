"""Challenges (docs/api.md "Meeting people", "The first ten minutes"): a player asks another, by name, for a game
(game, options, clock, the challenger's side) or makes an **invite** that anyone opening its link may accept (an
account, or a guest under a name); the other accepts (the game starts, both told), declines, or the challenger
cancels (the other told).

Each open challenge is a key of its own whose expiry is its lapse (``LAPSE_MS``), indexed by its sender and its
recipient (sorted sets by time): reading one's challenges reads one's own index, never every challenge. A
challenge is taken out of the open ones by one ``DEL``: of racing answers (accept, decline, cancel) exactly one
acts. Each person may challenge ``RATE`` times in any minute and have ``MAX_OUTGOING`` open at once; a recipient
has at most ``MAX_INCOMING`` waiting (429 beyond: a flood cannot bury a player's real challenges).
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
from services.people.person import Person
from services.people.seeks import Start
from services.scripts import lua
from services.store.codec import iso_time
from services.store.streams import Keys

RATE, RATE_WINDOW_MS = 10, 60_000
LAPSE_MS = 86_400_000
MAX_INCOMING = 20
MAX_OUTGOING = 10
SHOWN = ("id", "from", "to", "game", "options", "clock", "side")


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
        self.journal = None  # the embedded mode's (``People.journaled``): every open and taken challenge

    def create(self, sender: Person, to: object, game: str, options: dict, clock: dict | None,
               side: object = "random") -> dict:
        """Challenge the account named ``to``, or (``to`` None) make an invite; the game, options and clock
        checked already; ``side``: the challenger's seat or ``"random"``. ``{"id"}`` (and ``"url"``, an
        invite's page)."""
        if side != "random" and (not isinstance(side, int) or isinstance(side, bool) or side not in (0, 1)):
            raise errors.Unprocessable(Text('side: your seat, 0 or 1, or "random"'), field="side")
        recipient = None
        if to is not None:
            if sender.account is None:
                raise errors.Unauthorized(Text("sign in first: challenging a player by name needs an account"))
            if not isinstance(to, str) or not to or len(to) > 40:
                raise errors.Unprocessable(Text("to: the name of the player to challenge"), field="to")
            recipient = self.username_of(to)
            if recipient is None:
                raise errors.NotFound(Text("no player named {name}", name=repr(to)))
            if recipient.lower() == sender.key:
                raise errors.Unprocessable(Text("to: you cannot challenge yourself"), field="to")
        bounds.check_json(options, "options")
        if len(self._open_ids(self.keys.challenges_from(sender.key))) >= MAX_OUTGOING:
            raise errors.TooMany(Text("at most {n} open challenges at once: cancel one first", n=MAX_OUTGOING))
        if recipient is not None and \
                len(self._open_ids(self.keys.challenges_to(recipient.lower()))) >= MAX_INCOMING:
            raise errors.TooMany(Text("{name} has too many challenges waiting; try again later", name=recipient))
        now = _now()
        wait = self._rate(keys=[self.keys.challenge_rate(sender.key)],
                          args=[now, RATE_WINDOW_MS, RATE, secrets.token_hex(6)])
        if wait:
            raise errors.TooMany(Text("at most {n} challenges a minute; wait {s} s", n=RATE,
                                      s=(int(wait) + 999) // 1000))
        challenge = {"id": secrets.token_hex(8), "from": sender.name, "sender": sender.dump(), "to": recipient,
                     "game": game, "options": options, "clock": clock, "side": side, "created": now}
        self._keep(challenge, LAPSE_MS)
        if self.journal is not None:
            self.journal.write({"op": "challenge", "challenge": challenge})
        if recipient is None:
            return {"id": challenge["id"], "url": f"/challenge/{challenge['id']}"}
        self.notifications.to_account(recipient.lower(), "challenge", id=challenge["id"], game=game,
                                      options=options, clock=clock, side=_their_side(side),
                                      **{"from": sender.name})
        return {"id": challenge["id"]}

    def _keep(self, challenge: dict, lapse_ms: int) -> None:
        """Write the open challenge and its indexes; it lapses in ``lapse_ms``."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(self.keys.challenge_of(challenge["id"]), json.dumps(challenge), px=lapse_ms)
        pipe.zadd(self.keys.challenges_from(challenge["sender"]["key"]), {challenge["id"]: challenge["created"]})
        if challenge["to"] is not None:
            pipe.zadd(self.keys.challenges_to(challenge["to"].lower()), {challenge["id"]: challenge["created"]})
        pipe.execute()

    def restore(self, records: list[dict]) -> None:
        """Bring back the journaled challenges still open (the embedded mode's start)."""
        open_ones: dict[str, dict] = {}
        for record in records:
            if record.get("op") == "challenge":
                open_ones[record["challenge"]["id"]] = record["challenge"]
            elif record.get("op") == "challenge_taken":
                open_ones.pop(record.get("id"), None)
        now = _now()
        for challenge in open_ones.values():
            left = challenge["created"] + LAPSE_MS - now
            if left > 0:
                self._keep(challenge, left)

    def accept(self, person: Person, challenge_id: object) -> dict:
        """The recipient (anyone but its maker, for an invite) accepts: the game starts with the challenger at
        their side, both are told; ``{"game"}``."""
        challenge = self._take(challenge_id, lambda c: c["to"] is None and c["sender"]["key"] != person.key
                               or c["to"] is not None and c["to"].lower() == person.key)
        sender = Person.load(challenge["sender"])
        side = challenge["side"] if challenge["side"] != "random" else random.SystemRandom().randrange(2)
        players = [sender, person] if side == 0 else [person, sender]
        gid = self.start(challenge["game"], challenge["options"], challenge["clock"], players)
        for seat, player in enumerate(players):
            self.notifications.to_account(player.key, "game_started", game=gid, seat=seat)
        self.notifications.to_account(sender.key, "challenge_accepted", id=challenge["id"], game=gid,
                                      by=person.name)
        return {"game": gid}

    def decline(self, person: Person, challenge_id: object) -> None:
        """The recipient declines: the challenger is told."""
        challenge = self._take(challenge_id, lambda c: c["to"] is not None and c["to"].lower() == person.key)
        self.notifications.to_account(challenge["sender"]["key"], "challenge_declined", id=challenge["id"],
                                      by=challenge["to"])

    def cancel(self, person: Person, challenge_id: object) -> None:
        """The challenger takes their challenge (or invite) back: the recipient is told."""
        challenge = self._take(challenge_id, lambda c: c["sender"]["key"] == person.key)
        if challenge["to"] is not None:
            self.notifications.to_account(challenge["to"].lower(), "challenge_cancelled", id=challenge["id"])

    def get(self, person: Person | None, challenge_id: object) -> dict:
        """One open challenge as its page shows it: an invite to anyone, a challenge to its two players."""
        challenge = self._read(challenge_id)
        key = person.key if person else None
        if challenge is None or challenge["to"] is not None and key not in (
                challenge["sender"]["key"], challenge["to"].lower()):
            raise self._missing(challenge_id)
        return self._shown(challenge)

    def of(self, person: Person) -> dict:
        """``person``'s open challenges: ``{"incoming": [...], "outgoing": [...]}``, oldest first."""
        return {"incoming": self._listed(self.keys.challenges_to(person.key)),
                "outgoing": self._listed(self.keys.challenges_from(person.key))}

    def _listed(self, index: str) -> list[dict]:
        ids = self._open_ids(index)
        raw = self.redis.mget([self.keys.challenge_of(i) for i in ids]) if ids else []
        found = [json.loads(r) for r in raw if r is not None]
        gone = [i for i, r in zip(ids, raw) if r is None]
        if gone:
            self.redis.zrem(index, *gone)  # answered or lapsed meanwhile
        return [self._shown(c) for c in found]

    def _open_ids(self, index: str) -> list[str]:
        """The ids in ``index`` of the last ``LAPSE_MS`` (older ones dropped from it), oldest first."""
        self.redis.zremrangebyscore(index, "-inf", _now() - LAPSE_MS)
        return [i.decode() if isinstance(i, bytes) else i for i in self.redis.zrange(index, 0, -1)]

    @staticmethod
    def _shown(challenge: dict) -> dict:
        shown = {k: challenge[k] for k in SHOWN}
        shown["created"] = iso_time(challenge["created"])
        if challenge["to"] is None:
            shown["url"] = f"/challenge/{challenge['id']}"
        return shown

    def _read(self, challenge_id: object) -> dict | None:
        if not isinstance(challenge_id, str) or not challenge_id or len(challenge_id) > 40:
            return None
        raw = self.redis.get(self.keys.challenge_of(challenge_id))
        return json.loads(raw) if raw else None

    @staticmethod
    def _missing(challenge_id: object) -> errors.NotFound:
        return errors.NotFound(Text("no open challenge {id} for you", id=repr(str(challenge_id)[:40])))

    def _take(self, challenge_id: object, may: Callable[[dict], bool]) -> dict:
        """The open challenge ``challenge_id``, if ``may`` says this person may answer it, taken out of the open
        ones (once: of racing answers, one)."""
        challenge = self._read(challenge_id)
        if challenge is None or not may(challenge):
            raise self._missing(challenge_id)
        if not self.redis.delete(self.keys.challenge_of(challenge["id"])):
            raise self._missing(challenge_id)  # answered meanwhile
        if self.journal is not None:
            self.journal.write({"op": "challenge_taken", "id": challenge["id"]})
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(self.keys.challenges_from(challenge["sender"]["key"]), challenge["id"])
        if challenge["to"] is not None:
            pipe.zrem(self.keys.challenges_to(challenge["to"].lower()), challenge["id"])
        pipe.execute()
        return challenge


def _their_side(side: object) -> object:
    """The recipient's side of a two-seat challenge, as their card shows it."""
    return side if side == "random" else 1 - side


def _now() -> int:
    return int(time.time() * 1000)
