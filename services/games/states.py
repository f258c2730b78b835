"""Games' states: the game at its latest version (a cached state + the events appended since), at any earlier
version, and its event feed as a viewer sees it. The read side of the event store that commands, projections,
the live hub and the workers share."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

import msgspec

from domain.base import REVEAL_ALL, BadEvent, Event, Viewer
from domain.table import TableRules, table_of
from domain.text import Text
from services import errors
from services.games import snapshots
from services.store import codec
from services.store.streams import AT, DATA, EventStore, version_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Game:
    """A game's state at ``version``, with its metadata and its rules (the game's decider with the table around
    it, ``domain.table.TableRules``); the common questions about the state are the game's own (``game.status``,
    ``game.legal(seat)``)."""

    gid: str
    meta: dict
    rules: TableRules
    version: int
    state: Any

    def at(self, version: int, state: Any) -> Game:
        """This game at another ``version`` and ``state`` (``dataclasses.replace`` costs ten times more)."""
        return Game(self.gid, self.meta, self.rules, version, state)

    @property
    def seats(self) -> int:
        return len(self.meta["players"])

    @property
    def names(self) -> list[str]:
        """Each seat's player name ("" for a seat still open)."""
        taken = dict(getattr(self.state, "names", ()))
        return [taken.get(i) or p.get("name", "") for i, p in enumerate(self.meta["players"])]

    @property
    def accounts(self) -> list[str | None]:
        """Each seat's account (its username), or None for a guest, an AI or a seat still open: given when the
        game was created (``{"me": true}``) or when the seat was taken (``seat_taken``)."""
        taken = dict(getattr(self.state, "accounts", ()))
        return [taken.get(i) or p.get("account") for i, p in enumerate(self.meta["players"])]

    @property
    def ratings(self) -> list[dict | None]:
        """Each account seat's rating in the game's ladder when it sat down (None: a guest, an AI, an open seat,
        or a game made before ratings were kept with it)."""
        taken = dict(getattr(self.state, "ratings", ()))
        return [taken.get(i) or p.get("rating") for i, p in enumerate(self.meta["players"])]

    @property
    def sides(self) -> tuple[str, ...]:
        """Each seat's side (colour) the move list's lines open with, as the state has them (Mouse Guard draws
        its colours per game)."""
        sides = getattr(self.rules, "sides", None)
        return tuple(sides(self.state)) if callable(sides) else tuple(getattr(self.rules, "SIDES", ()))

    @property
    def status(self) -> str:
        """The game's status: "setup" while a seat is open, then its own ("playing", ...), "finished" once over."""
        return self.rules.status(self.state)

    @property
    def to_act(self) -> list[int]:
        """The seats whose move it is."""
        return self.rules.to_act(self.state)

    @property
    def result(self) -> dict[str, Any] | None:
        """The result once the game is finished, else None."""
        return self.rules.result(self.state)

    @property
    def deadline(self) -> int | None:
        """When (ms) the first running clock runs out, or None."""
        return self.rules.deadline(self.state)

    def legal(self, seat: int) -> list[str]:
        """``seat``'s legal moves (none off its turn)."""
        return self.rules.legal(self.state, seat)

    def table_commands(self, seat: int | None, away: frozenset[int] = frozenset()) -> list[str]:
        """The table commands (resign, draws, claims) ``seat`` may send now, with the seats in ``away`` away."""
        return self.rules.table_commands(self.state, seat, away)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The game as ``viewer`` sees it."""
        return self.rules.view(self.state, viewer)

    def clock(self, now: int) -> dict[str, Any] | None:
        """The clocks at ``now`` (ms), or None without a clock."""
        return self.rules.clock(self.state, now)

    def expired(self, now: int) -> list[Event]:
        """The events a clock run out by ``now`` (ms) ends the game with (none if none has)."""
        return self.rules.expired(self.state, now)

    def command(self, seat: int, text: str, rng: Any, now: int, away: frozenset[int] = frozenset()) -> list[Event]:
        """The events ``seat``'s command ``text`` makes at ``now`` (``IllegalMove``/``OutOfTurn`` if none)."""
        return self.rules.command(self.state, seat, text, rng, now, away)

    def dump_position(self) -> dict[str, Any]:
        """The game's own position, as its ``dump_position`` writes it."""
        return self.rules.dump_position(self.state)

    def viewer(self, seat: int | None) -> Viewer:
        """Who ``seat`` sees as: everything once the game is finished."""
        return REVEAL_ALL if self.status == "finished" else seat


class States:
    """Loads games from their streams; keeps an LRU of recent states so a load reads only the stream's tail."""

    def __init__(self, store: EventStore, cache_size: int = 2048):
        self.store = store
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self.snapshots = snapshots.Snapshots(store)
        self._kinds: dict[str, type] = {}  # game name → the type of its states (to decode a snapshot's)

    def load(self, gid: str) -> Game:
        """The game at its latest version: cached state plus the events appended since."""
        with self._cache_lock:
            game = self._cache.get(gid)
        with errors.store_errors():
            if game is None:
                game = self._from_the_start(gid)
            else:
                game = self._fold(game, self.store.entries(gid, after=game.version))
        self.remember(game)
        return game

    def load_many(self, gids: list[str]) -> dict[str, tuple[Game, int] | Exception]:
        """Each game at its latest version with its latest event's commit time (ms), or the error loading it
        raised; the tails of the games already cached are read in one round trip (``EventStore.tails``)."""
        out: dict[str, tuple[Game, int] | Exception] = {}
        with self._cache_lock:
            cached = {gid: self._cache.get(gid) for gid in gids}
        known = [gid for gid in gids if cached[gid] is not None]
        batch = 1000
        with errors.store_errors():
            tails = self.store.tails([(gid, cached[gid].version) for gid in known], batch)
        for gid, (latest, tail) in zip(known, tails, strict=True):
            try:
                game = self._fold(cached[gid], tail)
                if len(tail) == batch:  # a long tail: the rest the usual way
                    game = self.load(gid)
                    latest = None
                else:
                    self.remember(game)
                out[gid] = (game, latest.at if latest is not None and latest.version == game.version
                            else self._commit_time(game))
            except Exception as exc:  # noqa: BLE001 - this game's error, for its caller
                out[gid] = exc
        for gid in gids:
            if gid not in out:
                try:
                    game = self.load(gid)
                    out[gid] = (game, self._commit_time(game))
                except Exception as exc:  # noqa: BLE001 - this game's error, for its caller
                    out[gid] = exc
        return out

    def _commit_time(self, game: Game) -> int:
        """When the game's version ``game.version`` was appended (ms; its creation time before any event)."""
        last = next(self.store.read(game.gid, after=game.version - 1, to=game.version), None)
        return last.at if last else game.meta["created"]

    def at_version(self, gid: str, version: int) -> Game:
        """The game at ``version`` (time travel): folded from the newest snapshot at or below it, or from its
        first event (``services/games/snapshots.py``), so at most ``Snapshots.every`` events past a snapshot;
        the snapshots the fold passes that are not stored yet are written on the way."""
        game = self._before_first_event(gid)
        found, after = None, 0
        if version >= self.snapshots.every:
            found = self.snapshots.latest(gid, version, self._kind(game))
        if found is not None:
            snap, state = found
            ends = next(self.store.read(gid, after=snap.version - 1, to=snap.version), None)
            if ends is not None and snapshots.checksum(ends.data) == snap.crc:  # the stream's event it ended on
                game, after = replace(game, state=state, version=snap.version), snap.version
            else:
                log.error("game %s: the snapshot at version %s does not match the stream; folding from the start",
                          gid, snap.version)
        game = self._fold_keeping_snapshots(game, self.store.entries(gid, after=after, to=version))
        if game.version < version:
            raise errors.NotFound(Text("game {gid} has no version {version} (it is at version {last})",
                                       gid=gid, version=version, last=game.version))
        return game

    def _kind(self, game: Game) -> type:
        """The type of ``game``'s states (the game's own, inside the table's): what a snapshot decodes to. Known
        once any game of its name was folded in this process, else learnt from its first event."""
        name = game.meta["game"]
        if name not in self._kinds:
            self._kinds[name] = type(self._fold(game, self.store.entries(game.gid, to=1)).state.game)
        return self._kinds[name]

    def _fold_keeping_snapshots(self, game: Game, entries: Iterable[list]) -> Game:
        """``_fold``, writing a snapshot at every multiple of ``Snapshots.every`` it passes."""
        every, segment = self.snapshots.every, []
        for entry in entries:
            segment.append(entry)
            if version_of(entry) % every == 0:
                game = self._fold(game, segment)
                segment = []
                self.snapshots.save(game.gid, game.meta["game"], game.version, game.state, entry[1][DATA])
        return self._fold(game, segment)

    def history(self, gid: str, seat: int, to: int) -> list[dict]:
        """``seat``'s view of the game at every version up to ``to``, oldest first: what a person at that seat
        has seen, for an AI that learns from the game so far (``domain.ai.reads_history``)."""
        game, views = self._before_first_event(gid), []
        for entry in self.store.entries(gid, to=to):
            game = self._fold(game, (entry,))
            views.append(game.view(seat))
        return views

    def _from_the_start(self, gid: str) -> Game:
        """The game folded from its first event, whose entry also carries its metadata: one read of the stream, not
        the metadata's and then the events' (``NotFound`` for no such game)."""
        entries = self.store.entries(gid)
        first = next(entries, None)
        if first is None:
            raise errors.NotFound(Text("no game {gid}", gid=repr(gid)))
        meta = self.store.meta_of(gid, first)
        return self._fold(Game(gid, meta, table_of(meta["game"]), 0, None), chain((first,), entries))

    def _before_first_event(self, gid: str) -> Game:
        """The game at version 0, to fold its events into (``NotFound`` for no such game)."""
        meta = self.store.meta(gid)
        if meta is None:
            raise errors.NotFound(Text("no game {gid}", gid=repr(gid)))
        return Game(gid, meta, table_of(meta["game"]), 0, None)

    def _fold(self, game: Game, entries: Iterable[list]) -> Game:
        """``game`` with the stream's raw entries (``EventStore.entries``) folded in: a replay's loop, run per
        event, so everything it calls is looked up once and the entry read by position."""
        state, entry = game.state, None
        evolve, decode = game.rules.evolve, codec.decoder(game.rules)
        try:
            for entry in entries:
                fields = entry[1]
                state = evolve(state, decode(fields[DATA]), int(fields[AT]))
        except (msgspec.DecodeError, msgspec.ValidationError, BadEvent) as exc:
            version = version_of(entry)
            log.error("game %s: the event at version %s cannot be read: %s: %s", game.gid, version,
                      type(exc).__name__, exc)
            raise errors.Corrupt(Text("game {gid} cannot be read: its event at version {version} is damaged; "
                                      "the operator sees it in 'burrow doctor'",
                                      gid=game.gid, version=version)) from exc
        return game if entry is None else game.at(version_of(entry), state)

    def cached(self, gid: str) -> Game | None:
        """The cached state of the game, possibly behind the stream (no Redis read)."""
        with self._cache_lock:
            return self._cache.get(gid)

    def seen_version(self, gid: str) -> int:
        """The newest version of the game this process has loaded or appended (0: none; no Redis read): a read
        answered here never goes below it."""
        game = self.cached(gid)
        return game.version if game is not None else 0

    def remember(self, game: Game) -> None:
        """Keep ``game`` as the newest known state of its game (unless a newer one is kept)."""
        with self._cache_lock:
            cached = self._cache.get(game.gid)
            if cached is None or cached.version <= game.version:
                self._cache[game.gid] = game
            self._cache.move_to_end(game.gid)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def events(self, gid: str, seat: int | None, after: int = 0, limit: int = 1000) -> list[dict]:
        """Events after version ``after`` as ``seat`` may see them (everything once the game is finished)."""
        game = self.load(gid)
        viewer = game.viewer(seat)
        out = []
        for item in self.store.read(gid, after=after, to=min(game.version, after + limit)):
            event = codec.decode(game.rules, item.data)
            out.append(codec.to_client(game.rules, game.rules.redact(event, viewer), item.version, item.at,
                                       game.names, game.sides))
        return out
