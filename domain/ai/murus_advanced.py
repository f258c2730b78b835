"""Hard's search for Murus' advanced game (catapults, fire, the delayed breakthrough): iterative deepening with
aspiration windows over the compiled core (``domain/ai/murus_advanced_core.py``: move generation, evaluation and
the alpha-beta), until a deadline of the injected clock.

Positions are ``domain.murus.board``'s, moves the core's codes (``code_of``/``to_move`` convert to the rules'
``(kind, frm, to)``). Pure: no clock of its own (``clock`` is passed in), randomness only from the ``rng`` given.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

import numpy as np
from numba.core.errors import NumbaWarning

with warnings.catch_warnings():
    # The core runs without the GIL between its clock readings, which take it (numba's object mode): numba warns
    # that those readings do not run in parallel, as intended.
    warnings.simplefilter("ignore", NumbaWarning)
    from domain.ai import murus_advanced_core as core

from domain.murus.board import Position

WIN, WON = core.WIN, core.WON
"""Scores beyond ±WON are wins or losses in some number of plies (the scale of ``domain.ai.murus``)."""
WEIGHTS = core.WEIGHTS
MAX_PLY = core.MAX_PLY
INTERIOR_EXTENSIONS = 3
"""Intruders answered inside the tree at no cost in depth, at most this many times a line."""
ASPIRATION = 60


def code_of(move: tuple[int, int, int]) -> int:
    """The core's code of a rules' move ``(kind, frm, to)``."""
    kind, frm, to = move
    return core.KIND_BASE * kind + 64 * frm + to


def to_move(code: int) -> tuple[int, int, int]:
    """A core move code as the rules' ``(kind, frm, to)``."""
    return (code >> 12, (code >> 6) & 63, code & 63)


def generate(pos: Position) -> list[int]:
    """Every legal move code of the side to move (the compiled generator)."""
    buffer = np.zeros(core.MOVE_ROOM, dtype=np.int64)
    return [int(code) for code in buffer[:core.generate(*pos, buffer)]]


def play(pos: Position, code: int) -> Position:
    """The position after the move ``code`` (the compiled ``play``)."""
    return (*(int(plane) for plane in core.play(*pos[:6], code)), pos[6] ^ 1)  # type: ignore[return-value]


def perft(pos: Position, depth: int) -> int:
    """Number of move sequences of ``depth`` plies (the compiled ``perft``: the rules' count)."""
    return int(core.perft(*pos, depth, np.zeros((depth + 1, core.MOVE_ROOM), dtype=np.int64)))


class Search:
    """One decision of ``hard`` in the advanced game: iterative deepening until ``deadline`` of ``clock`` (the
    core reads it every 2,048 nodes). The switches turn a technique off (the tests compare the search with and
    without each); ``weights``: the evaluation's (``core.FEATURES`` then the side to move's bonus)."""

    def __init__(self, clock: Callable[[], float], deadline: float, *, null_move: bool = True,
                 futility: bool = True, reductions: bool = True, table: bool = True, aspiration: bool = True,
                 interior: bool = True, weights: tuple[int, ...] | None = None):
        self.clock, self.deadline = clock, deadline
        self.weights = weights or WEIGHTS
        self.aspiration = ASPIRATION if aspiration else 0
        self.core = core.Core(self.weights, null_move=null_move, futility=futility, reductions=reductions,
                              table_on=table, interior=INTERIOR_EXTENSIONS if interior else 0)
        self.checked = clock()
        """The clock's last reading (the core stops when two more intervals like the last would be late)."""
        self.depth_reached = 0
        self.score = 0
        """The root's score for the side to move (centi-stones; beyond ±WON a proven result), last iteration."""
        self.partial: int | None = None

    @property
    def nodes(self) -> int:
        return int(self.core.state[core.NODES])

    def evaluate(self, pos: Position) -> int:
        """The compiled evaluation, for the side to move."""
        return int(core.evaluate(*pos, self.core.weights))

    def best_move(self, pos: Position, rng: random.Random, max_depth: int = MAX_PLY) -> int:
        """The best move code found before the deadline or at ``max_depth`` (ties at the root broken by ``rng``).
        ``pos`` must have a legal move and not be over."""
        max_depth = min(max_depth, MAX_PLY)
        moves = generate(pos)
        rng.shuffle(moves)
        for code in moves:  # a move that stalemates the opponent wins now
            child = play(pos, code)
            if not core.generate(*child, np.zeros(core.MOVE_ROOM, dtype=np.int64)) \
                    and not child[0] & core.GOAL[child[6]]:
                self.score = WIN - 1
                return code
        best = moves[0]
        score = 0
        state = self.core.state
        for depth in range(1, max_depth + 1):
            if depth >= 4 and self.aspiration and abs(score) < WON:
                low, high = score - self.aspiration, score + self.aspiration
                score, code = self._root(pos, moves, depth, low, high)
                if not state[core.OUT] and (score <= low or score >= high):
                    score, code = self._root(pos, moves, depth, -WIN - 1, WIN + 1)
            else:
                score, code = self._root(pos, moves, depth, -WIN - 1, WIN + 1)
            if state[core.OUT]:  # the budget is spent: the last complete answer stands
                if self.partial is not None:
                    best = self.partial
                break
            best, self.depth_reached, self.score = code, depth, score
            moves.remove(code)
            moves.insert(0, code)
            if abs(score) > WON:
                break
        return best

    def _root(self, pos: Position, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        score, code = self.core.root(self, pos, np.array(moves, dtype=np.int64), depth, alpha, beta)
        partial = int(self.core.state[core.PARTIAL])
        self.partial = None if partial < 0 else partial
        return int(score), int(code)

    def node(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        """One node's search (at ply 1, no extension yet, no previous move)."""
        return int(self.core.search(self, pos, depth, alpha, beta))

    def stored_depth(self, pos: Position) -> int | None:
        """The depth the table holds ``pos`` at, or None."""
        return self.core.stored_depth(pos)


with warnings.catch_warnings():
    warnings.simplefilter("ignore", NumbaWarning)
    core.warm_up(WEIGHTS)
