"""The command side: create games and handle commands (judged on ``States``, appended with the version judged)."""

from __future__ import annotations

import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

import redis

from domain.base import REVEAL_ALL, BadNotation, BadSetup, IllegalMove, Setup
from domain.catalog import GameInfo
from domain.registry import GAME_NAMES, game_module
from domain.table import TABLE_COMMANDS, TableCommand, TableSet, check_clock
from domain.text import Text
from services import bounds, errors, tokens
from services.accounts.seating import AccountSeating
from services.clients import client_id
from services.games.fairness import setup_meta
from services.games.quota import CreationRate, OpenGames
from services.games.states import Game, States
from services.people.presence import AWAY_MS, Presence
from services.store import codec
from services.store.streams import ConcurrencyError, NotReplicated, StoreUnavailable, new_game_id

log = logging.getLogger(__name__)
COMMAND_RETRIES = 8


class JobSink(Protocol):
    """Where the command path pokes the workers (RQ in production, nothing in some tests)."""

    def project(self, gid: str) -> None: ...


def rng_for(meta: dict, version: int) -> random.Random:
    """Randomness for the command applied at ``version``: reproducible when the game has a seed."""
    if meta.get("seed") is not None:
        return random.Random(f"{meta['seed']}/{version}")
    return random.Random(secrets.randbits(128))


class GameService:
    """Creates games and applies commands, judging each on the game's state (``States``: a cached state plus the
    stream's tail), and pokes the workers after each append."""

    def __init__(self, states: States, jobs: JobSink | None = None, limits: dict | None = None,
                 presence: Presence | None = None):
        self.states = states
        self.store = states.store
        self.jobs = jobs
        self.limits = limits or {"name_length": 40, "players": 8}
        self.open_games = OpenGames(self.store, self.limits.get("open_games_per_client"))
        self.creation_rate = CreationRate(self.store, self.limits.get("games_per_minute_per_client"))
        self.accounts = AccountSeating(self.store, self.limits)
        self.presence = presence  # who is connected: what a seat may claim of an opponent away (``away``)
        # (game, username) → the account's rating in that game's ladder, kept with a seat an account takes.
        self.rating_of: Callable[[str, str], dict] | None = None

    # -- creating ----------------------------------------------------------------------------------------

    def create(self, game: str, players: list[dict], options: dict | None = None, seed: int | None = None,
               position: dict | None = None, client: str | None = None, clock: dict | None = None,
               reserved: dict[int, str] | None = None, account: str | None = None,
               accounts: dict[int, str] | None = None, tournament: str | None = None) -> dict:
        """Create a game; returns its id, version and seats (with a token for each human seat, shown once).

        ``client`` (the caller's address) may hold at most ``limits["open_games_per_client"]`` open games.
        Players ``{"open": true}`` leave their seat open for anyone (``claim``); ``reserved`` (rematches) maps
        seats left open for the player of another game, ``{seat: "<that game's id>"}``. ``clock``: CONTRACT.md.
        ``account``: the signed-in caller's username, for a player ``{"me": true}``; ``accounts`` (rematches):
        seats held by accounts, ``{seat: username}``. An account's seat token is also kept for the account
        (``GET /api/me/games``). ``tournament``: the id of the tournament the game is a table of (its
        metadata names it: its result goes to the tournament)."""
        if game not in GAME_NAMES:
            raise errors.Unprocessable(Text("game: unknown game {game} (known: {game_names})",
                                            game=repr(game), game_names=', '.join(GAME_NAMES)),
                                       field="game")
        module = game_module(game)
        players = self._check_players(module.CATALOG, players, account, accounts or {})
        for player in players:
            if player.get("account") and self.rating_of is not None:
                player["rating"] = self.rating_of(game, player["account"])  # as the game starts: kept with it
        try:
            clock = check_clock(clock)
        except BadSetup as exc:
            raise errors.Unprocessable(exc.text, field=exc.field) from exc
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
            raise errors.Unprocessable(exc.text, field=exc.field) from exc
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            # The domain is pure: what it cannot read is the client's input. A bug to fix, not a 500 to give.
            field = "position" if position is not None else "options"
            log.warning("create %s: %s refused with %r", game, field, exc)
            raise errors.Unprocessable(Text("{field}: not a valid {field} of {game}",
                                            field=field, game=game), field=field) from exc
        open_seats = [i for i, p in enumerate(players) if p.get("open")]
        if open_seats or clock:
            events.append(TableSet(open=open_seats, clock=clock))
        gid = new_game_id()
        humans = [i for i, p in enumerate(players) if not p.get("ai") and not p.get("open")]
        seat_tokens = {i: tokens.new_token() for i in humans}
        meta = {"id": gid, "game": game, "players": players, "seed": seed, "created": int(time.time() * 1000),
                "setup": setup_meta(game, players, seed, position)}
        if tournament is not None:
            meta["tournament"] = tournament
        client = client_id(client)
        if client:
            meta["client"] = client  # the creator, hashed: quotas and fair AI queues count by it
        self.creation_rate.spend(client)
        self.open_games.reserve(client, gid, self._is_open)
        try:
            for seat, token in seat_tokens.items():  # before the game exists: no seat of it without its entry
                if players[seat].get("account"):
                    self.accounts.keep(players[seat]["account"], gid, seat, token)
            self.store.set_seat_hashes(gid, {s: tokens.token_hash(t) for s, t in seat_tokens.items()})
            result = self.store.append(gid, [codec.encode(e) for e in events], expected_version=0,
                                       meta=json.dumps(meta).encode())
        except NotReplicated as exc:  # made, but not confirmed on a replica: its creator never gets its tokens
            raise errors.Unavailable(str(exc)) from exc
        except Exception as exc:
            self.open_games.release(client, gid)
            self.store.redis.delete(self.store.keys.seats(gid))  # no orphan seats hash of a game never made
            if isinstance(exc, StoreUnavailable):
                raise errors.Unavailable(Text("the event store is unreachable; try again in a moment")) from exc
            raise
        self.poke(gid)
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
            game = self.states.load(gid)
        except errors.NotFound:
            return False
        return game.module.status(game.state) != "finished"

    def _check_players(self, info: GameInfo, players: Any, account: str | None = None,
                       accounts: dict[int, str] | None = None) -> list[dict]:
        """The players of a new game, checked once, here, against the game's catalog entry (seats, AI levels).

        ``{"me": true}`` is the signed-in ``account`` (one seat of a game at most); a person's name may not be an
        account's (``name_reserved``), unless ``accounts`` says that account holds the seat. The API decodes
        players as a list of objects and nothing more (``web/schemas.py``)."""
        accounts = accounts or {}
        low, high = info.seats
        if not isinstance(players, list) or not low <= len(players) <= high:
            raise errors.Unprocessable(Text("players: {name} needs {seat_range} players",
                                            name=info.name, seat_range=info.seat_range()), field="players")
        if len(players) > self.limits["players"]:
            raise errors.Unprocessable(Text("players: at most {limits} players",
                                            limits=self.limits['players']), field="players")
        checked = []
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise errors.Unprocessable(Text("players[{i}]: must be an object with a name",
                                                i=i), field=f"players[{i}]")
            if "open" in p:
                if p != {"open": True}:
                    raise errors.Unprocessable(Text("players[{i}]: an open seat is exactly {{\"open\": true}}",
                                                    i=i),
                                               field=f"players[{i}]")
                checked.append({"open": True})
                continue
            if "me" in p:
                checked.append(self._me(p, i, account, checked))
                continue
            name = bounds.check_name(p.get("name"), f"players[{i}].name", self.limits["name_length"])
            if i in accounts:
                checked.append({"name": name, "account": accounts[i]})
                continue
            ai = p.get("ai")
            if ai is not None and ai not in info.levels:  # a value outside the enumeration: malformed (400)
                raise errors.BadRequest(Text("players[{i}].ai: must be one of {levels}",
                                             i=i, levels=', '.join(info.levels)),
                                        field=f"players[{i}].ai")
            unknown = set(p) - {"name", "ai"}
            if unknown:
                raise errors.Unprocessable(Text("players[{i}]: unknown field {unknown}",
                                                i=i, unknown=repr(min(unknown))),
                                           field=f"players[{i}]")
            if not ai:
                self.accounts.refuse_reserved(name, f"players[{i}].name")
            checked.append({"name": name, **({"ai": ai} if ai else {})})
        return checked

    @staticmethod
    def _me(player: dict, i: int, account: str | None, checked: list[dict]) -> dict:
        """The player ``{"me": true}``: the signed-in account, at one seat of the game only."""
        if player != {"me": True}:
            raise errors.Unprocessable(Text("players[{i}]: a seat of your own is exactly {{\"me\": true}}", i=i),
                                       field=f"players[{i}]")
        if account is None:
            raise errors.Unauthorized(Text("players[{i}]: {{\"me\": true}} needs a signed-in account (POST "
                                           "/api/session)", i=i), field=f"players[{i}]")
        if any(p.get("account") == account for p in checked):
            raise errors.Unprocessable(Text("players[{i}]: an account holds one seat of a game at most", i=i),
                                       field=f"players[{i}]")
        return {"name": account, "account": account}

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
        game = self.states.cached(gid)
        for _ in range(COMMAND_RETRIES):
            fresh = game is None or (expected_version is not None and expected_version != game.version)
            if fresh:
                game = self.states.load(gid)
            at = int(time.time() * 1000)
            try:
                if expected_version is not None and expected_version != game.version:
                    raise errors.Conflict(Text("the game is at version {version}, not {expected_version}",
                                               version=game.version, expected_version=expected_version),
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
                    raise errors.Conflict(Text("the game is at version {current}, not {expected_version}",
                                               current=exc.current, expected_version=expected_version),
                                          version=exc.current) from exc
                game = None
                continue  # another command won this version: judge ours again on the new state
            except NotReplicated as exc:
                raise errors.Unavailable(str(exc)) from exc
            except StoreUnavailable as exc:
                raise errors.Unavailable(Text("the event store is unreachable; try again in a moment")) from exc
            if result.duplicate:
                return self._first_result(gid, seat, result.stored)
            self.appended(replace(game, state=state, version=result.version))
            return answer
        raise errors.Conflict(Text("the game is too busy right now; try again"), version=self.store.version(gid))

    def _time_ran_out(self, game: Game, at: int) -> bool:
        """If a clock ran out before this command, end the game by it first: the timeout was due (the dispatchers'
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
            raise errors.Unavailable(Text("the event store is unreachable; try again in a moment")) from exc
        state = game.state
        for event in events:
            state = game.module.evolve(state, event, at)
        self.appended(replace(game, state=state, version=result.version))
        return True

    def _first_result(self, gid: str, seat: int, stored: bytes) -> dict:
        """The answer of a command already applied, rebuilt from the versions it appended ("first-last").

        Only the range is stored per command id, not the answer: the events are in the stream. The rebuilt answer
        equals the first one, except that a game finished since shows its events unredacted.
        """
        first, last = (int(v) for v in stored.decode().split("-"))
        game = self.states.load(gid)
        viewer = game.viewer(seat)
        return {"version": last, "events": [
            codec.to_client(game.module, game.module.redact(codec.decode(game.module, item.data), viewer),
                            item.version, item.at, game.names, game.sides)
            for item in self.store.read(gid, after=first - 1, to=last)]}

    def _decide(self, game: Game, seat: int, move: str, now: int) -> list:
        module = game.module
        if " ".join(move.split()) in TABLE_COMMANDS:
            return self._decide_table(game, seat, move, self.away(game, now))
        if seat not in module.to_act(game.state):
            if module.status(game.state) == "finished":
                raise errors.NotYourTurn(Text("the game is over"))
            raise errors.NotYourTurn(Text("it is not seat {seat}'s turn", seat=seat))
        try:
            command = module.parse(move)
        except BadNotation as exc:
            raise errors.BadNotationError(exc.text) from exc
        try:
            events = module.decide(game.state, seat, command, rng_for(game.meta, game.version + 1), now=now)
        except IllegalMove as exc:
            raise errors.IllegalMoveError(exc.text) from exc
        if not events:
            raise errors.IllegalMoveError(Text("{move} changes nothing", move=repr(move)))
        return events

    def _decide_table(self, game: Game, seat: int, move: str, away: frozenset[int]) -> list:
        """A table command (resign, draws, abort, claims): any seat of an unfinished game, whether or not its
        turn."""
        if game.module.status(game.state) == "finished":
            raise errors.NotYourTurn(Text("the game is over"))
        try:
            return game.module.decide(game.state, seat, TableCommand(" ".join(move.split())), None, away=away)
        except IllegalMove as exc:
            raise errors.IllegalMoveError(exc.text) from exc

    def away(self, game: Game, now: int) -> frozenset[int]:
        """The seats of a clocked two-seat game whose player has been away ``AWAY_MS`` on their turn: no page or
        stream of theirs seen for that long, and their turn that old (CONTRACT "Meeting people")."""
        state = game.state
        if self.presence is None or game.seats != 2 or getattr(state, "clock", None) is None \
                or now - state.at < AWAY_MS:
            return frozenset()
        seen = self.presence.last_seen(game.gid, game.accounts)
        to_act = game.module.to_act(state)
        return frozenset(s for s in to_act if seen[s] is None or now - seen[s] >= AWAY_MS)

    def _answer(self, game: Game, seat: int, events: list, at: int) -> tuple[dict, Any]:
        """The answer to the command (its events as ``seat`` sees them) and the state after them."""
        state = game.state
        shown = []
        for i, event in enumerate(events):
            state = game.module.evolve(state, event, at)
            viewer = REVEAL_ALL if game.module.status(state) == "finished" else seat
            after = Game(game.gid, game.meta, game.module, game.version, state)  # (``replace`` costs 10x more)
            shown.append(codec.to_client(game.module, game.module.redact(event, viewer), game.version + 1 + i, at,
                                         after.names, after.sides))
        return {"version": game.version + len(events), "events": shown}, state

    def appended(self, game: Game) -> None:
        """An append of this process brought the game to ``game``: keep its state, poke its projection."""
        self.states.remember(game)
        self.poke(game.gid)

    def poke(self, gid: str) -> None:
        if self.jobs is not None:
            with contextlib.suppress(redis.RedisError):  # the dispatcher will project it from the log
                self.jobs.project(gid)
