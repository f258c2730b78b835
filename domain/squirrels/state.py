"""The state of a Foraging Squirrels game and ``evolve``, which folds one event into it."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.base import MAX_PLIES, RULES, BadEvent, BadSetup, Event, outcome
from domain.squirrels import board
from domain.squirrels.board import CELL_INDEX, CELLS, SQUIRREL, Card, Grid
from domain.squirrels.catalog import CATALOG
from domain.squirrels.events import (
    BoostersOpened,
    CardsDealt,
    Dug,
    FirstPlayerChosen,
    GameCreated,
    GameEnded,
    Moved,
    TurnPassed,
)
from domain.squirrels.position import load_position, opened


class State(msgspec.Struct, frozen=True):
    """Everything about a game at one version; built only by ``evolve``."""

    seats: int
    options: dict[str, Any]
    cards: dict[int, Card] = {}
    grid: Grid = (None,) * 25
    piles: tuple[tuple[int, ...], ...] = ()
    set_aside: tuple[int, ...] = ()
    dug: tuple[bool, ...] = ()
    first: int | None = None
    turn: int | None = None
    opened: bool = False
    """The first player's first turn is over (FS-7)."""
    plies: int = 0
    squirrel_art: dict[str, Any] | None = None
    phase: str = "setup"
    result: dict[str, Any] | None = None
    left: tuple[int, ...] = ()
    """Seats that left the table (resigned or out of time, three or more seats): no more turns, cannot win."""


def _created(event: GameCreated) -> State:
    seats = event.seats
    if not CATALOG.seats[0] <= seats <= CATALOG.seats[1]:
        raise BadEvent(f"game_created: Foraging Squirrels has {CATALOG.seat_range()} seats, not {seats}")
    state = State(seats=seats, options=event.options, piles=((),) * seats, dug=(False,) * seats)
    if event.position is None:
        return state
    fields = load_position(event.position, seats)
    if "grid" not in fields:
        return replace(state, dug=fields["dug"], turn=fields["turn"])
    return replace(state, phase="playing", **fields)


def _check_seat(state: State, seat: int, event: str) -> None:
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise BadEvent(f"{event} names no seat of the game: {seat!r}")


def _check_deal(state: State, event: CardsDealt) -> None:
    """FS-2: the 25 cells hold the squirrel once and cards of the opened packs, each once, none set aside."""
    contents = [event.cells.get(cell) for cell in CELLS]
    if set(event.cells) - set(CELLS) or contents.count(SQUIRREL) != 1:
        raise BadEvent("CardsDealt: the grid needs 25 cells a1-e5 and the squirrel on exactly one")
    dealt = [c for c in contents if c is not None and c != SQUIRREL] + list(event.set_aside)
    if len(dealt) != len(set(dealt)) or any(c not in state.cards for c in dealt):
        raise BadEvent("CardsDealt deals a card twice or one that no opened pack holds")


def evolve(state: State | None, event: Event) -> State:
    """The state after ``event``; never mutates ``state``. ``BadEvent`` for an event that is not Foraging
    Squirrels', malformed or out of place."""
    try:
        return _apply(state, event)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, BadSetup) as exc:
        raise BadEvent(f"{type(event).__name__} cannot be applied: {exc}") from None


def _apply(state: State | None, event: Event) -> State:
    if isinstance(event, GameCreated):
        return _created(event)
    if state is None:
        raise BadEvent("the first event of a game is game_created")
    match event:
        case BoostersOpened(packs=packs):
            cards = {r["id"]: Card(r["name"], r["rarity"], r["colors"], r["foil"], r["squirrel"], r["land"],
                                   r["number"]) for pack in packs for r in pack if r["slot"] != "art"}
            return replace(state, cards=cards)
        case CardsDealt():
            _check_deal(state, event)
            grid = tuple(event.cells.get(cell) for cell in CELLS)
            return replace(state, grid=grid, set_aside=tuple(event.set_aside), squirrel_art=event.squirrel_art)
        case FirstPlayerChosen(seat=seat):
            _check_seat(state, seat, "FirstPlayerChosen")
            turn = state.turn if state.turn is not None else seat
            return replace(state, first=seat, turn=turn, opened=opened(state.piles, seat, turn), phase="playing")
        case Dug(seat=seat, card=card, frm=frm, to=to):
            _check_seat(state, seat, "Dug")
            if state.grid[CELL_INDEX[frm]] != card or state.grid[CELL_INDEX[to]] is not None:
                raise BadEvent(f"Dug: card {card} is not on {frm}, or {to} is not empty")
            dug = tuple(d or s == seat for s, d in enumerate(state.dug))
            return replace(state, grid=board.dig(state.grid, CELL_INDEX[frm], CELL_INDEX[to]), dug=dug)
        case Moved(seat=seat, frm=frm, collected=collected, cells=cells):
            _check_seat(state, seat, "Moved")
            if state.grid[CELL_INDEX[frm]] != SQUIRREL or not cells or \
                    [state.grid[CELL_INDEX[c]] for c in cells] != list(collected) or SQUIRREL in collected:
                raise BadEvent(f"Moved: the squirrel on {frm} does not collect cards {collected} from {cells}")
            piles = tuple(pile + tuple(collected) if s == seat else pile for s, pile in enumerate(state.piles))
            grid = board.move_squirrel(state.grid, [CELL_INDEX[c] for c in cells])
            return replace(state, grid=grid, piles=piles, plies=state.plies + 1,
                           opened=state.opened or seat == state.first)
        case TurnPassed(seat=seat):
            _check_seat(state, seat, "TurnPassed")
            return replace(state, turn=seat)
        case GameEnded(winners=won, reason=reason, termination=termination):
            for seat in won:
                _check_seat(state, seat, "GameEnded")
            # Before ``termination`` was recorded: a game that ends with food left in the squirrel's lines was
            # stopped by max_plies (FS-8 ends it only when no line has food).
            termination = termination or (MAX_PLIES if board.line_has_food(state.grid) else RULES)
            return replace(state, phase="finished", result=outcome(won, reason, termination))
    raise BadEvent(f"not a Foraging Squirrels event: {event!r}")
