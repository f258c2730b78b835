"""Tournaments as event streams: one stream per tournament (``Keys.tournament``), never trimmed, appended with the
version the events were decided on (``services/lua/append_tournament.lua``); its creation counted against the open
tournaments in all and per creator in the same script. In the embedded mode each append is also journaled."""

from __future__ import annotations

import base64
import secrets
import time

import redis

from domain.text import Text
from domain.tournaments import events as ev
from domain.tournaments.state import Tournament, evolve
from services import errors
from services.scripts import lua
from services.store.optimistic import Again
from services.store.streams import Keys

APPEND = lua("append_tournament")


def new_tournament_id() -> str:
    return secrets.token_hex(5)


class TournamentStore:
    """Appends to and loads the tournaments of one store's Redis (``keys``); ``journal`` gets every append."""

    def __init__(self, client: redis.Redis, keys: Keys, journal=None, max_open: int = 100,
                 max_open_per_creator: int = 3):
        self.redis = client
        self.keys = keys
        self.journal = journal
        self.max_open = max_open
        self.max_open_per_creator = max_open_per_creator
        self._append = client.register_script(APPEND)

    def append(self, tid: str, creator: str, version: int, events: list[ev.TournamentEvent],
               at: int | None = None) -> int:
        """``events`` after version ``version`` of ``tid``; the new version. ``Again`` if it has moved on (read it
        again and decide again: ``services.store.optimistic.retry``),
        ``TooMany`` (a creation) when too many tournaments are open."""
        at = at if at is not None else int(time.time() * 1000)
        encoded = [ev.encode(e) for e in events]
        ends = any(isinstance(e, ev.Ended) for e in events)
        status, new = self._run(tid, creator, version, at, ends, encoded)
        if status == "full_all":
            raise errors.TooMany(Text("{n} tournaments are open already; try when one has finished",
                                      n=self.max_open))
        if status == "full_creator":
            raise errors.TooMany(Text("you have {n} tournaments open already; at most {n} at once",
                                      n=self.max_open_per_creator))
        if status != "ok":
            raise Again(f"tournament {tid} moved on from version {version}")
        if self.journal is not None:
            self.journal.write({"op": "append", "id": tid, "creator": creator, "version": version, "at": at,
                                "ends": ends, "events": [[t, base64.b64encode(d).decode()] for t, d in encoded]})
        return new

    def _run(self, tid: str, creator: str, version: int, at: int, ends: bool, encoded) -> tuple[str, int]:
        args: list = [version, at, tid, self.max_open, self.max_open_per_creator, 1 if ends else 0]
        for type_, data in encoded:
            args += [type_, data]
        keys = [self.keys.tournament(tid), self.keys.tournaments(), self.keys.tournaments_open(),
                self.keys.tournaments_open(creator.lower())]
        status, new = self._append(keys=keys, args=args)
        return (status.decode() if isinstance(status, bytes) else status), int(new)

    def load(self, tid: str) -> Tournament | None:
        """The tournament folded from its stream (None: no such tournament)."""
        state = None
        for _, fields in self.redis.xrange(self.keys.tournament(tid)):
            state = evolve(state, ev.decode(fields[b"data"]), tid, int(fields[b"at"]))
        return state

    def ids(self) -> list[str]:
        """Every tournament's id, oldest first."""
        found = self.redis.zrange(self.keys.tournaments(), 0, -1)
        return [t.decode() if isinstance(t, bytes) else t for t in found]

    def restore(self, journal) -> int:
        """Apply the journaled appends again (the embedded mode's start); one already in Redis changes nothing."""
        count = 0
        for record in journal.records():
            if record.get("op") != "append":
                continue
            encoded = [(t, base64.b64decode(d)) for t, d in record["events"]]
            limits = self.max_open, self.max_open_per_creator
            self.max_open = self.max_open_per_creator = 1 << 30  # what was accepted once is loaded
            try:
                status, _ = self._run(record["id"], record["creator"], record["version"], record["at"],
                                      record["ends"], encoded)
            finally:
                self.max_open, self.max_open_per_creator = limits
            count += status == "ok"
        return count
