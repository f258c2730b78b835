"""The compiled core of hard's search for Murus' advanced game (catapults, fire, the delayed breakthrough):
move generation, moves played, the evaluation and a principal-variation alpha-beta, for numba
(``@njit(cache=True)``) on 64-bit integers and preallocated arrays. ``domain/ai/murus_advanced.py`` drives it.

The board is ``domain.murus.board``'s position: six planes and the side to move, ``(m1, m2, m3, t1, t2, t3,
side)`` (bit ``8 * row + col`` of ``m<k>`` is set where the side to move has at least ``k`` stones, ``t<k>`` the
same for the other side). A move is a code ``KIND_BASE * kind + 64 * frm + to`` with the rules' kinds and cells
(distribute, sacrifice, double sacrifice, fire; ``to`` is the far cell, the enemy stack, or the target), so
``code_of``/``to_move`` convert without a table; 0 is never a move.

The game's two turns of a breakthrough (MS-A4) shape the search:

- a side that starts its turn with a stone on its goal row has won (``WIN``);
- a side that starts its turn with an enemy stone on its home row (an *intruder*) must remove it now: two
  intruders, or a tower or catapult (no single action removes one), lose at once; one wall may be removed by a
  sacrifice from an adjacent tower or by fire, and only those moves are searched (the **threat extension**: such
  a node is searched one ply deeper, inside the tree up to ``state[INTERIOR]`` times a line, and always at the
  leaves);
- at a quiet leaf the side to move may also *intrude* (the **threat quiescence**: a distribution or a fire that
  puts a stone on the goal row), so a breakthrough the opponent cannot answer is seen beyond the horizon.

Around them: a transposition table (``TABLE_SIZE`` slots of eight integers: the six planes, one word for side,
depth, bound, move and the decision's generation, and the score; probed linearly over ``PROBES`` slots, slots of
another generation count as empty, so a table is reused without clearing it), null-move pruning, futility pruning
one ply from the leaves, late-move reductions, killers, a counter-move and history. The clock is the basic core's
mechanism (``murus_core._tick``: the injected clock of the search whose core runs, read every ``TIME_CHECK`` + 1
nodes in numba's object mode; between readings the core runs without the GIL).

The evaluation (``evaluate``) is a weight vector (``FEATURES``) over one side's counts minus the other's, plus the
side to move's bonus: stones by kind (wall, tower, catapult) and distance to the goal row, distributions and
fires available, no action at all, the goal-row cells the side can put a stone on next move, and those of them
the other side could not clear (no tower of theirs next to it, none of their catapults in range; or a
distribution that raises a tower there, which no single action removes), and the first four towers and catapults
(a side with few of them is near stalemate).
"""

from __future__ import annotations

import weakref

import numpy as np
from numba import njit, objmode, types

from domain.ai.murus_core import _numbers, _running, _tick, lowest, popcount
from domain.murus.board import CELLS, FIRE_STEPS, FULL, GOAL_ROW, ROW_MASKS, STEPS

__all__ = ["_tick"]  # read by the object-mode block of ``search`` (numba looks it up in this module)

WIN = 1_000_000
WON = WIN - 1_000
MAX_PLY = 100
MAX_EXTENSIONS = 8
FUTILITY = 300
NULL_DEPTH, NULL_REDUCTION = 3, 2
LMR_DEPTH, LMR_AFTER, LMR_MORE = 3, 3, 10
TIME_CHECK = 2047
PLIES = 128
MOVE_ROOM = 256
"""Every move of one side: at most 16 stacks; a tower has 8 distributions and 8 (double) sacrifices, a catapult 10
fires."""
TABLE_BITS = 19
TABLE_SIZE = 1 << TABLE_BITS
TABLE_COLUMNS = 8
PROBES = 8
TABLE_BYTES = TABLE_SIZE * TABLE_COLUMNS * 8
"""32 MiB a table; one table per search running at once (``_spare`` keeps the idle ones for the next)."""

DISTRIBUTE, SACRIFICE, DOUBLE_SACRIFICE, FIRE = 0, 1, 2, 3
KIND_BASE = 4096
CODES = 4 * KIND_BASE

# The state array of one search.
NODES, OUT, GENERATION, PARTIAL, NULL_MOVE, FUTILE, REDUCE, TABLE, INTERIOR, OWNER = range(10)
STATE = 10

# -- geometry, as arrays ----------------------------------------------------------------------------------------
DIR_OFFSET = np.array([offset for offset, _, _ in STEPS], dtype=np.int64)
DIR_HAS1 = np.array([has1 for _, has1, _ in STEPS], dtype=np.int64)
DIR_HAS2 = np.array([has2 for _, _, has2 in STEPS], dtype=np.int64)
FIRE_OFFSET = np.array([[offset for offset, _ in steps] for steps in FIRE_STEPS], dtype=np.int64)
FIRE_HAS = np.array([[has for _, has in steps] for steps in FIRE_STEPS], dtype=np.int64)
BY_DISTANCE = np.array((tuple(reversed(ROW_MASKS)), tuple(ROW_MASKS)), dtype=np.int64)
"""By side, row masks by distance to that side's goal row (0 = the goal row)."""
GOAL = np.array(GOAL_ROW, dtype=np.int64)
CLOSE_ROWS = np.array([rows[0] | rows[1] | rows[2] | rows[3] for rows in BY_DISTANCE], dtype=np.int64)
"""By side: the four rows nearest the goal, where a move may prepare a breakthrough (ordered early)."""

MOVE_SOURCE = np.zeros(CODES, dtype=np.int64)
MOVE_MIDDLE = np.zeros(CODES, dtype=np.int64)
"""A distribution's near cell (0 for the other kinds)."""
MOVE_TARGET = np.zeros(CODES, dtype=np.int64)
for _frm in range(CELLS):
    for _to in range(CELLS):
        for _kind in range(4):
            _code = KIND_BASE * _kind + 64 * _frm + _to
            MOVE_SOURCE[_code] = 1 << _frm
            MOVE_TARGET[_code] = 1 << _to
            if _kind == DISTRIBUTE and (_frm + _to) % 2 == 0:
                MOVE_MIDDLE[_code] = 1 << ((_frm + _to) >> 1)

FEATURES = tuple([f"walls at {d}" for d in range(7)] + [f"towers at {d}" for d in range(7)]
                 + [f"catapults at {d}" for d in range(7)]
                 + ["distributions", "fires", "stuck", "intrusions", "unanswerable intrusions",
                    "mobile stacks (up to four)"])
"""What ``side_score`` counts for one side (``at d``: at distance ``d`` from its goal row); the weights add the
side to move's bonus after them."""
WEIGHTS = (150, 140, 118, 110, 105, 102, 100,
           330, 285, 330, 300, 275, 260, 250,
           450, 400, 420, 430, 400, 375, 360,
           8, 5, -300, 25, 220, 40, 10)
"""Centi-stones: a wall 100, a tower 250, a catapult 360, each more the nearer it stands to the goal row (a tower
most two rows out, where it distributes onto the goal row; a catapult two and three rows out, where it fires onto
it); 8 a distribution, 5 a fire, 300 off for a side without either, 25 a goal-row cell the side can reach next
move and 220 more when the other side could not clear it, 40 for each of the first four towers and catapults (a
side left with few loses its moves: stalemate); 10 for the side to move. A first set (a tower 220, a catapult 330,
nothing for the stacks) lost a game to ``bench/murus_advanced_strong.py`` at 0.25 s a move by spreading every tower
into walls until it was stalemated; these won 8 of 8 there (docs/ai.md)."""

HASH_1, HASH_2, HASH_3 = (0x9E3779B97F4A7C15 - (1 << 64), 0xC2B2AE3D27D4EB4F - (1 << 64),
                          0x165667B19E3779F9)
HASH_4, HASH_5, HASH_6 = 0xD6E8FEB86659FD93 - (1 << 64), 0x27D4EB2F165667C5, 0x85EBCA77C2B2AE63 - (1 << 64)
HASH_SIDE = 0x5BD1E995


# -- board ------------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def toward(bits, offset):
    """Bit i of the result is bit ``i + offset`` of ``bits`` (a cell sees its neighbour ``offset`` away)."""
    return bits >> offset if offset > 0 else bits << -offset


@njit(cache=True, inline="always")
def away(bits, offset):
    """Bit ``i + offset`` of the result is bit i of ``bits`` (cells moved ``offset`` along)."""
    return bits << offset if offset > 0 else bits >> -offset


@njit(cache=True)
def generate(m1, m2, m3, t1, t2, t3, side, out):
    """The side to move's legal move codes into ``out`` (MS-4, MS-5, MS-A1…MS-A3); their number."""
    n = 0
    towers = m2 & ~m3
    if towers:
        landing = FULL & ~(t1 | m3)
        victims = (t1 & ~t2) | t3
        for d in range(8):
            offset = DIR_OFFSET[d]
            can = towers & DIR_HAS2[d] & toward(landing, offset) & toward(landing, 2 * offset)
            while can:
                frm = lowest(can)
                out[n] = 65 * frm + 2 * offset
                n += 1
                can &= can - 1
            near = towers & DIR_HAS1[d]
            cap = near & toward(victims, offset)
            while cap:
                frm = lowest(cap)
                out[n] = KIND_BASE * SACRIFICE + 65 * frm + offset
                n += 1
                cap &= cap - 1
            cap = near & toward(t3, offset)
            while cap:
                frm = lowest(cap)
                out[n] = KIND_BASE * DOUBLE_SACRIFICE + 65 * frm + offset
                n += 1
                cap &= cap - 1
    if m3:
        target = FULL & ~m1
        for k in range(10):
            offset = FIRE_OFFSET[side, k]
            can = m3 & FIRE_HAS[side, k] & toward(target, offset)
            while can:
                frm = lowest(can)
                out[n] = KIND_BASE * FIRE + 65 * frm + offset
                n += 1
                can &= can - 1
    return n


@njit(cache=True, inline="always")
def _remove_top(p1, p2, p3, cell):
    if p3 & cell:
        return p1, p2, p3 & ~cell
    if p2 & cell:
        return p1, p2 & ~cell, p3
    return p1 & ~cell, p2, p3


@njit(cache=True)
def play(m1, m2, m3, t1, t2, t3, code):
    """The six planes after ``code`` (legal), from the other side's view (its planes first): ``board.play``."""
    kind = code >> 12
    source = MOVE_SOURCE[code]
    target = MOVE_TARGET[code]
    if kind == DISTRIBUTE:
        landing = MOVE_MIDDLE[code] | target
        return t1, t2, t3, (m1 & ~source) | landing, (m2 & ~source) | (m1 & landing), m3 | (m2 & landing)
    if kind == SACRIFICE:
        e1, e2, e3 = _remove_top(t1, t2, t3, target)
        return e1, e2, e3, m1, m2 & ~source, m3
    if kind == DOUBLE_SACRIFICE:
        return t1, t2 & ~target, t3 & ~target, m1 & ~source, m2 & ~source, m3
    if t1 & target:
        e1, e2, e3 = _remove_top(t1, t2, t3, target)
        return e1, e2, e3, m1, m2, m3 & ~source
    return t1, t2, t3, m1 | target, m2, m3 & ~source


@njit(cache=True)
def perft(m1, m2, m3, t1, t2, t3, side, depth, buffers):
    """``board.perft`` of the advanced game (``buffers``: one row of ``MOVE_ROOM`` per ply)."""
    if depth == 0:
        return 1
    if m1 & GOAL[side]:
        return 0
    row = buffers[depth]
    n = generate(m1, m2, m3, t1, t2, t3, side, row)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        c1, c2, c3, c4, c5, c6 = play(m1, m2, m3, t1, t2, t3, row[i])
        total += perft(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, buffers)
    return total


# -- evaluation -------------------------------------------------------------------------------------------------

@njit(cache=True)
def covered(e1, e2, e3, side):
    """The cells ``side`` (planes ``e1``…``e3``) could clear of an enemy wall with one action: next to one of its
    towers (a sacrifice) or in range of one of its catapults (fire)."""
    towers = e2 & ~e3
    cells = 0
    for d in range(8):
        cells |= away(towers & DIR_HAS1[d], DIR_OFFSET[d])
    if e3:
        for k in range(10):
            cells |= away(e3 & FIRE_HAS[side, k], FIRE_OFFSET[side, k])
    return cells


@njit(cache=True)
def side_score(p1, p2, p3, e1, e2, e3, side, w):
    """One side's weighted counts (``FEATURES`` times ``w``)."""
    walls = p1 & ~p2
    towers = p2 & ~p3
    score = 0
    for d in range(7):
        rows = BY_DISTANCE[side, d]
        score += (w[d] * popcount(walls & rows) + w[7 + d] * popcount(towers & rows)
                  + w[14 + d] * popcount(p3 & rows))
    landing = FULL & ~(e1 | p3)
    goal = GOAL[side]
    distributions = 0
    reached = 0
    raised = 0
    if towers:
        for d in range(8):
            offset = DIR_OFFSET[d]
            can = towers & DIR_HAS2[d] & toward(landing, offset) & toward(landing, 2 * offset)
            distributions += popcount(can)
            far = away(can, 2 * offset) & goal
            reached |= far
            raised |= far & p1
    fires = 0
    if p3:
        target = FULL & ~p1
        empty_goal = goal & ~(p1 | e1)
        for k in range(10):
            offset = FIRE_OFFSET[side, k]
            has = p3 & FIRE_HAS[side, k]
            fires += popcount(has & toward(target, offset))
            reached |= away(has & toward(empty_goal, offset), offset)
    score += w[21] * distributions + w[22] * fires + w[26] * min(popcount(p2), 4)
    if distributions == 0 and fires == 0:
        score += w[23]
    if reached:
        score += w[24] * popcount(reached)
        unanswerable = (reached & ~covered(e1, e2, e3, side ^ 1)) | raised
        score += w[25] * popcount(unanswerable)
    return score


@njit(cache=True, nogil=True)
def evaluate(m1, m2, m3, t1, t2, t3, side, w):
    """Mine minus theirs plus the side to move's bonus (centi-stones, for the side to move)."""
    return (side_score(m1, m2, m3, t1, t2, t3, side, w) - side_score(t1, t2, t3, m1, m2, m3, side ^ 1, w)
            + w[27])


# -- the transposition table ------------------------------------------------------------------------------------

@njit(cache=True)
def _slot(m1, m2, m3, t1, t2, t3, side):
    h = (m1 * HASH_1 ^ m2 * HASH_2 ^ m3 * HASH_3 ^ t1 * HASH_4 ^ t2 * HASH_5 ^ t3 * HASH_6
         ^ side * HASH_SIDE)
    h ^= h >> 29
    h *= HASH_1
    h ^= h >> 32
    return h & (TABLE_SIZE - 1)


@njit(cache=True, inline="always")
def _same(table, i, m1, m2, m3, t1, t2, t3, side):
    return (table[i, 0] == m1 and table[i, 1] == m2 and table[i, 2] == m3 and table[i, 3] == t1
            and table[i, 4] == t2 and table[i, 5] == t3 and table[i, 6] & 1 == side)


@njit(cache=True)
def probe(table, generation, m1, m2, m3, t1, t2, t3, side):
    """The slot holding this board in this generation, or -1."""
    start = _slot(m1, m2, m3, t1, t2, t3, side)
    for k in range(PROBES):
        i = (start + k) & (TABLE_SIZE - 1)
        if table[i, 6] >> 30 != generation:
            return -1
        if _same(table, i, m1, m2, m3, t1, t2, t3, side):
            return i
    return -1


@njit(cache=True)
def store(table, generation, m1, m2, m3, t1, t2, t3, side, depth, score, flag, move):
    start = _slot(m1, m2, m3, t1, t2, t3, side)
    chosen = -1
    shallowest = 1 << 30
    for k in range(PROBES):
        i = (start + k) & (TABLE_SIZE - 1)
        meta = table[i, 6]
        if meta >> 30 != generation or _same(table, i, m1, m2, m3, t1, t2, t3, side):
            chosen = i
            break
        entry_depth = (meta >> 3) & 255
        if entry_depth < shallowest:
            shallowest, chosen = entry_depth, i
    table[chosen, 0] = m1
    table[chosen, 1] = m2
    table[chosen, 2] = m3
    table[chosen, 3] = t1
    table[chosen, 4] = t2
    table[chosen, 5] = t3
    table[chosen, 6] = (generation << 30) | (move << 15) | (depth << 3) | ((flag + 1) << 1) | side
    table[chosen, 7] = score


# -- search -----------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _intrudes(code, m1, t1, side):
    """``code`` puts a stone of the mover on its goal row (a distribution's far cell, a fire onto an empty
    cell)."""
    target = MOVE_TARGET[code] & GOAL[side]
    if target == 0:
        return False
    kind = code >> 12
    return kind == DISTRIBUTE or (kind == FIRE and (m1 | t1) & target == 0)


_I = types.int64
_V = types.Array(types.int64, 1, "C")
_M = types.Array(types.int64, 2, "C")


@njit(_I(_I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _V, _V, _M, _M, _M, _M, _M, _M), cache=True,
      nogil=True)
def search(m1, m2, m3, t1, t2, t3, side, depth, alpha, beta, ply, extended, last, state, w, table, killers,
           history, counters, moves, keys):
    """The score of the board for the side to move within (alpha, beta), ``depth`` plies on. Returns 0 with
    ``state[OUT]`` set when the clock says stop."""
    zero = np.int64(0)  # not a literal: a literal argument to the recursive call would compile another version
    state[NODES] += 1
    if state[NODES] & TIME_CHECK == 0:
        owner = state[OWNER]
        with objmode(out="int64"):
            out = _tick(owner)
        if out:
            state[OUT] = 1
            return 0
    if m1 & GOAL[side]:
        return WIN - ply  # MS-A4: our stone held the goal row for a turn
    intruders = t1 & GOAL[side ^ 1]
    threatened = intruders != 0
    if threatened and (intruders & (intruders - 1) or intruders & t2):
        return -(WIN - ply - 1)  # two intruders, or a tower or catapult: no action clears them
    if depth <= 0:
        if not threatened or extended >= MAX_EXTENSIONS:
            # the threat quiescence: the evaluation, unless an intrusion (a stone put on the goal row) does better
            score = evaluate(m1, m2, m3, t1, t2, t3, side, w)
            if score >= beta or extended >= MAX_EXTENSIONS or m2 == 0:
                return score
            if score > alpha:
                alpha = score
            goal = GOAL[side]
            row = moves[ply]
            n = generate(m1, m2, m3, t1, t2, t3, side, row)
            for i in range(n):
                code = row[i]
                if MOVE_TARGET[code] & goal == 0 or not _intrudes(code, m1, t1, side):
                    continue
                c1, c2, c3, c4, c5, c6 = play(m1, m2, m3, t1, t2, t3, code)
                value = -search(c1, c2, c3, c4, c5, c6, side ^ 1, zero, -beta, -alpha, ply + 1, extended + 1, code,
                                state, w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
                if value > score:
                    score = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return score
        depth, extended = 1, extended + 1  # an intruder to clear: every answer, one ply more
    elif threatened and extended < state[INTERIOR]:
        depth, extended = depth + 1, extended + 1
    generation = state[GENERATION]
    table_move = 0
    slot = probe(table, generation, m1, m2, m3, t1, t2, t3, side)
    if slot >= 0:
        meta = table[slot, 6]
        table_move = (meta >> 15) & 32767
        if (meta >> 3) & 255 >= depth:
            stored = table[slot, 7]
            flag = ((meta >> 1) & 3) - 1
            score = stored - ply if stored > WON else stored + ply if stored < -WON else stored
            if flag == 0 or (flag > 0 and score >= beta) or (flag < 0 and score <= alpha):
                return score
    pv = beta - alpha > 1
    static = 0
    have_static = False
    if (state[NULL_MOVE] != 0 and not pv and not threatened and depth >= NULL_DEPTH and last != 0
            and popcount(m2) > 2 and beta < WON):
        static = evaluate(m1, m2, m3, t1, t2, t3, side, w)
        have_static = True
        if static >= beta:
            score = -search(t1, t2, t3, m1, m2, m3, side ^ 1, depth - 1 - NULL_REDUCTION, -beta, -beta + 1,
                            ply + 1, extended, zero, state, w, table, killers, history, counters, moves, keys)
            if state[OUT]:
                return 0
            if score >= beta:
                return beta if score > WON else score
    row = moves[ply]
    order = keys[ply]
    n = generate(m1, m2, m3, t1, t2, t3, side, row)
    if threatened:  # only a sacrifice or a fire at the intruder saves the game
        kept = 0
        for i in range(n):
            code = row[i]
            if code >= KIND_BASE and MOVE_TARGET[code] == intruders:
                row[kept] = code
                kept += 1
        if kept == 0:
            return -(WIN - ply - 1)
        n = kept
    elif n == 0:
        return -(WIN - ply)  # MS-7: no legal action loses
    prune = False
    if state[FUTILE] != 0 and depth == 1 and not pv and not threatened:
        if not have_static:
            static = evaluate(m1, m2, m3, t1, t2, t3, side, w)
        prune = static + FUTILITY <= alpha
    killer0, killer1 = killers[ply, 0], killers[ply, 1]
    counter = counters[side, last]
    close = CLOSE_ROWS[side]
    for i in range(n):
        code = row[i]
        if code == table_move:
            key = 1 << 50
        elif _intrudes(code, m1, t1, side):
            key = 1 << 45
        elif code >= KIND_BASE and MOVE_TARGET[code] & t1:
            key = (1 << 42) + history[side, code]
        elif (MOVE_SOURCE[code] | MOVE_TARGET[code]) & close:
            key = (1 << 41) + history[side, code]
        elif code == killer0:
            key = 1 << 40
        elif code == killer1:
            key = 1 << 39
        elif code == counter:
            key = 1 << 38
        else:
            key = history[side, code]
        j = i  # a stable insertion, highest key first
        while j > 0 and order[j - 1] < key:
            order[j] = order[j - 1]
            row[j] = row[j - 1]
            j -= 1
        order[j] = key
        row[j] = code
    original_alpha = alpha
    best_score = -WIN - 1
    best_move = row[0]
    reduce = state[REDUCE] != 0 and depth >= LMR_DEPTH and not threatened
    for i in range(n):
        code = row[i]
        key = order[i]
        if prune and i and key < 1 << 38:
            continue
        c1, c2, c3, c4, c5, c6 = play(m1, m2, m3, t1, t2, t3, code)
        if i == 0:
            score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, -beta, -alpha, ply + 1, extended, code,
                            state, w, table, killers, history, counters, moves, keys)
            if state[OUT]:
                return 0
        else:
            reduction = 0
            if reduce and i >= LMR_AFTER and key < 1 << 38:
                reduction = 2 if i >= LMR_MORE and depth >= 5 else 1
            score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                            extended, code, state, w, table, killers, history, counters, moves, keys)
            if state[OUT]:
                return 0
            if score > alpha and reduction:
                score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, -alpha - 1, -alpha, ply + 1,
                                extended, code, state, w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
            if alpha < score < beta:
                score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, -beta, -alpha, ply + 1, extended,
                                code, state, w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
        if score > best_score:
            best_score, best_move = score, code
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if key < 1 << 41:
                        if code != killers[ply, 0]:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = code
                        counters[side, last] = code
                    history[side, code] += depth * depth
                    break
    if best_score == -WIN - 1:  # every move pruned: the evaluation stands
        return static
    flag = 1 if best_score >= beta else -1 if best_score <= original_alpha else 0
    if state[TABLE]:
        stored = best_score + ply if best_score > WON else best_score - ply if best_score < -WON else best_score
        store(table, generation, m1, m2, m3, t1, t2, t3, side, depth, stored, flag, best_move)
    return best_score


@njit(cache=True, nogil=True)
def root(m1, m2, m3, t1, t2, t3, side, root_moves, depth, alpha, beta, state, w, table, killers, history,
         counters, moves, keys):
    """(best score, best move) over ``root_moves`` in their order; the move that last raised alpha in
    ``state[PARTIAL]`` (-1: none yet), for a search the clock stops."""
    zero, one = np.int64(0), np.int64(1)
    best = root_moves[0]
    best_score = -WIN - 1
    state[PARTIAL] = -1
    for i in range(root_moves.shape[0]):
        code = root_moves[i]
        c1, c2, c3, c4, c5, c6 = play(m1, m2, m3, t1, t2, t3, code)
        if i:
            score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, -alpha - 1, -alpha, one, zero, code,
                            state, w, table, killers, history, counters, moves, keys)
            if state[OUT]:
                return best_score, best
            if alpha < score < beta:
                score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, -beta, -alpha, one, zero, code, state,
                                w, table, killers, history, counters, moves, keys)
        else:
            score = -search(c1, c2, c3, c4, c5, c6, side ^ 1, depth - 1, -beta, -alpha, one, zero, code, state, w,
                            table, killers, history, counters, moves, keys)
        if state[OUT]:
            return best_score, best
        if score > best_score:
            best_score, best = score, code
        if score > alpha:
            alpha = score
            state[PARTIAL] = code
            if alpha >= beta:
                break
    return best_score, best


# -- the state of a search --------------------------------------------------------------------------------------

_spare: list[list] = []  # tables no core holds now, each with its last generation


def table() -> list:
    """A transposition table no other core holds (``TABLE_BYTES``: a spare one, or made now) with a new generation
    for one decision. ``list.pop`` takes it atomically, so searches in several threads never share one."""
    try:
        held = _spare.pop()
    except IndexError:
        table = np.empty((TABLE_SIZE, TABLE_COLUMNS), dtype=np.int64)
        table.fill(0)  # every page now, not at the search's first touches
        held = [table, 0]
    held[1] += 1
    return held


class Core:
    """The arrays of one decision's search (killers, history and counter-moves, buffers, the table)."""

    def __init__(self, weights: tuple[int, ...], *, null_move: bool, futility: bool, reductions: bool,
                 table_on: bool, interior: int):
        self.weights = np.array(weights, dtype=np.int64)
        self.state = np.zeros(STATE, dtype=np.int64)
        held = table()
        self.table, self.state[GENERATION] = held
        weakref.finalize(self, _spare.append, held)  # a spare again once this decision is over
        self.number = self.state[OWNER] = next(_numbers)
        self.state[NULL_MOVE], self.state[FUTILE], self.state[REDUCE] = null_move, futility, reductions
        self.state[TABLE], self.state[INTERIOR] = table_on, interior
        self.killers = np.zeros((PLIES, 2), dtype=np.int64)
        self.history = np.zeros((2, CODES), dtype=np.int64)
        self.counters = np.zeros((2, CODES), dtype=np.int64)
        self.moves = np.zeros((PLIES + 8, MOVE_ROOM), dtype=np.int64)
        self.keys = np.zeros((PLIES + 8, MOVE_ROOM), dtype=np.int64)

    def root(self, owner, pos, root_moves: np.ndarray, depth: int, alpha: int, beta: int) -> tuple[int, int]:
        """One root search of ``owner`` (whose ``clock``, ``deadline`` and ``checked`` the clock checks read)."""
        _running[self.number] = owner
        try:
            return root(*pos, root_moves, depth, alpha, beta, self.state, self.weights, self.table, self.killers,
                        self.history, self.counters, self.moves, self.keys)
        finally:
            del _running[self.number]

    def search(self, owner, pos, depth: int, alpha: int, beta: int) -> int:
        """One node's search at ply 1 (no extension yet, no previous move)."""
        _running[self.number] = owner
        try:
            return search(*pos, depth, alpha, beta, 1, 0, 0, self.state, self.weights, self.table, self.killers,
                          self.history, self.counters, self.moves, self.keys)
        finally:
            del _running[self.number]

    def stored_depth(self, pos) -> int | None:
        """The depth this decision's table holds ``pos`` at, or None."""
        slot = probe(self.table, self.state[GENERATION], *pos)
        return None if slot < 0 else int((self.table[slot, 6] >> 3) & 255)


class _Unlimited:
    clock = staticmethod(lambda: 0.0)
    deadline = float("inf")
    checked = 0.0


def warm_up(weights: tuple[int, ...]) -> None:
    """Compile (or load from numba's cache) every function: a depth-3 search from a position with catapults,
    reading the clock once (numba compiles an object-mode block when it first runs and does not cache it)."""
    from domain.murus.board import start_position

    m1, m2, _, t1, t2, _, side = start_position()
    pos = (m1 | 1 << 19, m2 | 1 << 19, 1 << 19, t1, t2, 1 << 51, side)  # a catapult each: every kind of move
    core = Core(weights, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    buffer = np.zeros(MOVE_ROOM, dtype=np.int64)
    n = generate(*pos, buffer)
    core.state[NODES] = TIME_CHECK  # the first node reads the clock (compiling the object-mode block)
    core.root(_Unlimited, pos, buffer[:n].copy(), 3, -WIN - 1, WIN + 1)
    evaluate(*pos, core.weights)
    probe(core.table, core.state[GENERATION], *pos)
    perft(*pos, 2, np.zeros((3, MOVE_ROOM), dtype=np.int64))

