"""The pure-Python version of hard's basic-game Murus search: the oracle that ``domain/ai/murus_search.py``'s
``Search`` (run by the compiled core, ``domain/ai/murus_core.py``) is held to.

``PySearch`` is the same algorithm as the core, step for step: the same move generation order, ordering keys,
pruning, reductions, extensions and evaluation. ``tests/domain/test_ai_murus_search.py`` compares the two at fixed
depths (the same scores, moves and node counts, with each technique on and off), and ``bench/murus_speed.py``
measures how much faster the compiled one is. The product never runs it.

The board, moves, weights and the search's parameters are the product's (imported from ``murus_search`` and
``murus_core``); what only this search needs is defined here: its clock interval (``TIME_CHECK``), its evaluation
written for Python's integers (``PySearch._plain``, ``PySearch._side``) and its ``OutOfTime`` unwinding.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.ai.murus_core import (
    FUTILITY,
    LMR_AFTER,
    LMR_DEPTH,
    LMR_MORE,
    MAX_EXTENSIONS,
    NULL_DEPTH,
    NULL_REDUCTION,
)
from domain.ai.murus_search import (
    ASPIRATION,
    BY_DISTANCE,
    DOUBLE_THREAT,
    INTERIOR_EXTENSIONS,
    MAX_PLY,
    MOVES,
    SACRIFICE,
    THREAT_ROW,
    WEIGHTS,
    WIN,
    WON,
    Board,
    breakers,
    generate,
    play,
    tower_reach,
    winning_move,
)
from domain.murus.board import FULL, GOAL_ROW, STEPS

TIME_CHECK = 255
"""The clock is read every 256 nodes (the compiled core's ``TIME_CHECK`` is 2,047: it is about 20 times faster)."""
CLOSE_ROWS = tuple(rows[0] | rows[1] | rows[2] for rows in BY_DISTANCE)
"""By side: the threat row and the two beyond it. A move makes a breakthrough threat only by raising a tower on
the threat row (a distribution landing on an own wall there) or by clearing a landing cell: a tower on these rows
leaving or sacrificing."""

_HAS2 = {offset: has2 for offset, _, has2 in STEPS}
_E, _W, _N, _S, _NE, _SW, _NW, _SE = (_HAS2[1], _HAS2[-1], _HAS2[8], _HAS2[-8], _HAS2[9], _HAS2[-9], _HAS2[7],
                                       _HAS2[-7])


def _layers(by_distance: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per side, (row mask, weight) for the weights of distances 1…6 from the goal row."""
    return tuple(tuple((BY_DISTANCE[side][d + 1], w) for d, w in enumerate(by_distance) if w) for side in (0, 1))


def _mobility(towers: int, landing: int) -> int:
    e = landing & (landing >> 1)
    n = landing & (landing >> 8)
    ne = landing & (landing >> 9)
    nw = landing & (landing >> 7)
    return ((towers & _HAS2[1] & (e >> 1)).bit_count() + (towers & _HAS2[-1] & (e << 2)).bit_count()
            + (towers & _HAS2[8] & (n >> 8)).bit_count() + (towers & _HAS2[-8] & (n << 16)).bit_count()
            + (towers & _HAS2[9] & (ne >> 9)).bit_count() + (towers & _HAS2[-9] & (ne << 18)).bit_count()
            + (towers & _HAS2[7] & (nw >> 7)).bit_count() + (towers & _HAS2[-7] & (nw << 14)).bit_count())


class _NoTable(dict):
    """A transposition table that keeps nothing."""

    def __setitem__(self, key, value) -> None:
        pass


class OutOfTime(Exception):
    """The budget is spent: the search unwinds and the last complete answer stands."""


class PySearch:
    """One decision of ``hard`` in the basic game in pure Python: iterative deepening until ``deadline`` of
    ``clock``. The reference for ``murus_search.Search`` (the same algorithm, switches and attributes)."""

    def __init__(self, clock: Callable[[], float], deadline: float, *, null_move: bool = True,
                 futility: bool = True, reductions: bool = True, table: bool = True, aspiration: bool = True,
                 interior: bool = True, weights: tuple[int, ...] | None = None):
        """The switches turn a technique off (the tests compare the search with and without each); ``weights``:
        the evaluation's, over ``murus_search.FEATURES`` then the side to move's bonus (default ``WEIGHTS``)."""
        self.clock, self.deadline = clock, deadline
        self.weights = weights = weights or WEIGHTS
        self.wall_layers, self.tower_layers = _layers(weights[0:6]), _layers(weights[6:12])
        self.bonus = weights[19]
        self.mobility, self.stuck, self.breaking = weights[12:15]
        self.plain = not any(weights[15:19])
        """No threat-row features (``WEIGHTS``): ``_plain`` scores a side."""
        self.row_weights = tuple((self.wall_layers[side], self.tower_layers[side]) for side in (0, 1))
        self.threats = 0
        self.placed: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.raised: tuple[dict[int, int], dict[int, int]] = ({}, {})
        """By side: the score of its walls (by their cells), of its towers (by theirs), as ``_plain`` found it."""
        self.null_move, self.futility, self.reductions = null_move, futility, reductions
        self.aspiration = ASPIRATION if aspiration else 0
        self.interior = INTERIOR_EXTENSIONS if interior else 0
        self.checked = clock()
        self.table: dict[Board, tuple[int, int, int, int]] = {} if table else _NoTable()
        self.evals: dict[Board, int] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2 * MAX_EXTENSIONS + 8)]
        self.history: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.counters: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.sides: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0
        self.depth_reached = 0
        self.score = 0
        """The root's score for the side to move (centi-stones; beyond ±WON a proven result), last iteration."""
        self.partial: int | None = None

    # -- evaluation ----------------------------------------------------------------------------------------------

    def evaluate(self, board: Board) -> int:
        """Score of ``board`` for the side to move: the weights (``self.weights``) of each side's counts
        (``murus_search.side_features``: material and advancement, mobility, breakthroughs) mine minus theirs, the
        side to move's bonus, and a penalty for facing two towers that break through at once."""
        score = self.evals.get(board)
        if score is not None:
            return score
        m1, m2, t1, t2, side = board
        if self.plain:
            score = self._plain(m1, m2, t1, side) - self._plain(t1, t2, m1, side ^ 1) + self.bonus
            if self.threats > 1:
                score -= DOUBLE_THREAT
            self.evals[board] = score
            return score
        mine, _ = self._side(m1, m2, t1, t2, side)
        theirs, threats = self._side(t1, t2, m1, m2, side ^ 1)
        score = mine - theirs + self.bonus
        if threats > 1:
            score -= DOUBLE_THREAT
        self.evals[board] = score
        return score

    def _plain(self, p1: int, p2: int, e1: int, side: int) -> int:
        """``_side`` for weights without the threat-row features (``WEIGHTS``'s): material and advancement by
        row, mobility, breakers (left in ``self.threats``). The same score, written for speed."""
        walls = p1 & ~p2
        known = self.placed[side]
        score = known.get(walls)
        if score is None:
            score = 0
            for mask, weight in self.row_weights[side][0]:
                score += weight * (walls & mask).bit_count()
            known[walls] = score
        known = self.raised[side]
        raised = known.get(p2)
        if raised is None:
            raised = 0
            for mask, weight in self.row_weights[side][1]:
                raised += weight * (p2 & mask).bit_count()
            known[p2] = raised
        score += raised
        landing = FULL & ~(e1 | p2)
        e = landing & (landing >> 1)
        n = landing & (landing >> 8)
        ne = landing & (landing >> 9)
        nw = landing & (landing >> 7)
        moves = ((p2 & _E & (e >> 1)).bit_count() + (p2 & _W & (e << 2)).bit_count()
                 + (p2 & _N & (n >> 8)).bit_count() + (p2 & _S & (n << 16)).bit_count()
                 + (p2 & _NE & (ne >> 9)).bit_count() + (p2 & _SW & (ne << 18)).bit_count()
                 + (p2 & _NW & (nw >> 7)).bit_count() + (p2 & _SE & (nw << 14)).bit_count())
        score += self.mobility * moves if moves else self.stuck
        towers = p2 & THREAT_ROW[side]
        if towers:
            goal = landing & GOAL_ROW[side]
            if side == 0:
                towers &= ((_NW & (landing >> 7) & (goal >> 14)) | (_N & (landing >> 8) & (goal >> 16))
                           | (_NE & (landing >> 9) & (goal >> 18)))
            else:
                towers &= ((_SE & (landing << 7) & (goal << 14)) | (_S & (landing << 8) & (goal << 16))
                           | (_SW & (landing << 9) & (goal << 18)))
            if towers:
                threats = towers.bit_count()
                self.threats = threats
                return score + self.breaking * threats
        self.threats = 0
        return score

    def _side(self, p1: int, p2: int, e1: int, e2: int, side: int) -> tuple[int, int]:
        """``murus_search.side_features`` weighted, unrolled; and the side's breakers (remembered: leaves share
        sides)."""
        key = (p1, p2, e1, e2, side)
        found = self.sides.get(key)
        if found is not None:
            return found
        walls = p1 & ~p2
        score = 0
        for mask, weight in self.wall_layers[side]:
            score += weight * (walls & mask).bit_count()
        for mask, weight in self.tower_layers[side]:
            score += weight * (p2 & mask).bit_count()
        landing = FULL & ~(e1 | p2)
        mobility, stuck, breaking, raising, opening, open_raising, sacrificing = self.weights[12:19]
        threat_row = THREAT_ROW[side]
        if raising or open_raising or sacrificing:
            enemy_walls = e1 & ~e2
            reach, moves, sacrifices = tower_reach(p2, landing, enemy_walls)
            raisable = reach & walls & threat_row
            open_cells = breakers(threat_row, landing, side)
            score += (raising * raisable.bit_count() + opening * open_cells.bit_count()
                      + open_raising * (raisable & open_cells).bit_count() + sacrificing * sacrifices)
        else:
            moves = _mobility(p2, landing)
            if opening:
                score += opening * breakers(threat_row, landing, side).bit_count()
        score += mobility * moves if moves else stuck
        threats = breakers(p2, landing, side).bit_count()
        score += breaking * threats
        found = self.sides[key] = (score, threats)
        return found

    # -- search --------------------------------------------------------------------------------------------------

    def best_move(self, board: Board, rng: random.Random, max_depth: int = MAX_PLY) -> int:
        """The best move code found before the deadline or at ``max_depth`` (ties at the root broken by
        ``rng``)."""
        moves = generate(board)
        rng.shuffle(moves)
        won = winning_move(board, moves)
        if won is not None:
            self.score = WIN - 1
            return won
        best = moves[0]
        score = 0
        try:
            for depth in range(1, max_depth + 1):
                if depth >= 4 and self.aspiration and abs(score) < WON:
                    low, high = score - self.aspiration, score + self.aspiration
                    score, code = self._root(board, moves, depth, low, high)
                    if score <= low or score >= high:
                        score, code = self._root(board, moves, depth, -WIN - 1, WIN + 1)
                else:
                    score, code = self._root(board, moves, depth, -WIN - 1, WIN + 1)
                best, self.depth_reached, self.score = code, depth, score
                moves.remove(code)
                moves.insert(0, code)
                if abs(score) > WON:
                    break
        except OutOfTime:
            if self.partial is not None:
                best = self.partial
        return best

    def _root(self, board: Board, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        best, best_score = moves[0], -WIN - 1
        self.partial = None
        for i, code in enumerate(moves):
            child = play(board, code)
            if i:
                score = -self._search(child, depth - 1, -alpha - 1, -alpha, 1, 0, code)
                if alpha < score < beta:
                    score = -self._search(child, depth - 1, -beta, -alpha, 1, 0, code)
            else:
                score = -self._search(child, depth - 1, -beta, -alpha, 1, 0, code)
            if score > best_score:
                best_score, best = score, code
            if score > alpha:
                alpha = score
                self.partial = code
                if alpha >= beta:
                    break
        return best_score, best

    def _search(self, board: Board, depth: int, alpha: int, beta: int, ply: int, extended: int,
                last: int) -> int:
        self.nodes += 1
        if not self.nodes & TIME_CHECK:
            now = self.clock()
            if 3 * now - 2 * self.checked >= self.deadline:  # two more intervals like the last would be late
                raise OutOfTime
            self.checked = now
        m1, m2, t1, t2, side = board
        if breakers(m2, FULL & ~(t1 | m2), side):
            return WIN - ply - 1  # we break through now
        threatened = breakers(t2, FULL & ~(m1 | t2), side ^ 1)
        if depth <= 0:
            if not threatened or extended >= MAX_EXTENSIONS:
                return self._quiesce(board, alpha, beta, ply, extended)
            depth, extended = 1, extended + 1  # a threat to answer: every reply, one ply more
        elif threatened and extended < self.interior:
            depth, extended = depth + 1, extended + 1  # inside the tree too: a threat costs no depth
        table = self.table
        entry = table.get(board)
        table_move = 0
        if entry is not None:
            entry_depth, stored, flag, table_move = entry
            if entry_depth >= depth:
                score = stored - ply if stored > WON else stored + ply if stored < -WON else stored
                if flag == 0 or (flag > 0 and score >= beta) or (flag < 0 and score <= alpha):
                    return score
        pv = beta - alpha > 1
        static = None
        # Not when beta is a win already: a pass (illegal here) that holds it would claim a win nobody proved.
        if (self.null_move and not pv and not threatened and depth >= NULL_DEPTH and last and m2.bit_count() > 2
                and beta < WON):
            static = self.evaluate(board)
            if static >= beta:
                score = -self._search((t1, t2, m1, m2, side ^ 1), depth - 1 - NULL_REDUCTION, -beta, -beta + 1,
                                      ply + 1, extended, 0)
                if score >= beta:
                    return beta if score > WON else score
        first = None
        if table_move:  # the table's move first, before the others are generated: it often cuts the node
            first = -self._search(play(board, table_move), depth - 1, -beta, -alpha, ply + 1, extended, table_move)
            if first >= beta:
                if table_move < SACRIFICE:
                    killers = self.killers[ply]
                    if table_move != killers[0]:
                        killers[1], killers[0] = killers[0], table_move
                    self.counters[side][last] = table_move
                history = self.history[side]
                history[table_move] = history.get(table_move, 0) + depth * depth
                stored = first + ply if first > WON else first - ply if first < -WON else first
                table[board] = (depth, stored, 1, table_move)
                return first
        moves = generate(board)
        if not moves:
            return -(WIN - ply)  # stalemate: no legal move loses
        prune = False
        if self.futility and depth == 1 and not pv and not threatened:
            if static is None:
                static = self.evaluate(board)
            prune = static + FUTILITY <= alpha
        killers, history = self.killers[ply], self.history[side]
        counter = self.counters[side].get(last, 0)
        near = THREAT_ROW[side] & m1 & ~m2
        close = CLOSE_ROWS[side] & m2
        keys = {}
        for code in moves:
            if code >= SACRIFICE:
                keys[code] = 1 << 42
            else:
                src, cells, _ = MOVES[code]
                if cells & near or src & close:
                    keys[code] = (1 << 41) + history.get(code, 0)  # may make a threat
                elif code == killers[0]:
                    keys[code] = 1 << 40
                elif code == killers[1]:
                    keys[code] = 1 << 39
                elif code == counter:
                    keys[code] = 1 << 38
                else:
                    keys[code] = history.get(code, 0)
        if table_move in keys:
            keys[table_move] = 1 << 50
        moves.sort(key=keys.__getitem__, reverse=True)
        original_alpha, best_score, best_move = alpha, -WIN - 1, moves[0]
        reduce = self.reductions and depth >= LMR_DEPTH
        for i, code in enumerate(moves):
            key = keys[code]
            if prune and i and key < 1 << 38:
                continue
            if i == 0:
                if first is None:
                    score = -self._search(play(board, code), depth - 1, -beta, -alpha, ply + 1, extended, code)
                else:
                    score = first
            else:
                child = play(board, code)
                reduction = 0
                if reduce and i >= LMR_AFTER and key < 1 << 38:
                    reduction = 2 if i >= LMR_MORE and depth >= 5 else 1
                score = -self._search(child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, extended, code)
                if score > alpha and reduction:
                    score = -self._search(child, depth - 1, -alpha - 1, -alpha, ply + 1, extended, code)
                if alpha < score < beta:
                    score = -self._search(child, depth - 1, -beta, -alpha, ply + 1, extended, code)
            if score > best_score:
                best_score, best_move = score, code
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if code < SACRIFICE:
                            if code != killers[0]:
                                killers[1], killers[0] = killers[0], code
                            self.counters[side][last] = code
                        history[code] = history.get(code, 0) + depth * depth
                        break
        if best_score == -WIN - 1:  # every move pruned: the evaluation stands
            return static
        flag = 1 if best_score >= beta else -1 if best_score <= original_alpha else 0
        stored = best_score + ply if best_score > WON else best_score - ply if best_score < -WON else best_score
        table[board] = (depth, stored, flag, best_move)
        return best_score

    def _quiesce(self, board: Board, alpha: int, beta: int, ply: int, extended: int) -> int:
        """A quiet leaf: the evaluation, unless a move that makes a breakthrough threat does better."""
        score = self.evaluate(board)
        if score >= beta or extended >= MAX_EXTENSIONS:
            return score
        m1, m2, t1, t2, side = board
        walls = m1 & ~m2 & THREAT_ROW[side]
        close = CLOSE_ROWS[side]
        if not walls and not m2 & close:
            return score  # no wall to raise on the threat row, no tower near the goal: no threat to make
        if score > alpha:
            alpha = score
        for code in generate(board):
            src, cells, distribution = MOVES[code]
            if not (src & close or (distribution and cells & walls)):
                continue
            child = play(board, code)
            if not breakers(child[3], FULL & ~(child[0] | child[3]), side):
                continue
            value = -self._search(child, 0, -beta, -alpha, ply + 1, extended + 1, code)
            if value > score:
                score = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return score
