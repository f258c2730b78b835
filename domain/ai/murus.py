"""Murus Gallicus AI, from a seat's view only (perfect information: the view's position is the whole game).

``easy`` plays a winning move when it sees one, else a random move. ``normal`` and ``hard`` run an
iterative-deepening negamax alpha-beta on the bitboards of ``domain.murus.board`` with a transposition table,
move ordering (table move, breakthroughs, captures, killers, history) and an evaluation of stones, towers,
advancement, mobility and breakthrough threats. ``hard`` adds:

- a threat quiescence: a leaf where the opponent threatens to win next turn is searched one ply more, and at a
  quiet leaf the side to move may also try the moves that *make* a breakthrough threat (a new tower two rows
  from the goal, or a landing cell cleared), so two-move combinations beyond the horizon are seen;
- principal-variation search (null windows after the first move) and late-move reductions (quiet moves ordered
  late are searched a ply shallower unless they prove good), so it reaches a ply deeper for the same nodes;
- a finer weight on threats in the evaluation.

Measured with ``burrow selfplay murus --ai hard,normal --ai-time 0.05`` (see ``docs/ai.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.ai import murus_advanced, murus_search
from domain.murus.board import (
    DISTRIBUTE,
    FORWARD,
    FULL,
    GOAL_ROW,
    KIND,
    KING_STEPS,
    ROW_MASKS,
    SIDE,
    STEPS,
    Move,
    Position,
    generate,
    play,
)
from domain.murus.notation import move_text
from domain.murus.position import load_position

WIN = 1_000_000
WON = WIN - 1_000
"""Scores beyond ±WON are wins or losses in some number of plies."""

# Directions (offset, cells with a second cell that way) whose far cell is one or two rows forward, by side.
FORWARD_STEPS = tuple(
    tuple((offset, has2) for (_, dr), (offset, _, has2) in zip(KING_STEPS, STEPS) if dr == fwd)
    for fwd in FORWARD
)
# Row masks by distance to each side's goal row (index 0 = the goal row itself).
ROWS_BY_DISTANCE = (tuple(reversed(ROW_MASKS)), ROW_MASKS)
TOWER_ADVANCE = (0, 70, 110, 70, 40, 15, 0)
"""A tower's bonus by its distance to the goal row: highest two rows out, where it threatens to break through.
Tuned by matches against ``bench/murus_reference.py`` at 0.1 s of CPU time a move (100 games a seed): these
weights won 63% and 69% (seeds 11 and 12), a steeper (0, 90, 135, 85, 45, 15, 0) 55%, and the reference's own
shape (highest on the row before the goal) 14 of 31; the results at 0.5 s are in docs/ai.md."""
MOBILITY = 5  # per distribution a side has
THREAT = (80, 120)  # per tower that breaks through next turn: normal, hard
WALL_ADVANCE = (0, 14, 10, 7, 4, 2, 0)
NEAR_GOAL = tuple(rows[0] | rows[1] for rows in ROWS_BY_DISTANCE)
THREAT_ROW = tuple(rows[2] for rows in ROWS_BY_DISTANCE)
CLOSE_ROWS = tuple(rows[0] | rows[1] | rows[2] for rows in ROWS_BY_DISTANCE)
"""By side: the rows a tower leaving a landing cell or capturing next to one stands on."""
"""By side: the goal row and the one before it, where a threat's landing cells lie, and the row a threatening
tower stands on. A basic-game move makes a threat only by building a tower on ``THREAT_ROW``, or by clearing a
landing cell: a capture there, or an own tower leaving it (or sacrificing: a wall does not block)."""
MAX_EXTENSIONS = 4
BUDGET_SHARE = 0.98
"""The search stops this far into its budget (an iteration cut short still answers with its best move so far),
leaving the rest for building the view and appending the move (the clock is read every 64 nodes, well under a
millisecond; the punctuality target allows budget + 0.2 s)."""
MAX_DEPTH = 60
LMR_DEPTH, LMR_AFTER = 3, 3
"""``hard`` reduces quiet moves from the ``LMR_AFTER``-th on at nodes at least ``LMR_DEPTH`` plies from the
leaves."""


def _layers(weights: tuple[int, ...], side: int) -> tuple[tuple[int, int], ...]:
    """``(mask, weight)`` pairs whose weights, summed over the masks holding a cell, give the cell's weight by
    its distance to ``side``'s goal row: the advancement of a plane in a few popcounts instead of one per row."""
    layers, below = [], 0
    for level in sorted(set(weights) - {0}):
        mask = 0
        for distance, weight in enumerate(weights):
            if weight >= level:
                mask |= ROWS_BY_DISTANCE[side][distance]
        layers.append((mask, level - below))
        below = level
    return tuple(layers)


TOWER_LAYERS = tuple(_layers(TOWER_ADVANCE, side) for side in (0, 1))
WALL_LAYERS = tuple(_layers(WALL_ADVANCE, side) for side in (0, 1))
_HAS2 = {offset: has2 for offset, _, has2 in STEPS}
_HAS2_E, _HAS2_W, _HAS2_N, _HAS2_S = _HAS2[1], _HAS2[-1], _HAS2[8], _HAS2[-8]
_HAS2_NE, _HAS2_SW, _HAS2_NW, _HAS2_SE = _HAS2[9], _HAS2[-9], _HAS2[7], _HAS2[-7]
"""Cells with a second cell each way (east = +1, north = +8 toward the Gauls' home row)."""


CAPTURES_FIRST = 1 << 40
"""Where a non-distribution's history starts: above any distribution's (sums of depth², far below this)."""


class _History(dict):
    """One side's history scores by move, read with ``[]``: an unseen move starts at 0, or at ``CAPTURES_FIRST``
    if it is not a distribution, so one C-level sort key orders sacrifices first, each kind by history."""

    def __missing__(self, move: Move) -> int:
        score = self[move] = 0 if move[KIND] == DISTRIBUTE else CAPTURES_FIRST
        return score


class _OutOfTime(Exception):
    """The budget is spent: the search unwinds and the last complete answer stands."""


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float]) -> str:
    """The command the ``level`` AI plays at ``seat``, thinking at most ``budget`` seconds of ``clock``."""
    advanced = view["options"]["variant"] == "advanced"
    pos = load_position(view["position"], advanced)
    moves = generate(pos, advanced) if view.get("status", "playing") == "playing" else []
    if pos[SIDE] != seat or not moves:
        raise ValueError(f"seat {seat} has no move to play in this view")
    if level == "easy":
        winning = [move for move in moves if _wins_at_once(play(pos, move), advanced)]
        return move_text(rng.choice(winning or moves))
    deadline = clock() + BUDGET_SHARE * budget
    if level == "hard" and advanced:
        compiled = murus_advanced.Search(clock, deadline)
        return move_text(murus_advanced.to_move(compiled.best_move(pos, rng)))
    if level == "hard":
        fast = murus_search.Search(clock, deadline)
        return move_text(murus_search.to_move(fast.best_move(murus_search.compact(pos), rng)))
    search = Search(advanced, hard=level == "hard", clock=clock, deadline=deadline)
    return move_text(search.best_move(pos, moves, rng))


def _wins_at_once(child: Position, advanced: bool) -> bool:
    """The side that just moved into ``child`` has won (breakthrough, or the opponent is stalemated)."""
    m1, _, _, t1, _, _, side = child
    if not advanced and t1 & GOAL_ROW[side ^ 1]:
        return True
    if advanced and m1 & GOAL_ROW[side]:
        return False
    return not generate(child, advanced)


def breakthrough_towers(pos: Position, advanced: bool) -> int:
    """Towers of the side to move that can distribute onto their goal row now (a basic-game win)."""
    _, m2, m3, t1, _, _, side = pos
    towers = m2 & ~m3 & THREAT_ROW[side]  # only a tower two rows from the goal reaches it
    if not towers:
        return 0
    return _towers_reaching_goal(towers, FULL & ~(t1 | (m3 if advanced else m2)), side)


def _towers_reaching_goal(towers: int, landing: int, side: int) -> int:
    """Those of ``towers`` whose forward distribution ends on ``side``'s goal row over ``landing`` cells."""
    goal = landing & GOAL_ROW[side]
    (o1, h1), (o2, h2), (o3, h3) = FORWARD_STEPS[side]
    if side == 0:  # forward is up the board: positive offsets
        return towers & ((h1 & (landing >> o1) & (goal >> 2 * o1)) | (h2 & (landing >> o2) & (goal >> 2 * o2))
                         | (h3 & (landing >> o3) & (goal >> 2 * o3)))
    return towers & ((h1 & (landing << -o1) & (goal << -2 * o1)) | (h2 & (landing << -o2) & (goal << -2 * o2))
                     | (h3 & (landing << -o3) & (goal << -2 * o3)))


def may_threaten(move: Move, side: int, walls: int) -> bool:
    """Whether ``move`` of ``side`` can make a basic-game breakthrough threat (see ``THREAT_ROW``), ``walls`` being
    the mover's walls on ``THREAT_ROW``: a distribution makes a threatening tower only by landing on one of them
    (on an empty cell it leaves a wall), or clears a landing cell by leaving it; a sacrifice clears one or leaves
    it. Every move that makes a threat passes, most others do not."""
    kind, frm, to = move
    if kind == DISTRIBUTE:
        return bool((1 << frm) & NEAR_GOAL[side] or ((1 << to) | (1 << ((frm + to) >> 1))) & walls)
    return bool(((1 << to) | (1 << frm)) & NEAR_GOAL[side])


def mobility(towers: int, landing: int) -> int:
    """How many (tower, direction) distributions there are onto ``landing`` cells."""
    return _spread(towers, landing, 0)[0]


def _spread(towers: int, landing: int, side: int) -> tuple[int, int]:
    """How many (tower, direction) distributions ``towers`` have onto ``landing`` cells, and how many of the
    towers break through with one (``side``'s towers on ``THREAT_ROW`` going forward: a basic-game threat).
    Unrolled: a pair of landing cells one step apart is found once for both senses of a line."""
    e_w, n_s, ne_sw, nw_se = landing & (landing >> 1), landing & (landing >> 8), landing & (landing >> 9), \
        landing & (landing >> 7)
    north, northeast, northwest = towers & _HAS2_N & (n_s >> 8), towers & _HAS2_NE & (ne_sw >> 9), \
        towers & _HAS2_NW & (nw_se >> 7)
    south, southwest, southeast = towers & _HAS2_S & (n_s << 16), towers & _HAS2_SW & (ne_sw << 18), \
        towers & _HAS2_SE & (nw_se << 14)
    count = ((towers & _HAS2_E & (e_w >> 1)).bit_count() + (towers & _HAS2_W & (e_w << 2)).bit_count()
             + north.bit_count() + northeast.bit_count() + northwest.bit_count()
             + south.bit_count() + southwest.bit_count() + southeast.bit_count())
    forward = north | northeast | northwest if side == 0 else south | southwest | southeast
    return count, (forward & THREAT_ROW[side]).bit_count()


class Search:
    """One move decision: iterative deepening over a negamax alpha-beta until ``deadline``."""

    def __init__(self, advanced: bool, hard: bool, clock: Callable[[], float], deadline: float):
        self.advanced, self.hard = advanced, hard
        self.clock, self.deadline = clock, deadline
        self.checked = clock()
        """The clock's last reading: the search stops when two more intervals like the last (the next reading,
        then unwinding and answering) would pass the deadline, so it answers before it even on a coarse clock
        (a real one is read every 64 nodes, well under a millisecond)."""
        self.table: dict[Position, tuple[int, int, int, Move | None]] = {}
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_DEPTH + MAX_EXTENSIONS + 2)]
        self.history: tuple[_History, _History] = (_History(), _History())  # by side
        self.statics: dict[tuple[int, int, int, int], int] = {}
        self.evals: dict[Position, int] = {}
        self.nodes = 0
        self.depth_reached = 0
        self.partial: Move | None = None
        self.score = 0
        """The root's score (side to move, centi-stones; beyond ±WON a proven result), last complete depth."""

    def best_move(self, pos: Position, moves: list[Move], rng: random.Random) -> Move:
        """The best move found before the deadline (a random one among equals at the root)."""
        rng.shuffle(moves)
        best = moves[0]
        for move in moves:  # a move that wins now needs no search
            if _wins_at_once(play(pos, move), self.advanced):
                self.score = WIN - 1
                return move
        try:
            for depth in range(1, MAX_DEPTH + 1):
                score, move = self._root(pos, moves, depth)
                best = move
                self.depth_reached, self.score = depth, score
                moves.sort(key=lambda m: m != best)
                if abs(score) > WON:
                    break
        except _OutOfTime:
            if self.partial is not None:
                best = self.partial
        return best

    def _root(self, pos: Position, moves: list[Move], depth: int) -> tuple[int, Move]:
        alpha, best = -WIN - 1, moves[0]
        self.partial = None
        for i, move in enumerate(moves):
            child = play(pos, move)
            if self.hard and i:  # principal-variation search: prove the first move best with null windows
                score = -self._search(child, depth - 1, -alpha - 1, -alpha, 1, 0)
                if score <= alpha:
                    continue
            score = -self._search(child, depth - 1, -WIN - 1, -alpha, 1, 0)
            if score > alpha:
                alpha, best = score, move
                self.partial = move
        return alpha, best

    def _search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, extensions: int) -> int:
        self.nodes += 1
        if not self.nodes & 63:
            now = self.clock()
            if 3 * now - 2 * self.checked >= self.deadline:  # two more intervals like the last would be late
                raise _OutOfTime
            self.checked = now
        m1, _, _, t1, _, _, side = pos
        advanced = self.advanced
        if advanced:
            if m1 & GOAL_ROW[side]:
                return WIN - ply
        elif t1 & GOAL_ROW[side ^ 1]:
            return -(WIN - ply)
        elif breakthrough_towers(pos, False):
            return WIN - ply - 1
        if depth <= 0:
            if not (self.hard and extensions < MAX_EXTENSIONS and self._threatened(pos)):
                if self.hard and extensions < MAX_EXTENSIONS:
                    return self._quiesce(pos, alpha, beta, ply, extensions)
                return self.evaluate(pos)
            depth, extensions = 1, extensions + 1
        entry = self.table.get(pos)
        table_move = None
        if entry is not None:
            entry_depth, stored, flag, table_move = entry
            if entry_depth >= depth:
                score = stored - ply if stored > WON else stored + ply if stored < -WON else stored
                if flag == 0 or (flag > 0 and score >= beta) or (flag < 0 and score <= alpha):
                    return score
        moves = generate(pos, advanced)
        if not moves:
            return -(WIN - ply)
        killers, history = self.killers[ply], self.history[side]
        original_alpha, best_score, best_move = alpha, -WIN - 1, moves[0]
        pvs = self.hard and beta - alpha > 1
        reduce = self.hard and depth >= LMR_DEPTH
        for i, move in enumerate(self._ordered(moves, table_move, killers, history)):
            child = play(pos, move)
            if i and (pvs or reduce):
                reduced = depth - 2 if reduce and i >= LMR_AFTER and move[KIND] == DISTRIBUTE \
                    and move not in killers else depth - 1
                score = -self._search(child, reduced, -alpha - 1, -alpha, ply + 1, extensions)
                if score > alpha and (reduced < depth - 1 or score < beta):
                    score = -self._search(child, depth - 1, -beta, -alpha, ply + 1, extensions)
            else:
                score = -self._search(child, depth - 1, -beta, -alpha, ply + 1, extensions)
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move[KIND] == DISTRIBUTE and move not in killers:
                            killers[1], killers[0] = killers[0], move
                        history[move] += depth * depth
                        break
        flag = 1 if best_score >= beta else -1 if best_score <= original_alpha else 0
        stored = best_score + ply if best_score > WON else best_score - ply if best_score < -WON else best_score
        self.table[pos] = (depth, stored, flag, best_move)
        return best_score

    @staticmethod
    def _ordered(moves: list[Move], table_move: Move | None, killers: list, history: _History):
        """The moves best first: the table's move at once (it often refutes, sparing the ordering of the rest),
        then sacrifices, killers and the other distributions, each by history (ties in generation order)."""
        if table_move is not None and table_move in moves:
            yield table_move
            moves.remove(table_move)
        moves.sort(key=history.__getitem__, reverse=True)  # sacrifices first: their history starts high
        promoted = [move for move in killers if move in moves]  # killers are distributions
        if promoted:
            if len(promoted) == 2 and moves.index(promoted[0]) > moves.index(promoted[1]):
                promoted.reverse()
            for move in promoted:
                moves.remove(move)
            captures = 0
            while captures < len(moves) and moves[captures][KIND] != DISTRIBUTE:
                captures += 1
            moves[captures:captures] = promoted
        yield from moves

    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int, extensions: int) -> int:
        """A quiet leaf of ``hard``: the evaluation, unless a move making a breakthrough threat does better."""
        score = self.evaluate(pos)
        if score >= beta:
            return score
        alpha = max(alpha, score)
        advanced = self.advanced
        m1, m2, m3, _, _, _, side = pos
        walls = m1 & ~m2 & THREAT_ROW[side]
        if not advanced and not walls and not (m2 & ~m3 & CLOSE_ROWS[side]):
            return score  # no wall to raise on the threat row, no tower to clear a landing cell: no threat to make
        for move in generate(pos, advanced):
            if not advanced and not may_threaten(move, side, walls):
                continue
            child = play(pos, move)
            if not self._threatened(child):
                continue
            value = -self._search(child, 0, -beta, -alpha, ply + 1, extensions + 1)
            if value > score:
                score = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return score

    def _threatened(self, pos: Position) -> bool:
        """The opponent wins next turn unless the side to move answers (breakthrough threat or intruder)."""
        m1, m2, m3, t1, t2, t3, side = pos
        if self.advanced:
            return bool(t1 & GOAL_ROW[side ^ 1])
        return bool(breakthrough_towers((t1, t2, t3, m1, m2, m3, side ^ 1), False))

    def evaluate(self, pos: Position) -> int:
        """Score of ``pos`` for the side to move (centi-stones); remembered within the decision (each iteration
        of the deepening meets most leaves of the one before again)."""
        score = self.evals.get(pos)
        if score is not None:
            return score
        m1, m2, m3, t1, t2, t3, side = pos
        score = (self._side(m1, m2, m3, t1, side) - self._side(t1, t2, t3, m1, side ^ 1)) + 10
        if self.advanced:
            # An intruder of the opponent must be removed at once; one of ours is a standing threat.
            score += 150 * ((m1 & GOAL_ROW[side]).bit_count() - 3 * (t1 & GOAL_ROW[side ^ 1]).bit_count())
        self.evals[pos] = score
        return score

    def _static(self, p1: int, p2: int, p3: int, side: int) -> int:
        """Material and advancement of one side's stones (remembered: most leaves share one side's stones)."""
        key = (p1, p2, p3, side)
        score = self.statics.get(key)
        if score is None:
            towers = p2 & ~p3
            walls = p1 & ~p2
            score = 100 * (p1.bit_count() + p2.bit_count()) + 160 * p3.bit_count() + 30 * towers.bit_count()
            for mask, weight in TOWER_LAYERS[side]:
                score += weight * (towers & mask).bit_count()
            for mask, weight in WALL_LAYERS[side]:
                score += weight * (walls & mask).bit_count()
            self.statics[key] = score
        return score

    def _side(self, p1: int, p2: int, p3: int, enemy: int, side: int) -> int:
        """Material, advancement, mobility and threats of one side (``enemy``: cells the other side holds)."""
        towers = p2 & ~p3
        score = self._static(p1, p2, p3, side)
        landing = FULL & ~(enemy | (p3 if self.advanced else p2))
        moves, threats = _spread(towers, landing, side)
        score += MOBILITY * moves
        if moves == 0:
            score -= 400  # walls alone cannot move: stalemate is near
        if not self.advanced:
            score += THREAT[self.hard] * threats
        return score
