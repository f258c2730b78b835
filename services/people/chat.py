"""Chat beside a game: the players' room (the game's seats) and the spectators' room (signed-in accounts).

Stored apart from the game's events (a replay never shows it), in a stream per room trimmed to its last
``KEPT`` messages, so it survives a restart as the store does (the embedded mode journals it: ``restore``).
Each sender may post ``RATE`` messages in any ``RATE_WINDOW_MS`` (429 beyond) of at most ``MAX_TEXT``
characters; names and texts are stored as sent and escaped by the page, never rendered as HTML. A message can be
reported: it goes, with the messages before it, to the operators' reports (``burrow reports``). Who may read and
write a room is the web layer's to check.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from dataclasses import dataclass

import redis

from domain.text import Text
from services import errors
from services.people.notifications import Notifications
from services.scripts import lua
from services.store.codec import iso_time
from services.store.streams import Keys

ROOMS = ("players", "spectators")
MAX_TEXT = 140
KEPT = 500  # messages kept per room
RATE, RATE_WINDOW_MS = 5, 10_000
CONTEXT = 10  # messages before a reported one kept with it
LAST_ID = f"{2**64 - 1}-{2**64 - 1}"
REPORTS_KEPT = 1_000  # reports an operator has read, kept (the unread ones are never trimmed)
LAPSE_REPORTED_MS = 7 * 86_400_000  # who reported a message is remembered a week (a room keeps its last 500)
REPORT_RATE, REPORT_CLIENT_RATE, REPORT_WINDOW_MS = 10, 30, 3_600_000  # reports per reporter, per address, an hour


@dataclass(frozen=True)
class Message:
    id: str
    sender: str
    text: str
    at: int

    def to_client(self) -> dict:
        return {"id": self.id, "from": self.sender, "text": self.text, "at": iso_time(self.at)}


def check_text(text: object) -> str:
    """The message's text, stripped; ``Unprocessable`` naming ``text`` when it is not 1 to ``MAX_TEXT`` printable
    characters."""
    if not isinstance(text, str):
        raise errors.Unprocessable(Text("text: must be a string"), field="text")
    text = " ".join(text.split())
    if not text:
        raise errors.Unprocessable(Text("text: must not be empty"), field="text")
    if len(text) > MAX_TEXT:
        raise errors.Unprocessable(Text("text: at most {most} characters, not {n}", most=MAX_TEXT, n=len(text)),
                                   field="text")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in text):
        raise errors.Unprocessable(Text("text: control and formatting characters are not allowed"), field="text")
    return text


def check_room(room: object) -> str:
    if room not in ROOMS:
        raise errors.BadRequest(Text("room: must be {rooms}", rooms=" or ".join(ROOMS)), field="room")
    return room  # type: ignore[return-value]


class Chat:
    """The chat rooms of every game (``keys``) on ``client``."""

    def __init__(self, client: redis.Redis, keys: Keys, notifications: Notifications):
        self.redis = client
        self.keys = keys
        self.notifications = notifications
        self._rate = client.register_script(lua("sliding_rate"))
        self.journal = None  # the embedded mode's (``People.journaled``): messages, reports, what was read

    def post(self, gid: str, room: str, sender: str, sender_key: str, text: object) -> dict:
        """Post ``text`` as ``sender`` (the name shown) in ``room``; ``sender_key`` names the sender for the rate
        limit (a seat of this game, an account). Returns the message as clients see it."""
        room, text = check_room(room), check_text(text)
        now = int(time.time() * 1000)
        wait = self._rate(keys=[self.keys.chat_rate(sender_key)],
                          args=[now, RATE_WINDOW_MS, RATE, secrets.token_hex(6)])
        if wait:
            raise errors.TooMany(Text("at most {n} messages in {window} s; wait {s} s", n=RATE,
                                      window=RATE_WINDOW_MS // 1000, s=(int(wait) + 999) // 1000),
                                 retry_after_ms=int(wait))
        found = self.redis.xadd(self.keys.chat(gid, room), {"from": sender, "text": text, "at": now},
                                maxlen=KEPT, approximate=True)
        message = Message(_text(found), sender, text, now)
        if self.journal is not None:
            self.journal.write({"op": "chat", "gid": gid, "room": room, "id": message.id, "from": sender,
                                "text": text, "at": now})
        self.notifications.to_game(gid, "chat", room=room, id=message.id)
        return message.to_client()

    def read(self, gid: str, room: str, after: str | None = None, limit: int = 100) -> list[dict]:
        """The room's messages after the one with id ``after`` (the last ``limit`` when None), oldest first."""
        room = check_room(room)
        key = self.keys.chat(gid, room)
        if after is None:
            found = list(reversed(self.redis.xrevrange(key, count=limit)))
        elif after == LAST_ID:
            found = []  # nothing can come after the last id there is (and Redis refuses "(" before it)
        else:
            found = self.redis.xrange(key, f"({after}", "+", count=limit)
        return [_message(i, f).to_client() for i, f in found]

    def report(self, gid: str, room: str, message_id: str, reporter: str, reporter_key: str,
               client: str | None = None) -> bool:
        """Keep message ``message_id`` of ``room``, and the messages before it, for an operator; ``reporter`` is
        the name shown, ``reporter_key`` who it is (as ``post``'s ``sender_key``), ``client`` its address's id.
        Once per reporter and message (False: reported already, nothing kept); ``REPORT_RATE`` an hour per
        reporter and ``REPORT_CLIENT_RATE`` per address (429 beyond)."""
        room = check_room(room)
        key = self.keys.chat(gid, room)
        found = self.redis.xrange(key, message_id, message_id)
        if not found:
            raise errors.NotFound(Text("no message {id} in the {room} room of game {gid}",
                                       id=repr(message_id[:40]), room=room, gid=gid))
        reported = self.keys.reported(gid, room, message_id)
        if self.redis.sismember(reported, reporter_key):
            return False
        now = int(time.time() * 1000)
        limits = [(reporter_key, REPORT_RATE)] + ([(f"client:{client}", REPORT_CLIENT_RATE)] if client else [])
        for who, rate in limits:
            wait = self._rate(keys=[self.keys.report_rate(who)], args=[now, REPORT_WINDOW_MS, rate,
                                                                        secrets.token_hex(6)])
            if wait:
                raise errors.TooMany(Text("at most {n} reports an hour; wait {s} s", n=rate,
                                          s=(int(wait) + 999) // 1000), retry_after=(int(wait) + 999) // 1000)
        if not self.redis.sadd(reported, reporter_key):
            return False  # a racing twin of this report was first
        self.redis.pexpire(reported, LAPSE_REPORTED_MS)
        before = list(reversed(self.redis.xrevrange(key, f"({message_id}", "-", count=CONTEXT)))
        record = {"gid": gid, "room": room, "reporter": reporter, "message": _message(*found[0]).to_client(),
                  "context": [_message(i, f).to_client() for i, f in before]}
        found = self.redis.xadd(self.keys.reports(), {"report": json.dumps(record)})  # never trimmed while unread
        if self.journal is not None:
            self.journal.write({"op": "report", "id": _text(found), "record": record,
                                "reported": [gid, room, message_id, reporter_key]})
        return True

    def reports(self, count: int = 50) -> list[dict]:
        """The latest reports, read or not, newest first (each: game, room, reporter, the message, its
        context)."""
        found = self.redis.xrevrange(self.keys.reports(), count=count)
        return [{"id": _text(i), **json.loads(f[b"report"])} for i, f in found]

    def unread(self, count: int = 50) -> list[dict]:
        """The oldest ``count`` reports no operator has read yet, oldest first."""
        mark = self.redis.get(self.keys.reports_read())
        start = f"({_text(mark)}" if mark else "-"
        found = self.redis.xrange(self.keys.reports(), start, "+", count=count)
        return [{"id": _text(i), **json.loads(f[b"report"])} for i, f in found]

    def mark_read(self, upto: str) -> None:
        """The reports up to id ``upto`` have been read: keep the newest ``REPORTS_KEPT`` of them, never an unread
        one."""
        self.redis.set(self.keys.reports_read(), upto)
        if self.journal is not None:
            self.journal.write({"op": "reports_read", "upto": upto})
        older = self.redis.xrevrange(self.keys.reports(), upto, "-", count=REPORTS_KEPT + 1)
        if len(older) > REPORTS_KEPT:
            self.redis.xtrim(self.keys.reports(), minid=_text(older[-2][0]), approximate=False)


    def restore(self, records: list[dict]) -> None:
        """Replay the journaled messages, reports and read mark (the embedded mode's start)."""
        read = None
        for record in records:
            op = record.get("op")
            try:
                if op == "chat":
                    key = self.keys.chat(record["gid"], record["room"])
                    self.redis.xadd(key, {"from": record["from"], "text": record["text"], "at": record["at"]},
                                    id=record["id"], maxlen=KEPT, approximate=True)
                elif op == "report":
                    self.redis.xadd(self.keys.reports(), {"report": json.dumps(record["record"])},
                                    id=record["id"])
                    gid, room, message_id, who = record["reported"]
                    self.redis.sadd(self.keys.reported(gid, room, message_id), who)
                    self.redis.pexpire(self.keys.reported(gid, room, message_id), LAPSE_REPORTED_MS)
                elif op == "reports_read":
                    read = record["upto"]
            except (KeyError, TypeError, ValueError, redis.ResponseError):
                continue  # a record cut short or out of order: the others still come back
        if read is not None:
            self.mark_read(read)  # (before ``People.journaled`` sets the journal: not written again)


def _message(entry_id, fields: dict) -> Message:
    return Message(_text(entry_id), fields[b"from"].decode(), fields[b"text"].decode(), int(fields[b"at"]))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
