"""What a viewer sees: everything (no hidden information)."""

from __future__ import annotations

from typing import Any

from domain.base import Event, Viewer
from tests.games.tictactoe.events import GameCreated, GameEnded, Marked
from tests.games.tictactoe.notation import CELLS
from tests.games.tictactoe.position import MARKS, dump_position
from tests.games.tictactoe.rules import result, status, to_act
from tests.games.tictactoe.state import State


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    return {"options": dict(state.options), "position": dump_position(state), "to_act": to_act(state),
            "status": status(state), "result": result(state)}


def redact(event: Event, viewer: Viewer) -> Event:
    return event


def describe(event: Event) -> str:
    if isinstance(event, GameCreated):
        return "A game of tic-tac-toe."
    if isinstance(event, Marked):
        return f"{MARKS[event.seat]}: {event.cell}"
    if isinstance(event, GameEnded):
        return event.reason
    return type(event).__name__


def render(state: State) -> str:
    marks = [".XO"[0 if seat is None else seat + 1] for seat in state.cells]
    return "\n".join("".join(marks[CELLS.index(f"{c}{r}")] for c in "abc") for r in "321")
