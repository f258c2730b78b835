"""The state of a Murus game and ``evolve``, which folds one event into it (docs/rules.md §1)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from domain.base import MAX_PLIES, RULES, BadEvent, BadSetup, Event, outcome
from domain.murus.board import CELLS, FULL, Position
from domain.murus.events import Captured, GameCreated, GameEnded, Moved
from domain.murus.notation import CELL_NAMES
from domain.murus.position import STONE_LETTERS, load_position


@dataclass(frozen=True)
class State:
    """A game: options, the bitboard position (side to move inside), plies played, last move, result."""

    seats: int
    options: dict[str, Any]
    pos: Position
    ply: int = 0
    last_move: str | None = None
    last_cells: tuple[str, ...] = ()
    result: dict[str, Any] | None = None

    @property
    def advanced(self) -> bool:
        return self.options["variant"] == "advanced"

    @property
    def side(self) -> int:
        """The side (= seat) to move."""
        return self.pos[6]


MurusState = State
"""The name this state type had before every game's state was called ``State``."""


def evolve(state: State | None, event: Event) -> State:
    """The state after ``event``; ``BadEvent`` for an event that is not Murus', malformed or out of place."""
    if isinstance(event, GameCreated):
        if event.seats != 2:
            raise BadEvent(f"game_created: Murus Gallicus has 2 seats, not {event.seats}")
        try:
            advanced = event.options["variant"] == "advanced"
            pos = load_position(event.position, advanced)
            return State(seats=event.seats, options=dict(event.options), pos=pos)
        except (KeyError, TypeError, BadSetup) as exc:
            raise BadEvent(f"game_created is malformed: {exc}") from None
    if state is None:
        raise BadEvent("the first event of a game is game_created")
    if isinstance(event, Moved):
        if event.seat != state.pos[6] or state.result is not None:
            raise BadEvent(f"moved: seat {event.seat} cannot move now (side to move: {state.pos[6]}, "
                           f"{'over' if state.result else 'playing'})")
        # Each changed cell is cleared on all six planes and its new stack set, from per-cell masks; the new
        # position has the other side to move, so its planes come first. No dictionaries are built.
        m1, m2, m3, t1, t2, t3, side = state.pos
        changes = _CELL_CHANGES[side]
        clear = stones = 0
        try:
            for change in event.cells.items():
                masks = changes.get(change)
                if masks is None:
                    raise BadEvent(f"moved gives {change[0]!r} the stack {change[1]!r}: no such cell or stack")
                clear |= masks[0]
                stones |= masks[1]
        except (AttributeError, TypeError) as exc:
            raise BadEvent(f"moved is malformed: {exc}") from None
        keep = ~clear
        pos = ((t1 & keep) | (stones >> _T1 & FULL), (t2 & keep) | (stones >> _T2 & FULL),
               (t3 & keep) | (stones >> _T3 & FULL), (m1 & keep) | (stones & FULL),
               (m2 & keep) | (stones >> _M2 & FULL), (m3 & keep) | (stones >> _M3 & FULL), side ^ 1)
        return _after_move(state, pos, event.move, tuple(event.cells))
    if isinstance(event, GameEnded):
        if any(w not in (0, 1) for w in event.winners):
            raise BadEvent(f"game_ended names a winner who is no seat of the game: {event.winners!r}")
        # Before ``termination`` was recorded, the only Murus game without a winner was a max_plies draw.
        termination = event.termination or (RULES if event.winners else MAX_PLIES)
        return dataclasses.replace(state, result=outcome(event.winners, event.reason, termination))
    if isinstance(event, Captured):
        return state  # already applied by its moved event
    raise BadEvent(f"not a Murus Gallicus event: {event!r}")


_M2, _M3, _T1, _T2, _T3 = (CELLS * plane for plane in range(1, 6))
_CELL_CHANGES = tuple(
    {
        (name, STONE_LETTERS[owner] * height if height else ""): (
            1 << i,
            sum(1 << (i + CELLS * (3 * (owner != mover) + level)) for level in range(height)),
        )
        for i, name in enumerate(CELL_NAMES) for owner in (0, 1) for height in range(4)
    }
    for mover in (0, 1)
)
"""Per side to move, ``(cell name, new stack text)`` of a ``moved`` event → (the cell's bit, its stones on the
six planes packed into one int: plane ``k`` (m1, m2, m3, t1, t2, t3) at bit ``CELLS * k``)."""


def _after_move(state: State, pos: Position, move: str, cells: tuple[str, ...]) -> State:
    """``dataclasses.replace(state, pos=pos, ply=state.ply + 1, last_move=move, last_cells=cells)``, as a copy of
    the instance's fields: the frozen dataclass ``__init__`` (one ``object.__setattr__`` per field) was most of a
    fold step. ``state`` itself is untouched."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields["pos"] = pos
    fields["ply"] = state.ply + 1
    fields["last_move"] = move
    fields["last_cells"] = cells
    return new
