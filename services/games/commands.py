"""The command side: create games and handle commands, each a decision handed to the write unit (``Round``)."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence

from domain.base import REVEAL_ALL, BadSetup, Setup
from domain.catalog import GameInfo
from domain.registry import GAME_NAMES, game_module
from domain.table import TableSet, check_clock, is_table_command
from domain.text import Text
from services import bounds, errors, tokens
from services.accounts.seating import AccountSeating
from services.accounts.service import Accounts
from services.clients import client_id
from services.config import Limits
from services.games.fairness import setup_meta
from services.games.players import Player, asks_for, players_of
from services.games.quota import CreationRate, OpenGames
from services.games.round import JobSink, Round, Written
from services.games.states import Game, States
from services.people.presence import AWAY_MS, Presence
from services.store import codec
from services.store.streams import new_game_id

log = logging.getLogger(__name__)


UNSEEDED = random.SystemRandom()
"""The randomness of games without a seed: the operating system's, nothing to seed per command (and no state
shared between commands that a draw could reveal)."""


def rng_for(meta: dict, version: int) -> random.Random:
    """Randomness for the command applied at ``version``: reproducible when the game has a seed."""
    if meta.get("seed") is not None:
        return random.Random(f"{meta['seed']}/{version}")
    return UNSEEDED


class GameService:
    """Creates games and applies commands, judging each on the game's state (``States``: a cached state plus the
    stream's tail), and pokes the workers after each append."""

    def __init__(self, states: States, jobs: JobSink | None = None, limits: Limits | None = None,
                 presence: Presence | None = None, accounts: Accounts | None = None):
        self.states = states
        self.store = states.store
        self.round = Round(states, jobs)
        self.limits = limits or Limits()
        self.open_games = OpenGames(self.store, self.limits.open_games_per_client)
        self.creation_rate = CreationRate(self.store, self.limits.games_per_minute_per_client)
        self.accounts = AccountSeating(accounts)  # the process's accounts (None: no name is an account's)
        self.presence = presence  # who is connected: what a seat may claim of an opponent away (``away``)
        # (game, username) → the account's rating in that game's ladder, kept with a seat an account takes.
        self.rating_of: Callable[[str, str], dict] | None = None

    @property
    def jobs(self) -> JobSink | None:
        """Where the write path pokes the workers."""
        return self.round.jobs

    @jobs.setter
    def jobs(self, jobs: JobSink | None) -> None:
        self.round.jobs = jobs

    # -- creating ----------------------------------------------------------------------------------------

    def create(self, game: str, players: Sequence[Player | dict], options: dict | None = None,
               seed: int | None = None, position: dict | None = None, client: str | None = None,
               clock: dict | None = None, reserved: dict[int, str] | None = None, account: str | None = None,
               accounts: dict[int, str] | None = None, tournament: str | None = None) -> dict:
        """Create a game; returns its id, version and seats (with a token for each human seat, shown once).

        ``client`` (the caller's address) may hold at most ``limits.open_games_per_client`` open games.
        Players ``{"open": true}`` leave their seat open for anyone (``claim``); ``reserved`` (rematches) maps
        seats left open for the player of another game, ``{seat: "<that game's id>"}``. ``clock``: docs/api.md.
        ``account``: the signed-in caller's username, for a player ``{"me": true}``; ``accounts`` (rematches):
        seats held by accounts, ``{seat: username}``. An account's seat token is also kept for the account
        (``GET /api/me/games``). ``tournament``: the id of the tournament the game is a table of (its
        metadata names it: its result goes to the tournament). ``players``: ``Player``s, or plain objects of that
        form (converted)."""
        if game not in GAME_NAMES:
            raise errors.Unprocessable(Text("game: unknown game {game} (known: {game_names})",
                                            game=repr(game), game_names=', '.join(GAME_NAMES)),
                                       field="game")
        module = game_module(game)
        players = self._check_players(module.CATALOG, players_of(players), account, accounts or {})
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
        rng = random.Random(f"{seed}/0") if seed is not None else UNSEEDED
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

        def keep_accounts() -> None:
            for seat, token in seat_tokens.items():
                if players[seat].get("account"):
                    self.accounts.keep(players[seat]["account"], gid, seat, token)

        version = self.round.create(gid, events, meta, {s: tokens.token_hash(t) for s, t in seat_tokens.items()},
                                    before=keep_accounts, undo=lambda: self.open_games.release(client, gid))
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
        return {"id": gid, "version": version, "seats": seats}

    def _is_open(self, gid: str) -> bool:
        try:
            game = self.states.load(gid)
        except errors.NotFound:
            return False
        return game.status != "finished"

    def _check_players(self, info: GameInfo, players: list[Player], account: str | None = None,
                       accounts: dict[int, str] | None = None) -> list[dict]:
        """The players of a new game as its metadata keeps them, checked once, here, against what only the service
        knows: the game's seats and AI levels (its catalog entry), the accounts' names, who is signed in.

        ``{"me": true}`` is the signed-in ``account`` (one seat of a game at most); a person's name may not be an
        account's (``name_reserved``), unless ``accounts`` says that account holds the seat. Each player's own form
        is its type's (``services/games/players.py``)."""
        accounts = accounts or {}
        low, high = info.seats
        if not low <= len(players) <= high:
            raise errors.Unprocessable(Text("players: {name} needs {seat_range} players",
                                            name=info.name, seat_range=info.seat_range()), field="players")
        if len(players) > self.limits.players:
            raise errors.Unprocessable(Text("players: at most {limits} players",
                                            limits=self.limits.players), field="players")
        checked: list[dict] = []
        for i, player in enumerate(players):
            kind = asks_for(player, i)
            if kind == "open":
                checked.append({"open": True})
                continue
            if kind == "me":
                checked.append(self._me(i, account, checked))
                continue
            name = bounds.check_name(player.name or None, f"players[{i}].name", self.limits.name_length)
            if i in accounts:
                checked.append({"name": name, "account": accounts[i]})
                continue
            if kind == "ai" and player.ai not in info.levels:  # a value outside the enumeration: malformed (400)
                raise errors.BadRequest(Text("players[{i}].ai: must be one of {levels}",
                                             i=i, levels=', '.join(info.levels)),
                                        field=f"players[{i}].ai")
            if kind == "person":
                self.accounts.refuse_reserved(name, f"players[{i}].name")
            checked.append({"name": name, **({"ai": player.ai} if kind == "ai" else {})})
        return checked

    @staticmethod
    def _me(i: int, account: str | None, checked: list[dict]) -> dict:
        """The player ``{"me": true}``: the signed-in account, at one seat of the game only."""
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

        The first attempt judges the command on the cached state without reading Redis (``Round.change``): with a
        current cache a command is then one round trip to Redis.
        """
        def decide(game: Game, now: int) -> list:
            away = self.away(game, now) if is_table_command(move) else frozenset()
            return game.command(seat, move, rng_for(game.meta, game.version + 1), now, away)

        written = self.round.change(gid, decide, expected_version=expected_version,
                                    command_id=f"{seat}:{command_id}" if command_id else None)
        if written.repeated is not None:
            return self._first_result(gid, seat, *written.repeated)
        return self._answer(written, seat)

    def _first_result(self, gid: str, seat: int, first: int, last: int) -> dict:
        """The answer of a command already applied, rebuilt from the versions it appended.

        Only the range is stored per command id, not the answer: the events are in the stream. The rebuilt answer
        equals the first one, except that a game finished since shows its events unredacted.
        """
        game = self.states.load(gid)
        viewer = game.viewer(seat)
        return {"version": last, "events": [
            codec.to_client(game.rules, game.rules.redact(codec.decode(game.rules, item.data), viewer),
                            item.version, item.at, game.names, game.sides)
            for item in self.store.read(gid, after=first - 1, to=last)]}

    def away(self, game: Game, now: int) -> frozenset[int]:
        """The seats of a clocked two-seat game whose player has been away ``AWAY_MS`` on their turn: no page or
        stream of theirs seen for that long, and their turn that old (docs/api.md "Meeting people")."""
        return frozenset(seat for seat, at in self.claim_times(game).items() if at <= now)

    def claim_times(self, game: Game) -> dict[int, int]:
        """For each seat to act in a clocked two-seat game, when (ms) the other seat may claim the game if its
        player stays away: ``AWAY_MS`` after its turn began or its page or stream was last seen, the later."""
        state = game.state
        if self.presence is None or game.seats != 2 or getattr(state, "clock", None) is None \
                or game.rules.status(state) != "playing":
            return {}
        seen = self.presence.last_seen(game.gid, game.accounts)
        return {s: max(state.at, seen[s] or 0) + AWAY_MS for s in game.rules.to_act(state)}

    def _answer(self, written: Written, seat: int) -> dict:
        """The answer to a command: its events as ``seat`` sees them (all of them once the game is finished)."""
        game, module = written.before, written.before.rules
        shown = []
        for i, (event, state) in enumerate(zip(written.events, written.states, strict=True)):
            viewer = REVEAL_ALL if module.status(state) == "finished" else seat
            after = game.at(game.version, state)
            shown.append(codec.to_client(module, module.redact(event, viewer), game.version + 1 + i, written.at,
                                         after.names, after.sides))
        return {"version": game.version + len(written.events), "events": shown}

    def poke(self, gid: str) -> None:
        self.round.poke(gid)
