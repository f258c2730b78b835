"""The state of a tic-tac-toe game and ``evolve``."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.base import BadEvent, BadSetup, Event, outcome
from tests.games.tictactoe.events import GameCreated, GameEnded, Marked
from tests.games.tictactoe.notation import CELLS
from tests.games.tictactoe.position import load_position


class State(msgspec.Struct, frozen=True):
    options: dict[str, Any]
    cells: tuple[int | None, ...]  # by index of CELLS: the seat that marked it
    turn: int
    plies: int = 0
    result: dict[str, Any] | None = None


def evolve(state: State | None, event: Event) -> State:
    """The state after ``event``; ``BadEvent`` for anything else than a fitting tic-tac-toe event."""
    if isinstance(event, GameCreated):
        try:
            cells, turn = load_position(event.position)
        except BadSetup as exc:
            raise BadEvent(f"game_created: {exc}") from None
        return State(options=dict(event.options), cells=cells, turn=turn)
    if state is None:
        raise BadEvent("the first event of a game is game_created")
    if isinstance(event, Marked):
        if event.seat != state.turn or event.cell not in CELLS or state.cells[CELLS.index(event.cell)] is not None:
            raise BadEvent(f"seat {event.seat} cannot mark {event.cell!r} now")
        cells = list(state.cells)
        cells[CELLS.index(event.cell)] = event.seat
        return msgspec.structs.replace(state, cells=tuple(cells), turn=1 - state.turn, plies=state.plies + 1)
    if isinstance(event, GameEnded):
        return msgspec.structs.replace(state, result=outcome(event.winners, event.reason, event.termination))
    raise BadEvent(f"not a tic-tac-toe event: {event!r}")
