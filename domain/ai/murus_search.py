"""Hard's search for the basic Murus game: a compact board and a principal-variation alpha-beta.

The board is four integers and the side to move, ``(m1, m2, t1, t2, side)``: the cells where the side to move has
at least one and two stones, then the same for the other side (in the basic game a stack holds at most two
stones, so ``m1 & ~m2`` are walls and ``m2`` towers). A move is a small integer played from a table
(``MOVES``): a distribution from cell ``f`` to the far cell ``g`` is ``64 f + g``, a sacrifice of the tower on
``f`` against the wall on ``g`` is ``SACRIFICE + 64 f + g``.

The search (``Search.best_move``), for one decision until a deadline of the injected clock:

- iterative deepening with aspiration windows around the last iteration's score, a transposition table (its move
  first), principal-variation search with late-move reductions;
- **null-move pruning**: three or more plies from the leaves, outside the principal variation, when the side to
  move is not threatened and stands at or above beta, it passes a turn at reduced depth first; a pass that still
  holds beta cuts the node (passing is not legal in Murus, and stalemate loses, so never with few moves);
- **futility pruning** one ply from the leaves: quiet moves that make no breakthrough threat are skipped when the
  evaluation is far below alpha;
- move ordering: the table's move (searched before the others are generated: it often cuts the node),
  sacrifices, moves making a breakthrough threat, two killers, a counter-move (the last refutation of the
  opponent's move), history;
- a **threat extension**: a node where the opponent breaks through next turn is searched one ply deeper inside
  the tree (``INTERIOR_EXTENSIONS`` a line) and with every reply at the leaves; and a **threat quiescence** (at a
  quiet leaf the side to move may also make a breakthrough threat);
- an evaluation of counted features (``FEATURES``: material and advancement by distance to the goal row,
  mobility, towers that break through next turn, ...) by one weight vector (``WEIGHTS``; see ``evaluate``).

``Search`` runs this search compiled (``domain/ai/murus_core.py``, numba): about 20 times the nodes a second of
the same search in pure Python, ``PySearch`` in ``tests/oracles/murus_pysearch.py``, the reference the tests hold
the compiled one to (the same nodes, scores and moves at fixed depths).

Pure: no clock of its own (``clock`` is passed in), randomness only from the ``rng`` given.
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
    from domain.ai import murus_core

from domain.murus.board import COLS, FULL, GOAL_ROW, ROW_MASKS, ROWS, STEPS

WIN = 1_000_000
WON = WIN - 1_000
"""Scores beyond ±WON are wins or losses in some number of plies (the same scale as ``domain.ai.murus``)."""
MAX_PLY = 100
INTERIOR_EXTENSIONS = 3

# -- evaluation weights (centi-stones) --------------------------------------------------------------------------
WEIGHTS = (116, 112, 108, 104, 100, 100,
           320, 280, 248, 224, 208, 200,
           10, 0, 160, 0, 0, 0, 0, 10)
"""The evaluation's weights over ``FEATURES`` (then the side to move's bonus): a wall 100 and a tower 200 plus
their advancement (walls 4 a row up to 16 next to the goal; towers 8, 24, 48, 80, 120 from the home row on, most
on the row before the goal), 10 per distribution, 160 per tower that breaks through next turn. Chosen by matches
at 0.1 s of CPU time a move against ``bench/murus_strong.py`` (docs/ai.md): #17's weights (``HAND``) won 38% of
60 games, a logistic fit to self-play outcomes (``bench/murus_fit.py``, ``FITTED``) 37%, these 50% of 50 and with
the threat extension inside the tree (``INTERIOR_EXTENSIONS``) 64% of 50."""
HAND = (114, 110, 107, 104, 102, 100, 300, 340, 300, 270, 245, 230, 5, -400, 120, 0, 0, 0, 0, 10)
"""#17's hand weights: tower advancement highest two rows from the goal, 5 a distribution, 400 for no move."""
FITTED = (-71, -32, -38, -28, -42, -69, 101, 80, 26, -11, -9, -48, 11, -274, 0, 19, 6, 95, -5, 15)
"""``python bench/murus_fit.py --games 600 --time 0.02 --seed 1``: 24,824 calm positions, times 1.25 (the
hand evaluation's scale in log-odds)."""
DOUBLE_THREAT = 500
"""The side to move facing two or more towers that break through next turn (one answer rarely stops both)."""

ASPIRATION = 60

# -- geometry ---------------------------------------------------------------------------------------------------
SACRIFICE = 4096
_HAS2 = {offset: has2 for offset, _, has2 in STEPS}
DIRECTIONS = tuple((offset, has1, has2) for offset, has1, has2 in STEPS)
BY_DISTANCE = (tuple(reversed(ROW_MASKS)), tuple(ROW_MASKS))
"""By side: row masks by distance to that side's goal row (0 = the goal row)."""
THREAT_ROW = tuple(rows[2] for rows in BY_DISTANCE)
"""By side: the row a tower breaks through from (two rows from the goal)."""

MOVES: list[tuple[int, int, bool] | None] = [None] * 8192
"""Move code → (source bit, the two landing bits or the captured wall's bit, whether it is a distribution)."""
for _offset, _has1, _has2 in DIRECTIONS:
    for _frm in range(COLS * ROWS):
        if _has2 >> _frm & 1:
            MOVES[65 * _frm + 2 * _offset] = (1 << _frm, (1 << (_frm + _offset)) | (1 << (_frm + 2 * _offset)),
                                              True)
        if _has1 >> _frm & 1:
            MOVES[SACRIFICE + 65 * _frm + _offset] = (1 << _frm, 1 << (_frm + _offset), False)

Board = tuple[int, int, int, int, int]


def compact(position: tuple) -> Board:
    """The compact board of a basic-game ``domain.murus.board`` position."""
    m1, m2, _, t1, t2, _, side = position
    return (m1, m2, t1, t2, side)


def to_move(code: int) -> tuple[int, int, int]:
    """A move code as the rules' ``(kind, frm, to)``."""
    if code >= SACRIFICE:
        code -= SACRIFICE
        return (1, code >> 6, code & 63)
    return (0, code >> 6, code & 63)


def code_of(move: tuple[int, int, int]) -> int:
    """The rules' ``(kind, frm, to)`` as a move code (``to_move``'s inverse)."""
    kind, frm, to = move
    return (SACRIFICE if kind else 0) + 64 * frm + to


def play(board: Board, code: int) -> Board:
    m1, m2, t1, t2, side = board
    src, cells, distribution = MOVES[code]
    if distribution:
        return (t1, t2, (m1 & ~src) | cells, (m2 & ~src) | (m1 & cells), side ^ 1)
    return (t1 & ~cells, t2, m1, m2 & ~src, side ^ 1)


def generate(board: Board) -> list[int]:
    """Every legal move code of the side to move (MS-4, MS-5)."""
    m1, m2, t1, t2, _ = board
    moves: list[int] = []
    add = moves.append
    landing = FULL & ~(t1 | m2)
    walls = t1 & ~t2
    for offset, has1, has2 in DIRECTIONS:
        if offset > 0:
            can = m2 & has2 & (landing >> offset) & (landing >> 2 * offset)
            cap = m2 & has1 & (walls >> offset)
        else:
            can = m2 & has2 & (landing << -offset) & (landing << -2 * offset)
            cap = m2 & has1 & (walls << -offset)
        while can:
            low = can & -can
            add(65 * (low.bit_length() - 1) + 2 * offset)
            can ^= low
        while cap:
            low = cap & -cap
            add(SACRIFICE + 65 * (low.bit_length() - 1) + offset)
            cap ^= low
    return moves


def breakers(towers: int, landing: int, side: int) -> int:
    """Those of ``side``'s ``towers`` that put a stone on the goal row with one distribution over ``landing``."""
    towers &= THREAT_ROW[side]
    if not towers:
        return 0
    goal = landing & GOAL_ROW[side]
    if side == 0:
        return towers & ((_HAS2[7] & (landing >> 7) & (goal >> 14)) | (_HAS2[8] & (landing >> 8) & (goal >> 16))
                         | (_HAS2[9] & (landing >> 9) & (goal >> 18)))
    return towers & ((_HAS2[-7] & (landing << 7) & (goal << 14)) | (_HAS2[-8] & (landing << 8) & (goal << 16))
                     | (_HAS2[-9] & (landing << 9) & (goal << 18)))


def winning_move(board: Board, moves: list[int]) -> int | None:
    """The first of ``moves`` that reaches the goal row at once (a breakthrough), or None: a search plays it
    without searching."""
    m1, m2, t1, _, side = board
    if breakers(m2, FULL & ~(t1 | m2), side):
        for code in moves:
            if play(board, code)[2] & GOAL_ROW[side]:
                return code
    return None


FEATURES = tuple([f"walls at {d}" for d in range(1, 7)] + [f"towers at {d}" for d in range(1, 7)]
                 + ["mobility", "stuck", "breakers", "raisable", "open cells", "open raisable", "sacrifices"])
"""What ``side_features`` counts for one side (``at d``: at distance ``d`` from its goal row)."""


def tower_reach(towers: int, landing: int, enemy_walls: int) -> tuple[int, int, int]:
    """Where ``towers`` can build walls in one move (the two cells a tower spreads over, both free to land on), how
    many such moves there are, and how many (tower, enemy wall) pairs a sacrifice could remove."""
    reach = moves = sacrifices = 0
    for offset, has1, has2 in DIRECTIONS:
        if offset > 0:
            can = towers & has2 & (landing >> offset) & (landing >> 2 * offset)
            reach |= (can << offset) | (can << 2 * offset)
            sacrifices += (towers & has1 & (enemy_walls >> offset)).bit_count()
        else:
            can = towers & has2 & (landing << -offset) & (landing << -2 * offset)
            reach |= (can >> -offset) | (can >> -2 * offset)
            sacrifices += (towers & has1 & (enemy_walls << -offset)).bit_count()
        moves += can.bit_count()
    return reach, moves, sacrifices


def side_features(p1: int, p2: int, e1: int, e2: int, side: int) -> list[int]:
    """One side's counts (``FEATURES``) in a basic position: its stones ``p1`` (towers ``p2``) against the other
    side's stones ``e1`` (towers ``e2``).

    ``breakers``: towers that break through with their next move; ``raisable``: own walls on the threat row that
    an own distribution lands on (making a tower there); ``open cells``: threat-row cells from which a tower would
    break through now (the holes in the other side's defence); ``open raisable``: raisable walls on open cells (a
    breakthrough threat one move away); ``sacrifices``: (tower, enemy wall) pairs a sacrifice could remove."""
    walls = p1 & ~p2
    rows = BY_DISTANCE[side]
    counts = [(walls & rows[d]).bit_count() for d in range(1, 7)]
    counts += [(p2 & rows[d]).bit_count() for d in range(1, 7)]
    landing = FULL & ~(e1 | p2)
    enemy_walls = e1 & ~e2
    reach, moves, sacrifices = tower_reach(p2, landing, enemy_walls)
    raisable = reach & walls & THREAT_ROW[side]
    open_cells = breakers(THREAT_ROW[side], landing, side)
    return counts + [moves, int(moves == 0), breakers(p2, landing, side).bit_count(), raisable.bit_count(),
                     open_cells.bit_count(), (raisable & open_cells).bit_count(), sacrifices]


def features(board: Board) -> list[int]:
    """The side to move's ``side_features`` minus the other side's."""
    m1, m2, t1, t2, side = board
    return [a - b for a, b in zip(side_features(m1, m2, t1, t2, side), side_features(t1, t2, m1, m2, side ^ 1))]


class Search:
    """One decision of ``hard`` in the basic game: the search above run by the compiled core
    (``domain/ai/murus_core.py``), iterative deepening driven from here until ``deadline`` of ``clock`` (the core
    reads the clock every 2,048 nodes). The same switches, ``weights``, ``nodes``, ``depth_reached``, ``score``
    and ``partial`` as the pure-Python reference's (``PySearch`` in ``tests/oracles/murus_pysearch.py``)."""

    def __init__(self, clock: Callable[[], float], deadline: float, *, null_move: bool = True,
                 futility: bool = True, reductions: bool = True, table: bool = True, aspiration: bool = True,
                 interior: bool = True, weights: tuple[int, ...] | None = None):
        """The switches turn a technique off (the tests compare the search with and without each); ``weights``:
        the evaluation's, over ``FEATURES`` then the side to move's bonus (default ``WEIGHTS``)."""
        self.clock, self.deadline = clock, deadline
        self.weights = weights or WEIGHTS
        self.aspiration = ASPIRATION if aspiration else 0
        self.core = murus_core.Core(self.weights, null_move=null_move, futility=futility, reductions=reductions,
                                    table_on=table, interior=INTERIOR_EXTENSIONS if interior else 0)
        self.checked = clock()
        self.depth_reached = 0
        self.score = 0
        """The root's score for the side to move (centi-stones; beyond ±WON a proven result), last iteration."""
        self.partial: int | None = None

    @property
    def nodes(self) -> int:
        return int(self.core.state[murus_core.NODES])

    def evaluate(self, board: Board) -> int:
        """Score of ``board`` for the side to move: the weights of each side's counts (``side_features``) mine
        minus theirs, the side to move's bonus, and ``DOUBLE_THREAT`` off for facing two towers that break through
        at once (``murus_core.evaluate``)."""
        return int(murus_core.evaluate(*board, self.core.weights))

    def best_move(self, board: Board, rng: random.Random, max_depth: int = MAX_PLY) -> int:
        """The best move code found before the deadline or at ``max_depth`` (ties at the root broken by
        ``rng``)."""
        max_depth = min(max_depth, MAX_PLY)  # the core's per-ply rows hold MAX_PLY plies and their extensions
        moves = generate(board)
        rng.shuffle(moves)
        won = winning_move(board, moves)
        if won is not None:
            self.score = WIN - 1
            return won
        best = moves[0]
        score = 0
        state = self.core.state
        for depth in range(1, max_depth + 1):
            if depth >= 4 and self.aspiration and abs(score) < WON:
                low, high = score - self.aspiration, score + self.aspiration
                score, code = self._root(board, moves, depth, low, high)
                if not state[murus_core.OUT] and (score <= low or score >= high):
                    score, code = self._root(board, moves, depth, -WIN - 1, WIN + 1)
            else:
                score, code = self._root(board, moves, depth, -WIN - 1, WIN + 1)
            if state[murus_core.OUT]:  # the budget is spent: the last complete answer stands
                if self.partial is not None:
                    best = self.partial
                break
            best, self.depth_reached, self.score = code, depth, score
            moves.remove(code)
            moves.insert(0, code)
            if abs(score) > WON:
                break
        return best

    def _root(self, board: Board, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        score, code = self.core.root(self, board, np.array(moves, dtype=np.int64), depth, alpha, beta)
        partial = int(self.core.state[murus_core.PARTIAL])
        self.partial = None if partial < 0 else partial
        return int(score), int(code)

    def node(self, board: Board, depth: int, alpha: int, beta: int) -> int:
        """One node's search (the core's ``search`` at ply 1, no extension yet, no previous move)."""
        return int(self.core.search(self, board, depth, alpha, beta, 1, 0, 0))

    def stored_depth(self, board: Board) -> int | None:
        """The depth the table holds ``board`` at, or None."""
        return self.core.stored_depth(board)


with warnings.catch_warnings():
    warnings.simplefilter("ignore", NumbaWarning)
    murus_core.warm_up(WEIGHTS)
