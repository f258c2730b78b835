"""The table's own operations beside moves: taking an open seat, rematches, and ending games whose time ran out.

Each is a decision handed to the write unit (``services/games/round.py``), appended with the version it was decided
on, so of racing requests exactly one wins: 32 claims of one
seat give one token and 31 ``seat_taken`` conflicts; a timeout and a late move for the same version give one of
the two. Resign, draws and abort are commands (``GameService.command``); the rules of all of it are in
``domain/table.py``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from domain.table import Rematched, SeatTaken
from domain.text import Text
from services import bounds, errors, tokens
from services.accounts.seating import AlreadySeated
from services.games.commands import GameService
from services.games.round import Written
from services.games.states import Game
from services.scripts import lua
from services.store import codec

CLAIM_MS = 10_000  # a rematch claim lapses this long after its holder died (creating one takes milliseconds)
WAIT_SECONDS = CLAIM_MS / 1000 + 2  # how long a racing request waits for the rematch before a 409
WAIT_STEP = 0.02
RELEASE_CLAIM = lua("release_claim")


class SeatTakenError(errors.Conflict):
    code = "seat_taken"


class Tables:
    """Open seats, rematches and timeouts over one ``GameService``."""

    def __init__(self, service: GameService):
        self.service = service
        self.store = service.store
        self.round = service.round

    def claim(self, gid: str, seat: int, name: str | None, account: str | None = None) -> dict:
        """Take open ``seat`` under ``name``, or with no name as the signed-in ``account`` (its username); returns
        ``{"seat", "name", "token"}`` (the token shown once, and kept for the account).

        One of racing claims wins (the append's version check); the others get ``SeatTakenError``. A guest may
        not take an account's name (``name_reserved``); an account holds one seat of a game at most."""
        if name is None and account is not None:
            name = account
        elif name is None:
            raise errors.BadRequest(Text("name: a name is required, or sign in to sit as your account"),
                                    field="name")
        else:
            name = self._check_name(name)
            self.service.accounts.refuse_reserved(name, "name")
            account = None
        def check(game: Game) -> None:
            if not 0 <= seat < game.seats:
                raise errors.NotFound(Text("game {gid} has no seat {seat} (seats 0 to {last})",
                                           gid=gid, seat=seat, last=game.seats - 1))
            player = game.meta["players"][seat]
            if game.status == "finished":
                raise errors.Conflict(Text("the game is over: its seats can no longer be taken"),
                                      version=game.version)
            if seat not in game.state.open:
                raise SeatTakenError(Text("seat {seat} is taken already", seat=seat), version=game.version)
            if player.get("rematch_of"):
                raise SeatTakenError(Text("seat {seat} is kept for {player}: it is taken from the page of game "
                                          "{gid}", seat=seat, player=player["name"], gid=player["rematch_of"]),
                                     version=game.version)
            if account is not None and account in game.accounts:
                raise AlreadySeated(Text("you hold seat {seat} of this game already",
                                         seat=game.accounts.index(account)),
                                    version=game.version)

        meta = self.store.meta(gid)  # None: no such game (the load says so)
        token, _ = self._sit(gid, seat, name, account, meta["game"] if meta else None, check)
        return {"seat": seat, "name": name, "token": token}

    def _sit(self, gid: str, seat: int, name: str, account: str | None, game_name: str | None,
             check: Callable[[Game], None]) -> tuple[str, Written]:
        """``seat`` of game ``gid`` taken under ``name`` (by ``account``, if any, with its rating in ``game_name``)
        unless ``check`` refuses it; the seat's new token and what was written. The token's hash is written by the
        append's own script (and on the event's journal line): a crash leaves the seat open or taken with its
        hash, never taken without it; the token is handed out after."""
        token = tokens.new_token()
        rating = self.service.rating_of(game_name, account) \
            if account is not None and game_name is not None and self.service.rating_of is not None else None

        def decide(game: Game, now: int) -> list:
            check(game)
            return [SeatTaken(seat=seat, name=name, account=account, rating=rating)]

        keep = None
        if account is not None:  # kept before the seat is taken: no account seat without its entry
            def keep() -> None:
                self.service.accounts.keep(account, gid, seat, token)
        return token, self.round.change(gid, decide, seats={seat: tokens.token_hash(token)}, before=keep)

    def _check_name(self, name: object) -> str:
        return bounds.check_name(name, "name", self.service.limits.name_length)

    # -- rematch -------------------------------------------------------------------------------------------

    def rematch(self, gid: str, seat: int, client: str | None = None) -> dict:
        """The finished game's rematch for ``seat``: created by the first caller (same game, options and clock,
        seats rotated, AI seats stay AI), joined by the others; ``{"id", "seats"}`` with the caller's token.

        Exactly one rematch game is made however many requests race: the caller that takes the game's rematch
        claim (``SET NX`` with a TTL) creates it and appends ``rematched``; the others wait for that event and
        join. A claimant that fails lets go of its claim at once, one that dies loses it after ``CLAIM_MS``."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            game = self.service.states.load(gid)
            if game.status != "finished":
                raise errors.Conflict(Text("the game is not over yet: a rematch comes after it"),
                                      version=game.version)
            if game.state.rematch is not None:
                return self._join_rematch(game, seat)
            claim = secrets.token_hex(8)
            if self.store.redis.set(self.store.keys.rematch_claim(gid), claim, nx=True, px=CLAIM_MS):
                try:
                    return self._make_rematch(gid, seat, client)
                finally:
                    self._release(gid, claim)
            if time.monotonic() > deadline:
                raise errors.Conflict(Text("the rematch is being made; try again in a moment"),
                                      version=game.version)
            time.sleep(WAIT_STEP)  # another request makes it: join it once its ``rematched`` is appended

    def _make_rematch(self, gid: str, seat: int, client: str | None) -> dict:
        """Create the rematch and record it (``rematched``) in the finished game, holding its claim."""
        game = self.service.states.load(gid)  # the rematch may have been made just before the claim was taken
        if game.state.rematch is not None:
            return self._join_rematch(game, seat)
        new = self._create_rematch(game, seat, client)

        def record(game: Game, now: int) -> list:
            if game.state.rematch is not None:  # another's, made after this claim lapsed
                raise errors.Conflict(Text("the game is too busy right now; try again"), version=game.version)
            return [Rematched(gid=new["id"], seat=seat)]

        self.round.change(gid, record)
        return new

    def _release(self, gid: str, claim: str) -> None:
        self.store.redis.eval(RELEASE_CLAIM, 1, self.store.keys.rematch_claim(gid), claim)

    def _create_rematch(self, game: Game, seat: int, client: str | None) -> dict:
        n = game.seats
        old_players = game.meta["players"]
        names = game.names
        rotated = [(old + 1) % n for old in range(n)]  # new seat i is taken by old seat (i + 1) % n
        players, reserved, mine = [], {}, None
        for new_seat, old in enumerate(rotated):
            player = {"name": names[old], **({"ai": old_players[old]["ai"]} if old_players[old].get("ai") else {})}
            players.append(player)
            if old == seat:
                mine = new_seat
            elif not player.get("ai"):
                reserved[new_seat] = game.gid
        first = next(self.store.read(game.gid, to=1))
        options = dict(getattr(codec.decode(game.rules, first.data), "options", {}) or {})
        held = game.accounts  # an account's seat stays its account's (its name is no guest's to take)
        created = self.service.create(game.meta["game"], players, options, client=client,
                                      clock=game.state.clock_setting, reserved=reserved,
                                      accounts={new: held[old] for new, old in enumerate(rotated) if held[old]})
        assert mine is not None
        return created

    def _join_rematch(self, game: Game, seat: int) -> dict:
        new_gid = game.state.rematch
        new_seat = (seat - 1) % game.seats

        def check(new: Game) -> None:
            if new.meta["players"][new_seat].get("rematch_of") != game.gid or new_seat not in new.state.open:
                raise SeatTakenError(Text("your seat in the rematch {new_gid} is taken already", new_gid=new_gid),
                                     version=new.version, id=new_gid)

        token, written = self._sit(new_gid, new_seat, game.names[seat], game.accounts[seat], game.meta["game"],
                                   check)
        new = written.game
        seats = [{"seat": i, "name": p.get("name", ""), **({"ai": p["ai"]} if p.get("ai") else {})}
                 for i, p in enumerate(new.meta["players"])]
        seats[new_seat]["token"] = token
        return {"id": new_gid, "seats": seats, "version": new.version}

    # -- clocks --------------------------------------------------------------------------------------------

    def flag(self, gid: str, now: int | None = None) -> str:
        """End the game if a running clock has run out at ``now`` (ms; default the current time).

        Returns "timeout", "running" (not yet) or "none" (no clock runs). Appended with the version it was judged
        on: a move that wins that version wins, and the clock is judged again on the new state."""
        try:
            written = self.round.change(gid, lambda game, at: [], now=now)
        except errors.Conflict:  # too busy: the dispatchers' next check judges it again
            return "running"
        if written.timed_out:
            return "timeout"
        return "none" if written.game.deadline is None else "running"
