"""The command side: create games, handle commands, load state (cached state + the stream's tail)."""

from __future__ import annotations

import contextlib
import json
import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Protocol

import msgspec
import redis

from domain.base import REVEAL_ALL, BadEvent, BadNotation, BadSetup, IllegalMove, Setup, Viewer
from domain.catalog import GameInfo
from domain.registry import GAME_NAMES, game_module
from domain.table import TABLE_COMMANDS, TableCommand, TableSet, check_clock, table_of
from services import bounds, errors, tokens
from services.clients import client_id
from services.games.fairness import setup_meta
from services.games.quota import CreationRate, OpenGames
from services.store import codec
from services.store.streams import ConcurrencyError, EventStore, NotReplicated, StoreUnavailable, new_game_id

log = logging.getLogger(__name__)
COMMAND_RETRIES = 8


class JobSink(Protocol):
    """Where the command path pokes the workers (RQ in production, nothing in some tests)."""

    def project(self, gid: str) -> None: ...


@dataclass(frozen=True)
class Game:
    """A game's state at ``version``, with its metadata and decider module."""

    gid: str
    meta: dict
    module: ModuleType
    version: int
    state: Any

    @property
    def seats(self) -> int:
        return len(self.meta["players"])

    @property
    def names(self) -> list[str]:
        """Each seat's player name ("" for a seat still open)."""
        taken = dict(getattr(self.state, "names", ()))
        return [taken.get(i) or p.get("name", "") for i, p in enumerate(self.meta["players"])]

    @property
    def sides(self) -> tuple[str, ...]:
        """Each seat's side (colour) the move list's lines open with, as the state has them (Mouse Guard draws
        its colours per game)."""
        sides = getattr(self.module, "sides", None)
        return tuple(sides(self.state)) if callable(sides) else tuple(getattr(self.module, "SIDES", ()))

    def viewer(self, seat: int | None) -> Viewer:
        """Who ``seat`` sees as: everything once the game is finished."""
        return REVEAL_ALL if self.module.status(self.state) == "finished" else seat


def rng_for(meta: dict, version: int) -> random.Random:
    """Randomness for the command applied at ``version``: reproducible when the game has a seed."""
    if meta.get("seed") is not None:
        return random.Random(f"{meta['seed']}/{version}")
    return random.Random(secrets.randbits(128))


class GameService:
    """Creates games and applies commands; keeps an LRU of recent states so a command reads only the tail."""

    def __init__(self, store: EventStore, jobs: JobSink | None = None, cache_size: int = 2048,
                 limits: dict | None = None):
        self.store = store
        self.jobs = jobs
        self.limits = limits or {"name_length": 40, "players": 8}
        self.open_games = OpenGames(store, self.limits.get("open_games_per_client"))
        self.creation_rate = CreationRate(store, self.limits.get("games_per_minute_per_client"))
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()

    # -- reading -----------------------------------------------------------------------------------------

    def load(self, gid: str) -> Game:
        """The game at its latest version: cached state plus the events appended since."""
        with self._cache_lock:
            game = self._cache.get(gid)
        try:
            if game is None:
                game = self._before_first_event(gid)
            game = self._fold(game, self.store.read(gid, after=game.version))
        except (redis.ConnectionError, StoreUnavailable) as exc:
            raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
        self._remember(game)
        return game

    def load_many(self, gids: list[str]) -> dict[str, tuple[Game, int] | Exception]:
        """Each game at its latest version with its latest event's commit time (ms), or the error loading it
        raised; the tails of the games already cached are read in one round trip (``EventStore.tails``)."""
        out: dict[str, tuple[Game, int] | Exception] = {}
        with self._cache_lock:
            cached = {gid: self._cache.get(gid) for gid in gids}
        known = [gid for gid in gids if cached[gid] is not None]
        batch = 1000
        try:
            tails = self.store.tails([(gid, cached[gid].version) for gid in known], batch)
        except (redis.ConnectionError, StoreUnavailable) as exc:
            raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
        for gid, (latest, tail) in zip(known, tails, strict=True):
            try:
                game = self._fold(cached[gid], tail)
                if len(tail) == batch:  # a long tail: the rest the usual way
                    game = self.load(gid)
                    latest = None
                else:
                    self._remember(game)
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
        """The game replayed from its first event up to ``version`` (time travel)."""
        game = self._fold(self._before_first_event(gid), self.store.read(gid, to=version))
        if game.version < version:
            raise errors.NotFound(f"game {gid} has no version {version} (it is at version {game.version})")
        return game

    def history(self, gid: str, seat: int, to: int) -> list[dict]:
        """``seat``'s view of the game at every version up to ``to``, oldest first: what a person at that seat
        has seen, for an AI that learns from the game so far (``domain.ai.reads_history``)."""
        game, views = self._before_first_event(gid), []
        for item in self.store.read(gid, to=to):
            game = self._fold(game, (item,))
            views.append(game.module.view(game.state, seat))
        return views

    def _before_first_event(self, gid: str) -> Game:
        """The game at version 0, to fold its events into (``NotFound`` for no such game)."""
        meta = self.store.meta(gid)
        if meta is None:
            raise errors.NotFound(f"no game {gid!r}")
        return Game(gid, meta, table_of(meta["game"]), 0, None)

    def _fold(self, game: Game, stored) -> Game:
        state, version = game.state, game.version
        for item in stored:
            try:
                state = game.module.evolve(state, codec.decode(game.module, item.data), item.at)
            except (msgspec.DecodeError, msgspec.ValidationError, BadEvent) as exc:
                log.error("game %s: the event at version %s cannot be read: %s: %s", game.gid, item.version,
                          type(exc).__name__, exc)
                raise errors.Corrupt(f"game {game.gid} cannot be read: its event at version {item.version} is "
                                     "damaged; the operator sees it in 'burrow doctor'") from exc
            version = item.version
        return replace(game, state=state, version=version)

    def _cached(self, gid: str) -> Game | None:
        """The cached state of the game, possibly behind the stream (no Redis read)."""
        with self._cache_lock:
            return self._cache.get(gid)

    def seen_version(self, gid: str) -> int:
        """The newest version of the game this process has loaded or appended (0: none; no Redis read): a read
        answered here never goes below it."""
        game = self._cached(gid)
        return game.version if game is not None else 0

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            cached = self._cache.get(game.gid)
            if cached is None or cached.version <= game.version:
                self._cache[game.gid] = game
            self._cache.move_to_end(game.gid)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def seat_for(self, gid: str, token: str | None) -> int | None:
        """The seat a bearer token belongs to; None for no token; ``Unauthorized`` for an unknown one."""
        if token is None:
            return None
        seat = tokens.seat_of(token, self.store.seat_hashes(gid))
        if seat is None:  # perhaps an open seat taken since its hashes were read
            seat = tokens.seat_of(token, self.store.seat_hashes(gid, fresh=True))
        if seat is None:
            raise errors.Unauthorized("this token is not a seat of this game")
        return seat

    # -- creating ----------------------------------------------------------------------------------------

    def create(self, game: str, players: list[dict], options: dict | None = None, seed: int | None = None,
               position: dict | None = None, client: str | None = None, clock: dict | None = None,
               reserved: dict[int, str] | None = None) -> dict:
        """Create a game; returns its id, version and seats (with a token for each human seat, shown once).

        ``client`` (the caller's address) may hold at most ``limits["open_games_per_client"]`` open games.
        Players ``{"open": true}`` leave their seat open for anyone (``claim``); ``reserved`` (rematches) maps
        seats left open for the player of another game, ``{seat: "<that game's id>"}``. ``clock``: CONTRACT.md."""
        if game not in GAME_NAMES:
            raise errors.Unprocessable(f"game: unknown game {game!r} (known: {', '.join(GAME_NAMES)})",
                                       field="game")
        module = game_module(game)
        players = self._check_players(module.CATALOG, players)
        try:
            clock = check_clock(clock)
        except BadSetup as exc:
            raise errors.Unprocessable(str(exc), field=exc.field) from exc
        for seat, old in (reserved or {}).items():
            players[seat] = {**players[seat], "open": True, "rematch_of": old}
        bounds.check_json(options, "options")
        bounds.check_json(position, "position")
        if seed is not None:
            bounds.check_int(seed, "seed", -bounds.MAX_SEED, bounds.MAX_SEED)
        rng = random.Random(f"{seed}/0") if seed is not None else random.Random(secrets.randbits(128))
        try:
            events = module.initial(Setup(seats=len(players), options=options or {}, position=position), rng)
        except BadSetup as exc:
            raise errors.Unprocessable(str(exc), field=exc.field) from exc
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            # The domain is pure: what it cannot read is the client's input. A bug to fix, not a 500 to give.
            field = "position" if position is not None else "options"
            log.warning("create %s: %s refused with %r", game, field, exc)
            raise errors.Unprocessable(f"{field}: not a valid {field} of {game}", field=field) from exc
        open_seats = [i for i, p in enumerate(players) if p.get("open")]
        if open_seats or clock:
            events.append(TableSet(open=open_seats, clock=clock))
        gid = new_game_id()
        humans = [i for i, p in enumerate(players) if not p.get("ai") and not p.get("open")]
        seat_tokens = {i: tokens.new_token() for i in humans}
        meta = {"id": gid, "game": game, "players": players, "seed": seed, "created": int(time.time() * 1000),
                "setup": setup_meta(game, players, seed, position)}
        client = client_id(client)
        if client:
            meta["client"] = client  # the creator, hashed: quotas and fair AI queues count by it
        self.creation_rate.spend(client)
        self.open_games.reserve(client, gid, self._is_open)
        try:
            self.store.set_seat_hashes(gid, {s: tokens.token_hash(t) for s, t in seat_tokens.items()})
            result = self.store.append(gid, [codec.encode(e) for e in events], expected_version=0,
                                       meta=json.dumps(meta).encode())
        except NotReplicated as exc:  # made, but not confirmed on a replica: its creator never gets its tokens
            raise errors.Unavailable(str(exc)) from exc
        except Exception as exc:
            self.open_games.release(client, gid)
            self.store.redis.delete(self.store.keys.seats(gid))  # no orphan seats hash of a game never made
            if isinstance(exc, StoreUnavailable):
                raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
            raise
        self._poke(gid)
        if clock and not open_seats:  # the clock of the first seat to act runs from now
            started = self.load(gid)
            self._schedule_clock(gid, started.module, started.state, started.version)
        seats = []
        for i, p in enumerate(players):
            if p.get("open"):
                seats.append({"seat": i, "open": True, **({"name": p["name"]} if p.get("name") else {})})
                continue
            seat = {"seat": i, "name": p["name"]}
            if p.get("ai"):
                seat["ai"] = p["ai"]
            else:
                seat["token"] = seat_tokens[i]
            seats.append(seat)
        return {"id": gid, "version": result.version, "seats": seats}

    def _is_open(self, gid: str) -> bool:
        try:
            game = self.load(gid)
        except errors.NotFound:
            return False
        return game.module.status(game.state) != "finished"

    def _check_players(self, info: GameInfo, players: Any) -> list[dict]:
        """The players of a new game, checked once, here, against the game's catalog entry (seats, AI levels).

        The API decodes them as a list of objects and nothing more (``web/schemas.py``)."""
        low, high = info.seats
        if not isinstance(players, list) or not low <= len(players) <= high:
            raise errors.Unprocessable(f"players: {info.name} needs {info.seat_range()} players", field="players")
        if len(players) > self.limits["players"]:
            raise errors.Unprocessable(f"players: at most {self.limits['players']} players", field="players")
        checked = []
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise errors.Unprocessable(f"players[{i}]: must be an object with a name", field=f"players[{i}]")
            if "open" in p:
                if p != {"open": True}:
                    raise errors.Unprocessable(f"players[{i}]: an open seat is exactly {{\"open\": true}}",
                                               field=f"players[{i}]")
                checked.append({"open": True})
                continue
            name = bounds.check_name(p.get("name"), f"players[{i}].name", self.limits["name_length"])
            ai = p.get("ai")
            if ai is not None and ai not in info.levels:  # a value outside the enumeration: malformed (400)
                raise errors.BadRequest(f"players[{i}].ai: must be one of {', '.join(info.levels)}",
                                        field=f"players[{i}].ai")
            unknown = set(p) - {"name", "ai"}
            if unknown:
                raise errors.Unprocessable(f"players[{i}]: unknown field {min(unknown)!r}",
                                           field=f"players[{i}]")
            checked.append({"name": name, **({"ai": ai} if ai else {})})
        return checked

    # -- commands ----------------------------------------------------------------------------------------

    def command(self, gid: str, seat: int, move: str, expected_version: int | None = None,
                command_id: str | None = None) -> dict:
        """Apply one command of ``seat``; returns ``{"version", "events"}`` as the seat sees them.

        Checks, in order: command id already seen (first result) → stale ``expected_version`` (409) → turn (403)
        → notation (400) → legality (422). Nothing is appended unless every check passes.

        The first attempt judges the command on the cached state without reading Redis: the append checks the
        version and the command id atomically, so a stale cached state only costs a retry, and a rejection is
        only ever given on a state just read from the stream (with the command id looked up after that read).
        With a current cache a command is then one round trip to Redis.
        """
        key = f"{seat}:{command_id}" if command_id else None
        game = self._cached(gid)
        for _ in range(COMMAND_RETRIES):
            fresh = game is None or (expected_version is not None and expected_version != game.version)
            if fresh:
                game = self.load(gid)
            at = int(time.time() * 1000)
            try:
                if expected_version is not None and expected_version != game.version:
                    raise errors.Conflict(f"the game is at version {game.version}, not {expected_version}",
                                          version=game.version)
                if self._time_ran_out(game, at):
                    game = None
                    continue  # the game changed (a timeout): judge the command on what it is now
                events = self._decide(game, seat, move, at)
            except (errors.Conflict, errors.NotYourTurn, errors.BadNotationError, errors.IllegalMoveError):
                if not fresh:
                    game = None  # judged on a cached state that may be stale: judge again on the stream's tail
                    continue
                # Looked up after loading: a twin request that appended in between is then either in this
                # state (its result is stored with its events, atomically) or found here.
                stored = self.store.command_result(gid, key) if key else None
                if stored is not None:
                    return self._first_result(gid, seat, stored)
                raise
            answer, state = self._answer(game, seat, events, at)
            applied = f"{game.version + 1}-{answer['version']}".encode()  # the answer is rebuilt from these
            try:
                result = self.store.append(gid, [codec.encode(e) for e in events], expected_version=game.version,
                                           command_id=key, result=applied, at=at)
            except ConcurrencyError as exc:
                # The append checks the command id first: a conflict means this command was never applied.
                if expected_version is not None:
                    raise errors.Conflict(f"the game is at version {exc.current}, not {expected_version}",
                                          version=exc.current) from exc
                game = None
                continue  # another command won this version: judge ours again on the new state
            except NotReplicated as exc:
                raise errors.Unavailable(str(exc)) from exc
            except StoreUnavailable as exc:
                raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
            if result.duplicate:
                return self._first_result(gid, seat, result.stored)
            self._remember(replace(game, state=state, version=result.version))
            self._poke(gid)
            self._schedule_clock(gid, game.module, state, result.version)
            return answer
        raise errors.Conflict("the game is too busy right now; try again", version=self.store.version(gid))

    def _time_ran_out(self, game: Game, at: int) -> bool:
        """If a clock ran out before this command, end the game by it first: the timeout was due (the scheduled
        clock check appends it moments later), so no command — a late move, a resign, accepting a draw — is
        judged on a game whose time is up. Appended with the version it was judged on, like the clock check's;
        True when the game changed (here, or by another writer meanwhile)."""
        events = game.module.expired(game.state, at)
        if not events:
            return False
        try:
            result = self.store.append(game.gid, [codec.encode(e) for e in events], expected_version=game.version,
                                       at=at)
        except ConcurrencyError:
            return True
        except StoreUnavailable as exc:
            raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
        state = game.state
        for event in events:
            state = game.module.evolve(state, event, at)
        self._remember(replace(game, state=state, version=result.version))
        self._poke(game.gid)
        self._schedule_clock(game.gid, game.module, state, result.version)
        return True

    def _first_result(self, gid: str, seat: int, stored: bytes) -> dict:
        """The answer of a command already applied, rebuilt from the versions it appended ("first-last").

        Only the range is stored per command id, not the answer: the events are in the stream. The rebuilt answer
        equals the first one, except that a game finished since shows its events unredacted.
        """
        first, last = (int(v) for v in stored.decode().split("-"))
        game = self.load(gid)
        viewer = game.viewer(seat)
        return {"version": last, "events": [
            codec.to_client(game.module, game.module.redact(codec.decode(game.module, item.data), viewer),
                            item.version, item.at, game.names, game.sides)
            for item in self.store.read(gid, after=first - 1, to=last)]}

    def _decide(self, game: Game, seat: int, move: str, now: int) -> list:
        module = game.module
        if " ".join(move.split()) in TABLE_COMMANDS:
            return self._decide_table(game, seat, move)
        if seat not in module.to_act(game.state):
            if module.status(game.state) == "finished":
                raise errors.NotYourTurn("the game is over")
            raise errors.NotYourTurn(f"it is not seat {seat}'s turn")
        try:
            command = module.parse(move)
        except BadNotation as exc:
            raise errors.BadNotationError(str(exc)) from exc
        try:
            events = module.decide(game.state, seat, command, rng_for(game.meta, game.version + 1), now=now)
        except IllegalMove as exc:
            raise errors.IllegalMoveError(str(exc)) from exc
        if not events:
            raise errors.IllegalMoveError(f"{move!r} changes nothing")
        return events

    def _decide_table(self, game: Game, seat: int, move: str) -> list:
        """A table command (resign, draws, abort): any seat of an unfinished game, whether or not its turn."""
        if game.module.status(game.state) == "finished":
            raise errors.NotYourTurn("the game is over")
        try:
            return game.module.decide(game.state, seat, TableCommand(" ".join(move.split())), None)
        except IllegalMove as exc:
            raise errors.IllegalMoveError(str(exc)) from exc

    def _schedule_clock(self, gid: str, module: Any, state: Any, version: int) -> None:
        """Ask the workers to check the game's clocks at the first deadline (timeouts with no client connected)."""
        deadline = module.deadline(state)
        if deadline is not None and self.jobs is not None and hasattr(self.jobs, "clock"):
            with contextlib.suppress(redis.RedisError):  # the next append schedules it again
                self.jobs.clock(gid, version, deadline)

    def _answer(self, game: Game, seat: int, events: list, at: int) -> tuple[dict, Any]:
        """The answer to the command (its events as ``seat`` sees them) and the state after them."""
        state = game.state
        shown = []
        for i, event in enumerate(events):
            state = game.module.evolve(state, event, at)
            viewer = REVEAL_ALL if game.module.status(state) == "finished" else seat
            after = replace(game, state=state)
            shown.append(codec.to_client(game.module, game.module.redact(event, viewer), game.version + 1 + i, at,
                                         after.names, after.sides))
        return {"version": game.version + len(events), "events": shown}, state

    def _poke(self, gid: str) -> None:
        if self.jobs is not None:
            with contextlib.suppress(redis.RedisError):  # the dispatcher will project it from the log
                self.jobs.project(gid)

    # -- feeds -------------------------------------------------------------------------------------------

    def events(self, gid: str, seat: int | None, after: int = 0, limit: int = 1000) -> list[dict]:
        """Events after version ``after`` as ``seat`` may see them (everything once the game is finished)."""
        game = self.load(gid)
        viewer = game.viewer(seat)
        out = []
        for item in self.store.read(gid, after=after, to=min(game.version, after + limit)):
            event = codec.decode(game.module, item.data)
            out.append(codec.to_client(game.module, game.module.redact(event, viewer), item.version, item.at,
                                       game.names, game.sides))
        return out
