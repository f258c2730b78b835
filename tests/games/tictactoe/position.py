"""The position JSON: ``{"turn": 0, "cells": {"b2": "X"}}``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.base import BadSetup
from tests.games.tictactoe.notation import CELLS

if TYPE_CHECKING:
    from tests.games.tictactoe.state import State

MARKS = "XO"


def load_position(data: Any) -> tuple[tuple[int | None, ...], int]:
    """(cells, seat to move) of a position; ``BadSetup`` names a bad field."""
    if data is None:
        return (None,) * 9, 0
    if not isinstance(data, dict) or set(data) - {"turn", "cells"}:
        raise BadSetup("position", 'must be an object with "turn" and "cells"')
    turn = data.get("turn", 0)
    if turn not in (0, 1) or isinstance(turn, bool):
        raise BadSetup("position.turn", f"must be 0 or 1, not {turn!r}")
    cells: list[int | None] = [None] * 9
    marks = data.get("cells", {})
    if not isinstance(marks, dict):
        raise BadSetup("position.cells", "must be an object")
    for cell, mark in marks.items():
        if cell not in CELLS or mark not in MARKS:
            raise BadSetup(f"position.cells.{cell}", f'must be a cell a1-c3 holding "X" or "O", not {mark!r}')
        cells[CELLS.index(cell)] = MARKS.index(mark)
    return tuple(cells), turn


def dump_position(state: State) -> dict[str, Any]:
    marks = zip(CELLS, state.cells, strict=True)
    return {"turn": state.turn, "cells": {cell: MARKS[seat] for cell, seat in marks if seat is not None}}
