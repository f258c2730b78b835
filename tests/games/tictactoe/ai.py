"""Tic-tac-toe's AI player (``domain/ai/__init__.py``'s shape), named by its registration: win if it can, else
block the other seat's line, else a random empty cell."""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.games.tictactoe.notation import CELLS
from tests.games.tictactoe.position import MARKS
from tests.games.tictactoe.rules import LINES


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float]) -> str:
    """The cell ``seat`` marks: one completing its own line, else one blocking the other seat's, else any."""
    marks = view["position"]["cells"]
    cells = [marks.get(cell) for cell in CELLS]
    empty = [cell for cell, mark in zip(CELLS, cells, strict=True) if mark is None]
    for mark in (MARKS[seat], MARKS[1 - seat]):
        for line in LINES:
            row = [cells[i] for i in line]
            if row.count(mark) == 2 and None in row:
                return CELLS[line[row.index(None)]]
    return rng.choice(empty)
