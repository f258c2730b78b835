"""The table around every game: open seats, resign, draws, abort and clocks, once for all games.

``Table(module)`` wraps a game's decider and has the same shape (``domain/base.py``); its state is a
``TableState`` that holds the game's own state in ``game``. Table events live in the same stream as the game's:
``table_set`` (seats left open, the clock), ``seat_taken``, ``resigned``, ``draw_offered``, ``draw_declined``,
``draw_agreed``, ``aborted`` and ``timed_out``. Table commands (``resign``, ``offer draw``, ``accept draw``,
``decline draw``, ``abort``) are sent like moves but are not in ``legal``: ``table_commands`` lists them.

Clocks run on the events' commit times: ``evolve`` takes each event's ``at`` (ms) and ``decide``, ``clock`` and
``expired`` take "now" from the caller, so the domain reads no clock and a replay shows the same times. A seat's
clock runs only once it has made its first move (lichess's rule): until then the seat to act has ``FIRST_MOVE_MS``
(a correspondence game: its ``per_move``) to make it, and a seat that does not ends the game ``aborted``, unrated
(``first_move_missed``).

With three or more seats a seat that resigns or runs out of time leaves: the game's own ``leave(state, seat)``
(a pure function of each game with more than two seats) takes it out of the turn order and of the winners; the
last seat left wins. Texts name seats as ``Seat``s (``domain/text.py``); the service says them with the players'
names.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Protocol

import msgspec

from domain.base import REVEAL_ALL, BadSetup, Event, IllegalMove, OutOfTurn, Viewer
from domain.registry import game_module
from domain.text import Seat, Text

CLAIMS = ("claim victory", "claim draw")
"""What a seat may claim of an opponent away on their turn (a clocked two-seat game; the service says who is
away)."""
TABLE_COMMANDS = ("resign", "offer draw", "accept draw", "decline draw", "abort", *CLAIMS)
MAX_CLOCK_SECONDS = 30 * 24 * 3600
MAX_EVENTS = 20_000
"""A game's length limit, in events (its version), whatever the game: the command whose events reach it also
ends the game in a draw (``game_too_long``, termination ``max_plies``). Real games stay far below it (a long Mouse
Guard game has a few thousand); the limit bounds what offer/decline or shuffling loops could make."""
MAX_DRAW_OFFERS = 3
"""Draw offers a seat may make in one game (lichess has no total limit, only the wait below)."""
OFFER_WAIT = 2
"""After a draw offer, its seat may offer again once the other seat has moved this many times (lichess: not within
20 plies of one's last offer; our games' turns differ too much in length for a count of plies, the other seat's
moves are the same in every game)."""
FIRST_MOVE_MS = 30_000
"""A real-time game's time for each seat's first move, its clock standing still meanwhile."""


class TableSet(Event, frozen=True, tag="table_set"):
    """Seats left open for anyone to take, and the clock (seconds), set when the game is created."""

    open: list[int] = []
    clock: dict[str, float] | None = None


class SeatTaken(Event, frozen=True, tag="seat_taken", omit_defaults=True):
    seat: int
    name: str
    account: str | None = None
    """The username of the account that sat down (None: a guest)."""
    rating: dict | None = None
    """That account's rating in the game's ladder as it sat down (``{"rating", "rd", "provisional"}``)."""


class Resigned(Event, frozen=True, tag="resigned"):
    seat: int


class DrawOffered(Event, frozen=True, tag="draw_offered"):
    seat: int


class DrawDeclined(Event, frozen=True, tag="draw_declined"):
    seat: int


class DrawAgreed(Event, frozen=True, tag="draw_agreed"):
    seat: int
    """The seat that accepted."""


class Aborted(Event, frozen=True, tag="aborted"):
    seat: int


class TimedOut(Event, frozen=True, tag="timed_out"):
    seat: int


class FirstMoveMissed(Event, frozen=True, tag="first_move_missed"):
    """``seat`` did not make its first move in time (``FIRST_MOVE_MS``): the game is aborted."""

    seat: int


class GameTooLong(Event, frozen=True, tag="game_too_long"):
    """The game reached ``MAX_EVENTS`` events (``limit``): it ends in a draw."""

    limit: int


class AbandonmentClaimed(Event, frozen=True, tag="abandonment_claimed"):
    """``seat`` claimed the game (or a draw) of an opponent away on their turn."""

    seat: int
    draw: bool = False


class Rematched(Event, frozen=True, tag="rematched", omit_defaults=True):
    """The finished game's rematch: the new game's id, and the seat that asked for it (None: recorded before
    seats were)."""

    gid: str
    seat: int | None = None


TABLE_EVENTS = (TableSet, SeatTaken, Resigned, DrawOffered, DrawDeclined, DrawAgreed, Aborted, TimedOut,
                FirstMoveMissed, AbandonmentClaimed, GameTooLong, Rematched)


def is_table_command(text: str) -> bool:
    """Whether ``text`` is one of ``TABLE_COMMANDS`` (spaces as the sender typed them)."""
    return " ".join(text.split()) in TABLE_COMMANDS


class TableCommand(msgspec.Struct, frozen=True):
    """A parsed table command: one of ``TABLE_COMMANDS``."""

    text: str


@dataclass(frozen=True)
class Clock:
    """Fischer (``increment`` ms added after each move) or correspondence (``per_move`` ms for every move).

    ``remaining[s]`` is seat s's time (ms) when its clock last stopped or started; ``since[s]`` when it started
    running (None: stopped)."""

    increment: int
    per_move: int | None
    remaining: tuple[int, ...]
    since: tuple[int | None, ...]


@dataclass(frozen=True)
class TableState:
    """A game's state with the table around it."""

    game: Any
    seats: int
    open: frozenset[int] = frozenset()
    names: tuple[tuple[int, str], ...] = ()
    """Names of the seats taken after the game was created, (seat, name) in order."""
    accounts: tuple[tuple[int, str], ...] = ()
    """The accounts among them, (seat, username)."""
    ratings: tuple[tuple[int, dict], ...] = ()
    """Their ratings as they sat down, (seat, rating)."""
    left: tuple[int, ...] = ()
    offer: int | None = None
    """The seat whose draw offer stands."""
    moved: frozenset[int] = frozenset()
    ended: dict[str, Any] | None = None
    clock: Clock | None = None
    at: int = 0
    """Commit time (ms) of the last event."""
    rematch: str | None = None
    clock_setting: dict[str, float] | None = None
    events: int = 0
    """Events folded in: the game's version (``MAX_EVENTS``)."""
    offers: tuple[int, ...] = ()
    """Draw offers made, per seat (empty: none yet)."""
    draw_wait: tuple[int, ...] = ()
    """Per seat: moves of the other seat still to come before it may offer a draw again (``OFFER_WAIT``)."""


def check_clock(clock: Any) -> dict[str, float] | None:
    """A clock setting checked: ``{"initial", "increment"}`` or ``{"per_move"}`` in seconds; ``BadSetup`` names
    the field for anything else (zero, negative, over 30 days, unknown keys)."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise BadSetup("clock", Text('must be {{"initial": s, "increment": s}} or {{"per_move": s}}'))
    unknown = set(clock) - {"initial", "increment", "per_move"}
    if unknown:
        raise BadSetup(f"clock.{min(unknown)}", Text("unknown field (known: initial, increment, per_move)"))
    if "per_move" in clock:
        if set(clock) != {"per_move"}:
            raise BadSetup("clock", Text("a correspondence clock has only per_move"))
        return {"per_move": _seconds(clock, "per_move", positive=True)}
    if "initial" not in clock:
        raise BadSetup("clock.initial", Text('is required (or give "per_move" for a correspondence clock)'))
    return {"initial": _seconds(clock, "initial", positive=True),
            "increment": _seconds(clock, "increment", positive=False) if "increment" in clock else 0}


def _seconds(clock: dict, name: str, positive: bool) -> float:
    value = clock[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise BadSetup(f"clock.{name}", Text("must be a number of seconds, not {value}", value=repr(value)))
    if positive and value <= 0:
        raise BadSetup(f"clock.{name}", Text("must be more than 0 seconds, not {value}", value=value))
    if value < 0:
        raise BadSetup(f"clock.{name}", Text("must not be negative, not {value}", value=value))
    if value > MAX_CLOCK_SECONDS:
        raise BadSetup(f"clock.{name}", Text("must be at most 30 days ({max_clock_seconds} seconds), not {value}",
                                             max_clock_seconds=MAX_CLOCK_SECONDS, value=value))
    return value


class TableRules(Protocol):
    """What the services ask of a game's rules: the shape ``Table`` has (``Table(module)``, a game's decider
    with the table around it), each question taking the ``TableState`` it is about. ``services``' ``Game`` holds
    one as ``rules`` and answers the common questions about its own state with it (``game.status``,
    ``game.legal(seat)``, ...)."""

    game: ModuleType
    NAME: str
    SEATS: tuple[int, int]
    EVENTS: tuple[type[Event], ...]

    def evolve(self, state: TableState | None, event: Event, at: int = 0) -> TableState: ...

    def command(self, state: TableState, seat: int, text: str, rng: Any, now: int,
                away: frozenset[int] = frozenset()) -> list[Event]: ...

    def decide(self, state: TableState, seat: int, command: Any, rng: Any, now: int | None = None,
               away: frozenset[int] = frozenset()) -> list[Event]: ...

    def parse(self, text: str) -> Any: ...

    def table_commands(self, state: TableState, seat: int | None,
                       away: frozenset[int] = frozenset()) -> list[str]: ...

    def to_act(self, state: TableState) -> list[int]: ...

    def legal(self, state: TableState, seat: int) -> list[str]: ...

    def status(self, state: TableState) -> str: ...

    def result(self, state: TableState) -> dict[str, Any] | None: ...

    def view(self, state: TableState, viewer: Viewer) -> dict[str, Any]: ...

    def redact(self, event: Event, viewer: Viewer) -> Event: ...

    def sides(self, state: TableState | None) -> tuple[str, ...]: ...

    def describe(self, event: Event) -> Text: ...

    def dump_position(self, state: TableState) -> dict[str, Any]: ...

    def render(self, state: TableState) -> str: ...

    def clock(self, state: TableState, now: int) -> dict[str, Any] | None: ...

    def deadline(self, state: TableState) -> int | None: ...

    def expired(self, state: TableState, now: int) -> list[Event]: ...


class Table:
    """A game's decider with the table around it; the same shape as the game module it wraps."""

    def __init__(self, game: ModuleType):
        self.game = game
        self.NAME = game.NAME
        self.SEATS = game.SEATS
        self.EVENTS = (*game.EVENTS, *TABLE_EVENTS)
        # The fold asks of every event whether it is the table's: a set of types answers in one lookup, where
        # isinstance over a tuple of msgspec classes costs about 90 ns a class (their metaclass's instance check).
        # Table events are final classes (each its own tag), so the exact type is the test.
        self._table_events = frozenset(TABLE_EVENTS)
        self._drawn_sides = getattr(game, "sides", None)  # asked for every line of the feed
        self._fixed_sides = tuple(getattr(game, "SIDES", ()))

    def __getattr__(self, name: str) -> Any:
        # Everything that takes no state (parse, format, initial helpers, constants) is the game's own.
        return getattr(self.game, name)

    # -- the decider ---------------------------------------------------------------------------------------

    def evolve(self, state: TableState | None, event: Event, at: int = 0) -> TableState:
        """The next state; ``at`` is the event's commit time in ms (clocks only)."""
        if state is None:
            return TableState(game=self.game.evolve(None, event), seats=event.seats, at=at, events=1)
        if type(event) in self._table_events:
            return self._evolve_table(state, event, at)
        game = self.game.evolve(state.game, event)
        if state.clock is None and state.offer is None and len(state.moved) == state.seats and not any(
                state.draw_wait):
            # Most events of a replay: no clock to run, no offer a move withdraws or waits for, every seat has
            # moved, so who moved changes nothing below: one copy of the state, with the game's next state
            # (``_with`` written out: this line runs for nearly every event of every fold).
            copy = _new_state(TableState)
            fields = copy.__dict__
            fields.update(state.__dict__)
            fields["game"], fields["at"], fields["events"] = game, at, state.events + 1
            return copy
        acting, running = set(self.to_act(state)), set(self._running(state))
        after = _with(state, game=game, events=state.events + 1)
        movers = acting - set(self.to_act(after))  # seats whose turn (or part of a simultaneous phase) is done
        if self.game.status(after.game) == "finished":  # the end takes every turn away: only its mover moved
            movers = {seat for seat in movers if getattr(event, "seat", None) == seat}
        offer = None if state.offer is not None and movers - {state.offer} else state.offer
        wait = tuple(max(0, w - ((1 - s) in movers)) for s, w in enumerate(state.draw_wait))
        return self._tick(after, running, at, movers, moved=state.moved | movers, offer=offer, draw_wait=wait)

    def _evolve_table(self, state: TableState, event: Event, at: int) -> TableState:
        before = set(self._running(state))
        state = _with(state, events=state.events + 1)
        match event:
            case TableSet(open=open_seats, clock=clock):
                state = replace(state, open=frozenset(open_seats), clock=_new_clock(clock, state.seats),
                                clock_setting=clock)
            case Rematched(gid=gid):
                return replace(state, rematch=gid, at=at)
            case SeatTaken(seat=seat, name=name, account=account, rating=rating):
                state = replace(state, open=state.open - {seat}, names=(*state.names, (seat, name)),
                                accounts=(*state.accounts, (seat, account)) if account else state.accounts,
                                ratings=(*state.ratings, (seat, rating)) if rating else state.ratings)
            case Resigned(seat=seat):
                state = self._leave(state, seat, Text("{seat} resigns.", seat=Seat(seat)), "resigned")
            case TimedOut(seat=seat):
                state = self._leave(state, seat, Text("{seat} ran out of time.", seat=Seat(seat)), "timeout")
            case DrawOffered(seat=seat):
                offers = list(state.offers or (0,) * state.seats)
                wait = list(state.draw_wait or (0,) * state.seats)
                offers[seat], wait[seat] = offers[seat] + 1, OFFER_WAIT
                state = replace(state, offer=seat, offers=tuple(offers), draw_wait=tuple(wait))
            case DrawDeclined():
                state = replace(state, offer=None)
            case DrawAgreed(seat=seat):
                state = replace(state, offer=None, ended={
                    "winners": [], "reason": Text("{offer} and {seat} agree a draw.", seat=Seat(seat), offer=Seat(
                        state.offer if state.offer is not None else 1 - seat)),
                    "termination": "draw_agreed"})
            case Aborted(seat=seat):
                state = replace(state, offer=None, ended={
                    "winners": [], "reason": Text("{seat} aborts the game: no result.", seat=Seat(seat)),
                    "termination": "aborted"})
            case FirstMoveMissed(seat=seat):
                state = replace(state, offer=None, ended={
                    "winners": [], "reason": Text("{seat} did not make a first move in time: the game is aborted.",
                                                  seat=Seat(seat)),
                    "termination": "aborted"})
            case GameTooLong() if not self._over(state):
                state = replace(state, offer=None, ended={
                    "winners": [], "reason": Text("The game reached its length limit: a draw."),
                    "termination": "max_plies"})
            case AbandonmentClaimed(seat=seat, draw=draw):
                gone = Seat(1 - seat)
                said = (Text("{gone} left the game. {seat} claims a draw.", gone=gone, seat=Seat(seat)) if draw
                        else Text("{gone} left the game. {seat} wins.", gone=gone, seat=Seat(seat)))
                state = replace(state, offer=None, ended={
                    "winners": [] if draw else [seat], "reason": said,
                    "termination": "abandoned"})
        return self._tick(state, before, at, set())

    def _leave(self, state: TableState, seat: int, why: Text, termination: str) -> TableState:
        staying = [s for s in range(state.seats) if s != seat and s not in state.left]
        if len(staying) <= 1:
            winners = staying
            reason = Text("{why} {seat} wins.", why=why, seat=Seat(winners[0])) if winners else why
            return replace(state, offer=None, ended={"winners": winners, "reason": reason,
                                                     "termination": termination})
        leave = getattr(self.game, "leave", None)
        if leave is None:
            raise IllegalMove(Text("{name} has no way for a seat to leave", name=self.NAME))
        return replace(state, game=leave(state.game, seat), left=(*state.left, seat), offer=None)

    def command(self, state: TableState, seat: int, text: str, rng: Any, now: int,
                away: frozenset[int] = frozenset()) -> list[Event]:
        """The one question the write path asks: the events of ``seat``'s command ``text`` (a table command or a
        move in the game's notation) at ``now`` (ms), or a refusal: ``OutOfTurn`` (not its turn, the game over),
        ``BadNotation`` (not a command), ``IllegalMove`` (forbidden now, or changing nothing). ``away``: as for
        ``decide``. The clock is the caller's first step (``expired``): a command is judged on a game whose time
        has not run out."""
        if is_table_command(text):
            if self.status(state) == "finished":
                raise OutOfTurn(Text("the game is over"))
            return self.decide(state, seat, TableCommand(" ".join(text.split())), None, away=away)
        if seat not in self.to_act(state):
            if self.status(state) == "finished":
                raise OutOfTurn(Text("the game is over"))
            raise OutOfTurn(Text("it is not seat {seat}'s turn", seat=seat))
        events = self.decide(state, seat, self.game.parse(text), rng, now=now)
        if not events:
            raise IllegalMove(Text("{move} changes nothing", move=repr(text)))
        return events

    def decide(self, state: TableState, seat: int, command: Any, rng: Any, now: int | None = None,
               away: frozenset[int] = frozenset()) -> list[Event]:
        """The events of a command (a table command or the game's own); ``now`` (ms) checks the mover's clock;
        ``away``: the seats whose player has been away long enough on their turn to be claimed against (the
        service knows who is connected; the domain knows when a claim is allowed)."""
        if isinstance(command, TableCommand):
            return self._bounded(state, self._decide_table(state, seat, command.text, away))
        if state.ended is not None or self.game.status(state.game) == "finished":
            raise IllegalMove(Text("The game is over."))
        if state.open:
            raise IllegalMove(Text("The game starts when every seat is taken."))
        if seat in state.left:
            raise IllegalMove(Text("You have left this game."))
        if now is not None and seat in self._running(state) and self._deadline_of(state, seat) <= now:
            raise IllegalMove(Text("Your time has run out."))
        return self._bounded(state, self.game.decide(state.game, seat, command, rng))

    @staticmethod
    def _bounded(state: TableState, events: list[Event]) -> list[Event]:
        """``events``, and the end of the game (``GameTooLong``) when they bring it to ``MAX_EVENTS`` events (if
        they end it themselves, that end stands: ``GameTooLong`` changes nothing then)."""
        if state.events + len(events) >= MAX_EVENTS and events:
            return [*events, GameTooLong(limit=MAX_EVENTS)]
        return events

    def _decide_table(self, state: TableState, seat: int, text: str, away: frozenset[int] = frozenset()
                      ) -> list[Event]:
        allowed = self.table_commands(state, seat, away)
        if text not in allowed:
            raise IllegalMove(self._why_not(state, seat, text))
        if text in CLAIMS:
            return [AbandonmentClaimed(seat=seat, draw=text == "claim draw")]
        return [{"resign": Resigned, "offer draw": DrawOffered, "accept draw": DrawAgreed,
                 "decline draw": DrawDeclined, "abort": Aborted}[text](seat=seat)]

    def claimable(self, state: TableState, seat: int | None, away: frozenset[int]) -> bool:
        """Whether ``seat`` may claim the game of its opponent: a clocked two-seat game under way, the opponent
        to act and away (``away``, from the service)."""
        if seat is None or seat == REVEAL_ALL or state.seats != 2 or state.clock is None or self._over(state):
            return False
        return 1 - seat in away and 1 - seat in self.to_act(state) and seat not in self.to_act(state)

    def _why_not(self, state: TableState, seat: int, text: str) -> str:
        if self._over(state):
            return Text("The game is over.")
        if seat in state.left:
            return Text("You have left this game.")
        if text == "abort":
            return Text("A game can be aborted only before every seat has moved.")
        if text in CLAIMS:
            return (Text("A game can be claimed only in a two-seat game with a clock, when the opponent has been "
                         "away for a minute on their turn."))
        if text == "resign":
            return Text("The game has not started: a seat is still open (abort it instead).")
        if state.seats != 2:
            return Text("Draws are offered only in two-seat games.")
        if state.open:
            return Text("The game has not started: a seat is still open.")
        if text == "offer draw":
            if state.offer is not None:
                return "Your draw offer stands already." if state.offer == seat else "A draw offer stands already."
            if _at(state.offers, seat) >= MAX_DRAW_OFFERS:
                return Text("You have offered a draw {n} times in this game: no more offers.", n=MAX_DRAW_OFFERS)
            return Text.plural("You offered a draw lately: you may offer again once {seat} has moved once more.",
                               "You offered a draw lately: you may offer again once {seat} has moved {n} more "
                               "times.", n=_at(state.draw_wait, seat), seat=Seat(1 - seat))
        return "There is no draw offer to answer." if state.offer is None else "You cannot answer your own offer."

    def table_commands(self, state: TableState, seat: int | None, away: frozenset[int] = frozenset()) -> list[str]:
        """The table commands ``seat`` may send now (none for a spectator or a finished game); the claims when its
        opponent is among the seats ``away`` (``claimable``)."""
        if seat is None or seat == REVEAL_ALL or self._over(state) or seat in state.left:
            return []
        commands = []
        if not state.open:
            commands.append("resign")
            if state.seats == 2:
                if state.offer is None:
                    if _at(state.offers, seat) < MAX_DRAW_OFFERS and not _at(state.draw_wait, seat):
                        commands.append("offer draw")
                elif state.offer != seat:
                    commands += ["accept draw", "decline draw"]
        if len(state.moved) < state.seats:
            commands.append("abort")
        if self.claimable(state, seat, away):
            commands += list(CLAIMS)
        return commands

    def parse(self, text: str) -> Any:
        """A table command, or the game's notation."""
        if is_table_command(text):
            return TableCommand(" ".join(text.split()))
        return self.game.parse(text)

    def format(self, command: Any) -> str:
        return command.text if isinstance(command, TableCommand) else self.game.format(command)

    def to_act(self, state: TableState) -> list[int]:
        if state.ended is not None or state.open:
            return []
        return [s for s in self.game.to_act(state.game) if s not in state.left]

    def legal(self, state: TableState, seat: int) -> list[str]:
        return self.game.legal(state.game, seat) if seat in self.to_act(state) else []

    def status(self, state: TableState) -> str:
        if state.ended is not None:
            return "finished"
        if state.open:
            return "setup"
        return self.game.status(state.game)

    def result(self, state: TableState) -> dict[str, Any] | None:
        if state.ended is not None:
            return dict(state.ended)
        result = self.game.result(state.game)
        if result is None:
            return None
        result = {**result, "winners": [w for w in result["winners"] if w not in state.left]}
        result.setdefault("termination", "rules")
        return result

    def view(self, state: TableState, viewer: Viewer) -> dict[str, Any]:
        return self.game.view(state.game, viewer)

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return event if type(event) in self._table_events else self.game.redact(event, viewer)

    def sides(self, state: TableState | None) -> tuple[str, ...]:
        """Each seat's side as the move list's lines open with it: the game's ``sides(state)`` where they are
        drawn per game (Mouse Guard's colours), else its fixed ``SIDES`` (Murus), else none."""
        if state is not None and self._drawn_sides is not None:
            return tuple(self._drawn_sides(state.game))
        return self._fixed_sides

    def describe(self, event: Event) -> Text:
        """One line for the feed: a table event's, else the game's own (players as seats: the service names
        them)."""
        if type(event) in self._table_events:  # one set lookup: most events are the game's, no case to try
            match event:
                case TableSet(open=open_seats, clock=clock):
                    # Not the open seats' players: they have none yet. Not "for anyone" either: a rematch keeps its
                    # seats for their players.
                    if open_seats and clock:
                        return Text.plural("Waiting for {n} more player. Clock: {clock}.",
                                           "Waiting for {n} more players. Clock: {clock}.", n=len(open_seats),
                                           clock=describe_clock(clock))
                    if open_seats:
                        return Text.plural("Waiting for {n} more player.", "Waiting for {n} more players.",
                                           n=len(open_seats))
                    if clock:
                        return Text("Clock: {clock}.", clock=describe_clock(clock))
                    return Text("The table is set.")
                case SeatTaken(name=name):
                    return Text("{name} joins the game.", name=name)
                case Resigned(seat=seat):
                    return Text("{seat} resigns.", seat=Seat(seat))
                case TimedOut(seat=seat):
                    return Text("{seat} ran out of time.", seat=Seat(seat))
                case DrawOffered(seat=seat):
                    return Text("{seat} offers a draw.", seat=Seat(seat))
                case DrawDeclined(seat=seat):
                    return Text("{seat} declines the draw.", seat=Seat(seat))
                case DrawAgreed(seat=seat):
                    return Text("{seat} accepts the draw.", seat=Seat(seat))
                case Aborted(seat=seat):
                    return Text("{seat} aborts the game.", seat=Seat(seat))
                case FirstMoveMissed(seat=seat):
                    return Text("{seat} did not make a first move in time.", seat=Seat(seat))
                case AbandonmentClaimed(seat=seat, draw=draw):
                    if draw:
                        return Text("{seat} claims a draw: the other player left.", seat=Seat(seat))
                    return Text("{seat} claims the win: the other player left.", seat=Seat(seat))
                case Rematched(gid=gid):
                    return Text("A rematch: game {gid}.", gid=gid)
                case GameTooLong():
                    return Text("The game reached its length limit: a draw.")
        return self.game.describe(event)

    def dump_position(self, state: TableState) -> dict[str, Any]:
        return self.game.dump_position(state.game)

    def render(self, state: TableState) -> str:
        text = self.game.render(state.game)
        return f"{text}\n{state.ended['reason']}" if state.ended else text

    # -- clocks --------------------------------------------------------------------------------------------

    def clock(self, state: TableState, now: int) -> dict[str, Any] | None:
        """``{"remaining": [ms per seat], "running": [seats], "first_move_by": ms | None}`` at ``now`` (ms), or
        None without a clock: the clocks running are those of the seats to act that have made their first move;
        ``first_move_by`` is when the seat to make its first move must have made it."""
        clock = state.clock
        if clock is None:
            return None
        ticking = [since is not None and s in state.moved for s, since in enumerate(clock.since)]
        remaining = [max(0, left - (now - since)) if runs else left
                     for left, since, runs in zip(clock.remaining, clock.since, ticking, strict=True)]
        first = [self._deadline_of(state, s) for s, since in enumerate(clock.since)
                 if since is not None and s not in state.moved]
        return {"remaining": remaining, "running": [s for s, runs in enumerate(ticking) if runs],
                "first_move_by": min(first) if first else None}

    def deadline(self, state: TableState) -> int | None:
        """When (ms) the first running clock runs out, or None."""
        running = self._running(state)
        if state.clock is None or not running:
            return None
        return min(self._deadline_of(state, s) for s in running)

    def expired(self, state: TableState, now: int) -> list[Event]:
        """The ``timed_out`` event of the seat whose time has run out at ``now`` — ``first_move_missed`` if that
        was its time for a first move — if any."""
        deadline = self.deadline(state)
        if deadline is None or deadline > now:
            return []
        seat = min(self._running(state), key=lambda s: (self._deadline_of(state, s), s))
        return [TimedOut(seat=seat) if seat in state.moved else FirstMoveMissed(seat=seat)]

    def _deadline_of(self, state: TableState, seat: int) -> int:
        """When ``seat``'s time to act runs out: its clock's time once it has moved, else its first move's."""
        clock = state.clock
        assert clock is not None and clock.since[seat] is not None
        if seat not in state.moved:
            return clock.since[seat] + (clock.per_move if clock.per_move is not None else FIRST_MOVE_MS)
        return clock.since[seat] + clock.remaining[seat]

    def _over(self, state: TableState) -> bool:
        return state.ended is not None or self.game.status(state.game) == "finished"

    def _running(self, state: TableState) -> list[int]:
        """Seats whose time runs: those to act, once every seat is taken (their clock, or their first move's
        time)."""
        if state.clock is None:
            return []
        return self.to_act(state)

    def _tick(self, state: TableState, before: set[int], at: int, movers: set[int], **changes: Any) -> TableState:
        """``state`` at ``at`` with its clocks run (and ``changes``, which no clock depends on: one copy, not
        two; a fold copies the state at every event)."""
        clock = state.clock
        if clock is None:
            return replace(state, at=at, **changes)
        now_running = set(self._running(state))
        remaining, since = list(clock.remaining), list(clock.since)
        for seat in range(state.seats):
            if seat in before and seat not in now_running and since[seat] is not None:
                if clock.per_move is not None:
                    remaining[seat] = clock.per_move
                elif seat not in state.moved:
                    pass  # its first move (or the game's end before it): its clock never ran
                else:
                    remaining[seat] = max(0, remaining[seat] - (at - since[seat]))
                    if seat in movers and not self._over(state):
                        remaining[seat] += clock.increment
                since[seat] = None
            elif seat in now_running and since[seat] is None:
                since[seat] = at
                if clock.per_move is not None:
                    remaining[seat] = clock.per_move
        return replace(state, at=at, clock=replace(clock, remaining=tuple(remaining), since=tuple(since)),
                       **changes)


def _at(counts: tuple[int, ...], seat: int) -> int:
    """A seat's count in a per-seat tuple that starts empty (nothing counted yet)."""
    return counts[seat] if seat < len(counts) else 0


_new_state = object.__new__


def _with(state: TableState, **changes: Any) -> TableState:
    """``replace(state, **changes)`` for the fold's hot path, without ``dataclasses.replace``'s per-field work
    (the fold copies the state at every event): the same fields, ``changes`` over them."""
    copy = _new_state(TableState)
    fields = copy.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return copy


def _new_clock(clock: dict[str, float] | None, seats: int) -> Clock | None:
    if not clock:
        return None
    if "per_move" in clock:
        per_move = round(clock["per_move"] * 1000)
        return Clock(0, per_move, (per_move,) * seats, (None,) * seats)
    return Clock(round(clock.get("increment", 0) * 1000), None, (round(clock["initial"] * 1000),) * seats,
                 (None,) * seats)


def describe_clock(clock: dict[str, float]) -> Text:
    """"5 min + 3 s" or "1 day per move"."""
    if "per_move" in clock:
        return Text("{span} per move", span=_span(clock["per_move"]))
    return Text("{initial} + {increment}", initial=_span(clock["initial"]),
                increment=_span(clock.get("increment", 0)))


def _span(seconds: float) -> Text:
    if seconds >= 86400 and seconds % 86400 == 0:
        return Text.plural("{n} day", "{n} days", n=int(seconds // 86400))
    if seconds >= 3600 and seconds % 3600 == 0:
        return Text("{n} h", n=int(seconds // 3600))
    if seconds >= 60 and seconds % 60 == 0:
        return Text("{n} min", n=int(seconds // 60))
    return Text("{n} s", n=seconds)




@functools.cache
def table_of(name: str) -> Table:
    """The game ``name``'s decider with the table around it."""
    return Table(game_module(name))
