"""The compiled core of hard's basic-game Murus search: ``domain/ai/murus_search.py``'s search and evaluation,
written again for numba (``@njit(cache=True)``) on 64-bit integers and preallocated arrays.

The same algorithm, step for step, as the pure-Python reference (``PySearch``, in
``tests/oracles/murus_pysearch.py``; the tests compare both at fixed depths: the same scores, moves and node
counts): the same move generation order, the same ordering keys (sorted stably, as Python's sort), the same
pruning, reductions and extensions, the same evaluation. What differs is only how the state is kept:

- the transposition table is an array (``TABLE_SIZE`` slots of six integers: the board's four planes, one word
  for side, depth, bound, move and the decision's generation, and the score), probed linearly over
  ``PROBES`` slots from a hash of the board; each entry holds the whole board, so a hit is the same board, and a
  slot of another decision (another generation) counts as empty, so a table is reused without clearing it. While
  a probe window has room it behaves as the Python dict (a board is found, overwritten or added); a full window
  replaces its shallowest entry;
- killers, history and counter-moves are arrays indexed by ply, side and move code; each ply has its own rows of
  the move and key buffers;
- the clock stays Python's: every ``TIME_CHECK`` + 1 nodes the search calls ``_tick`` (numba's object mode), which
  reads the injected clock of the search whose core is running (its number in the state array) and says whether
  two more intervals like the last would pass the deadline; the search then unwinds (``OUT`` in the state array),
  as ``PySearch``'s ``OutOfTime`` does. Between clock readings it runs without the GIL (``nogil``).

Compilation: ``cache=True`` keeps the machine code on disk (next to this file, or in ``NUMBA_CACHE_DIR``);
``warm_up`` compiles or loads every function on a tiny search, and ``domain/ai/murus_search.py`` calls it when it
is imported, so no move's budget pays for it.
"""

from __future__ import annotations

import itertools
import weakref

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.core import cgutils
from numba.extending import intrinsic

from domain.murus.board import COLS, FULL, GOAL_ROW, ROW_MASKS, ROWS, STEPS

WIN = 1_000_000
WON = WIN - 1_000
MAX_PLY = 100
MAX_EXTENSIONS = 6
DOUBLE_THREAT = 500
NULL_DEPTH, NULL_REDUCTION = 3, 2
FUTILITY = 250
LMR_DEPTH, LMR_AFTER, LMR_MORE = 3, 3, 10
SACRIFICE = 4096
TIME_CHECK = 2047
"""The clock is read every 2,048 nodes (about 1.5 ms at the core's speed)."""
PLIES = 128
"""Rows of the per-ply buffers (the deepest line: ``MAX_PLY`` plus its extensions)."""
MOVE_ROOM = 160
"""A side has at most eight towers, each with at most eight distributions and eight sacrifices."""
TABLE_BITS = 20
TABLE_SIZE = 1 << TABLE_BITS
PROBES = 8

# The state array of one search (``Search.state``).
NODES, OUT, GENERATION, PARTIAL, NULL_MOVE, FUTILE, REDUCE, TABLE, INTERIOR, OWNER = range(10)
STATE = 10

# -- geometry, as arrays ----------------------------------------------------------------------------------------
_HAS2 = {offset: has2 for offset, _, has2 in STEPS}
DIR_OFFSET = np.array([offset for offset, _, _ in STEPS], dtype=np.int64)
DIR_HAS1 = np.array([has1 for _, has1, _ in STEPS], dtype=np.int64)
DIR_HAS2 = np.array([has2 for _, _, has2 in STEPS], dtype=np.int64)
_BY_DISTANCE = (tuple(reversed(ROW_MASKS)), tuple(ROW_MASKS))
BY_DISTANCE = np.array(_BY_DISTANCE, dtype=np.int64)
THREAT_ROW = np.array([rows[2] for rows in _BY_DISTANCE], dtype=np.int64)
CLOSE_ROWS = np.array([rows[0] | rows[1] | rows[2] for rows in _BY_DISTANCE], dtype=np.int64)
GOAL = np.array(GOAL_ROW, dtype=np.int64)
H_E, H_W, H_N, H_S = _HAS2[1], _HAS2[-1], _HAS2[8], _HAS2[-8]
H_NE, H_SW, H_NW, H_SE = _HAS2[9], _HAS2[-9], _HAS2[7], _HAS2[-7]

MOVE_SOURCE = np.zeros(2 * SACRIFICE, dtype=np.int64)
MOVE_CELLS = np.zeros(2 * SACRIFICE, dtype=np.int64)
for _offset, _has1, _has2 in STEPS:
    for _frm in range(COLS * ROWS):
        if _has2 >> _frm & 1:
            MOVE_SOURCE[65 * _frm + 2 * _offset] = 1 << _frm
            MOVE_CELLS[65 * _frm + 2 * _offset] = (1 << (_frm + _offset)) | (1 << (_frm + 2 * _offset))
        if _has1 >> _frm & 1:
            MOVE_SOURCE[SACRIFICE + 65 * _frm + _offset] = 1 << _frm
            MOVE_CELLS[SACRIFICE + 65 * _frm + _offset] = 1 << (_frm + _offset)


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


HASH_1, HASH_2, HASH_3, HASH_4 = (_signed(0x9E3779B97F4A7C15), _signed(0xC2B2AE3D27D4EB4F),
                                  _signed(0x165667B19E3779F9), _signed(0xD6E8FEB86659FD93))
HASH_SIDE = 0x5BD1E995


# -- bit intrinsics ---------------------------------------------------------------------------------------------

@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an int64 (LLVM's ctpop: one instruction)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def lowest(typingctx, x):
    """The index of an int64's lowest set bit (LLVM's cttz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]),
                                            "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


# -- the clock --------------------------------------------------------------------------------------------------

_running: dict[int, object] = {}  # the searches running now, by their cores' numbers (``state[OWNER]``)


def _tick(owner: int) -> int:
    """1 if the search of core ``owner`` must stop (two more intervals like the last would pass its deadline),
    else 0; the Python search's rule."""
    search = _running[owner]
    now = search.clock()
    if 3 * now - 2 * search.checked >= search.deadline:
        return 1
    search.checked = now
    return 0


# -- board ------------------------------------------------------------------------------------------------------

@njit(cache=True)
def breakers(towers, landing, side):
    """Those of ``side``'s ``towers`` that put a stone on the goal row with one distribution over ``landing``."""
    towers &= THREAT_ROW[side]
    if towers == 0:
        return 0
    goal = landing & GOAL[side]
    if side == 0:
        return towers & ((H_NW & (landing >> 7) & (goal >> 14)) | (H_N & (landing >> 8) & (goal >> 16))
                         | (H_NE & (landing >> 9) & (goal >> 18)))
    return towers & ((H_SE & (landing << 7) & (goal << 14)) | (H_S & (landing << 8) & (goal << 16))
                     | (H_SW & (landing << 9) & (goal << 18)))


@njit(cache=True)
def generate(m1, m2, t1, t2, out):
    """The side to move's legal move codes into ``out`` (as ``murus_search.generate`` orders them); their
    number."""
    n = 0
    landing = FULL & ~(t1 | m2)
    walls = t1 & ~t2
    for d in range(8):
        offset = DIR_OFFSET[d]
        if offset > 0:
            can = m2 & DIR_HAS2[d] & (landing >> offset) & (landing >> (2 * offset))
            cap = m2 & DIR_HAS1[d] & (walls >> offset)
        else:
            can = m2 & DIR_HAS2[d] & (landing << -offset) & (landing << (-2 * offset))
            cap = m2 & DIR_HAS1[d] & (walls << -offset)
        while can:
            out[n] = 65 * lowest(can) + 2 * offset
            n += 1
            can &= can - 1
        while cap:
            out[n] = SACRIFICE + 65 * lowest(cap) + offset
            n += 1
            cap &= cap - 1
    return n


# -- evaluation -------------------------------------------------------------------------------------------------

@njit(cache=True)
def side_score(p1, p2, e1, e2, side, w):
    """One side's weighted counts (``murus_search.side_features`` times ``w``) and its breakers."""
    walls = p1 & ~p2
    score = 0
    for d in range(6):
        rows = BY_DISTANCE[side, d + 1]
        score += w[d] * popcount(walls & rows) + w[6 + d] * popcount(p2 & rows)
    landing = FULL & ~(e1 | p2)
    e = landing & (landing >> 1)
    n = landing & (landing >> 8)
    ne = landing & (landing >> 9)
    nw = landing & (landing >> 7)
    moves = (popcount(p2 & H_E & (e >> 1)) + popcount(p2 & H_W & (e << 2))
             + popcount(p2 & H_N & (n >> 8)) + popcount(p2 & H_S & (n << 16))
             + popcount(p2 & H_NE & (ne >> 9)) + popcount(p2 & H_SW & (ne << 18))
             + popcount(p2 & H_NW & (nw >> 7)) + popcount(p2 & H_SE & (nw << 14)))
    threat_row = THREAT_ROW[side]
    raising, opening, open_raising, sacrificing = w[15], w[16], w[17], w[18]
    if raising or open_raising or sacrificing:
        enemy_walls = e1 & ~e2
        reach = 0
        sacrifices = 0
        for d in range(8):
            offset = DIR_OFFSET[d]
            if offset > 0:
                can = p2 & DIR_HAS2[d] & (landing >> offset) & (landing >> (2 * offset))
                reach |= (can << offset) | (can << (2 * offset))
                sacrifices += popcount(p2 & DIR_HAS1[d] & (enemy_walls >> offset))
            else:
                can = p2 & DIR_HAS2[d] & (landing << -offset) & (landing << (-2 * offset))
                reach |= (can >> -offset) | (can >> (-2 * offset))
                sacrifices += popcount(p2 & DIR_HAS1[d] & (enemy_walls << -offset))
        raisable = reach & walls & threat_row
        open_cells = breakers(threat_row, landing, side)
        score += (raising * popcount(raisable) + opening * popcount(open_cells)
                  + open_raising * popcount(raisable & open_cells) + sacrificing * sacrifices)
    elif opening:
        score += opening * popcount(breakers(threat_row, landing, side))
    if moves:
        score += w[12] * moves
    else:
        score += w[13]
    threats = popcount(breakers(p2, landing, side))
    score += w[14] * threats
    return score, threats


@njit(cache=True, nogil=True)
def evaluate(m1, m2, t1, t2, side, w):
    """``PySearch.evaluate``: mine minus theirs, the side to move's bonus, the double threat."""
    mine, _ = side_score(m1, m2, t1, t2, side, w)
    theirs, threats = side_score(t1, t2, m1, m2, side ^ 1, w)
    score = mine - theirs + w[19]
    if threats > 1:
        score -= DOUBLE_THREAT
    return score


# -- the transposition table ------------------------------------------------------------------------------------

@njit(cache=True)
def _slot(m1, m2, t1, t2, side):
    h = m1 * HASH_1 ^ m2 * HASH_2 ^ t1 * HASH_3 ^ t2 * HASH_4 ^ side * HASH_SIDE
    h ^= h >> 29
    h *= HASH_1
    h ^= h >> 32
    return h & (TABLE_SIZE - 1)


@njit(cache=True)
def probe(table, generation, m1, m2, t1, t2, side):
    """The slot holding this board in this generation, or -1."""
    start = _slot(m1, m2, t1, t2, side)
    for k in range(PROBES):
        i = (start + k) & (TABLE_SIZE - 1)
        meta = table[i, 4]
        if meta >> 25 != generation:
            return -1  # a free slot: the board would be here or before
        if (table[i, 0] == m1 and table[i, 1] == m2 and table[i, 2] == t1 and table[i, 3] == t2
                and meta & 1 == side):
            return i
    return -1


@njit(cache=True)
def store(table, generation, m1, m2, t1, t2, side, depth, score, flag, move):
    start = _slot(m1, m2, t1, t2, side)
    chosen = -1
    shallowest = 1 << 30
    for k in range(PROBES):
        i = (start + k) & (TABLE_SIZE - 1)
        meta = table[i, 4]
        if meta >> 25 != generation:
            chosen = i
            break
        if (table[i, 0] == m1 and table[i, 1] == m2 and table[i, 2] == t1 and table[i, 3] == t2
                and meta & 1 == side):
            chosen = i
            break
        entry_depth = (meta >> 3) & 255
        if entry_depth < shallowest:
            shallowest, chosen = entry_depth, i
    table[chosen, 0] = m1
    table[chosen, 1] = m2
    table[chosen, 2] = t1
    table[chosen, 3] = t2
    table[chosen, 4] = (generation << 25) | (move << 11) | (depth << 3) | ((flag + 1) << 1) | side
    table[chosen, 5] = score


# -- search -----------------------------------------------------------------------------------------------------

_I = types.int64
_V = types.Array(types.int64, 1, "C")
_M = types.Array(types.int64, 2, "C")


@njit(_I(_I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _V, _V, _M, _M, _M, _M, _M, _M), cache=True, nogil=True)
def search(m1, m2, t1, t2, side, depth, alpha, beta, ply, extended, last, state, w, table, killers, history,
           counters, moves, keys):
    """``PySearch._search`` (and its ``_quiesce``, at a quiet leaf). Returns 0 with ``state[OUT]``
    set when the clock says stop."""
    zero = np.int64(0)  # not a literal: a literal argument to the recursive call would compile another version
    state[NODES] += 1
    if state[NODES] & TIME_CHECK == 0:
        owner = state[OWNER]
        with objmode(out="int64"):
            out = _tick(owner)
        if out:
            state[OUT] = 1
            return 0
    if breakers(m2, FULL & ~(t1 | m2), side) != 0:
        return WIN - ply - 1  # we break through now
    threatened = breakers(t2, FULL & ~(m1 | t2), side ^ 1) != 0
    if depth <= 0:
        if not threatened or extended >= MAX_EXTENSIONS:
            # the threat quiescence
            score = evaluate(m1, m2, t1, t2, side, w)
            if score >= beta or extended >= MAX_EXTENSIONS:
                return score
            walls = m1 & ~m2 & THREAT_ROW[side]
            close = CLOSE_ROWS[side]
            if walls == 0 and m2 & close == 0:
                return score
            if score > alpha:
                alpha = score
            row = moves[ply]
            n = generate(m1, m2, t1, t2, row)
            for i in range(n):
                code = row[i]
                src = MOVE_SOURCE[code]
                cells = MOVE_CELLS[code]
                distribution = code < SACRIFICE
                if src & close == 0 and not (distribution and cells & walls != 0):
                    continue
                if distribution:
                    c1, c2, c3, c4 = t1, t2, (m1 & ~src) | cells, (m2 & ~src) | (m1 & cells)
                else:
                    c1, c2, c3, c4 = t1 & ~cells, t2, m1, m2 & ~src
                if breakers(c4, FULL & ~(c1 | c4), side) == 0:
                    continue
                value = -search(c1, c2, c3, c4, side ^ 1, zero, -beta, -alpha, ply + 1, extended + 1, code, state,
                                w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
                if value > score:
                    score = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return score
        depth, extended = 1, extended + 1  # a threat to answer: every reply, one ply more
    elif threatened and extended < state[INTERIOR]:
        depth, extended = depth + 1, extended + 1
    generation = state[GENERATION]
    table_move = 0
    slot = probe(table, generation, m1, m2, t1, t2, side)
    if slot >= 0:
        meta = table[slot, 4]
        table_move = (meta >> 11) & 16383
        if (meta >> 3) & 255 >= depth:
            stored = table[slot, 5]
            flag = ((meta >> 1) & 3) - 1
            if stored > WON:
                score = stored - ply
            elif stored < -WON:
                score = stored + ply
            else:
                score = stored
            if flag == 0 or (flag > 0 and score >= beta) or (flag < 0 and score <= alpha):
                return score
    pv = beta - alpha > 1
    static = 0
    have_static = False
    if (state[NULL_MOVE] != 0 and not pv and not threatened and depth >= NULL_DEPTH and last != 0
            and popcount(m2) > 2 and beta < WON):
        static = evaluate(m1, m2, t1, t2, side, w)
        have_static = True
        if static >= beta:
            score = -search(t1, t2, m1, m2, side ^ 1, depth - 1 - NULL_REDUCTION, -beta, -beta + 1, ply + 1,
                            extended, zero, state, w, table, killers, history, counters, moves, keys)
            if state[OUT]:
                return 0
            if score >= beta:
                return beta if score > WON else score
    first = 0
    have_first = False
    if table_move:
        src = MOVE_SOURCE[table_move]
        cells = MOVE_CELLS[table_move]
        if table_move < SACRIFICE:
            c1, c2, c3, c4 = t1, t2, (m1 & ~src) | cells, (m2 & ~src) | (m1 & cells)
        else:
            c1, c2, c3, c4 = t1 & ~cells, t2, m1, m2 & ~src
        first = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -beta, -alpha, ply + 1, extended, table_move, state,
                        w, table, killers, history, counters, moves, keys)
        if state[OUT]:
            return 0
        have_first = True
        if first >= beta:
            if table_move < SACRIFICE:
                if table_move != killers[ply, 0]:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = table_move
                counters[side, last] = table_move
            history[side, table_move] += depth * depth
            if state[TABLE]:
                stored = first + ply if first > WON else first - ply if first < -WON else first
                store(table, generation, m1, m2, t1, t2, side, depth, stored, zero + 1, table_move)
            return first
    row = moves[ply]
    order = keys[ply]
    n = generate(m1, m2, t1, t2, row)
    if n == 0:
        return -(WIN - ply)  # stalemate: no legal move loses
    prune = False
    if state[FUTILE] != 0 and depth == 1 and not pv and not threatened:
        if not have_static:
            static = evaluate(m1, m2, t1, t2, side, w)
            have_static = True
        prune = static + FUTILITY <= alpha
    killer0, killer1 = killers[ply, 0], killers[ply, 1]
    counter = counters[side, last]
    near = THREAT_ROW[side] & m1 & ~m2
    close = CLOSE_ROWS[side] & m2
    for i in range(n):
        code = row[i]
        if code >= SACRIFICE:
            key = 1 << 42
        elif MOVE_CELLS[code] & near != 0 or MOVE_SOURCE[code] & close != 0:
            key = (1 << 41) + history[side, code]
        elif code == killer0:
            key = 1 << 40
        elif code == killer1:
            key = 1 << 39
        elif code == counter:
            key = 1 << 38
        else:
            key = history[side, code]
        if code == table_move:
            key = 1 << 50
        # a stable insertion, highest key first (as Python's sort with reverse=True)
        j = i
        while j > 0 and order[j - 1] < key:
            order[j] = order[j - 1]
            row[j] = row[j - 1]
            j -= 1
        order[j] = key
        row[j] = code
    original_alpha = alpha
    best_score = -WIN - 1
    best_move = row[0]
    reduce = state[REDUCE] != 0 and depth >= LMR_DEPTH
    for i in range(n):
        code = row[i]
        key = order[i]
        if prune and i and key < 1 << 38:
            continue
        src = MOVE_SOURCE[code]
        cells = MOVE_CELLS[code]
        if code < SACRIFICE:
            c1, c2, c3, c4 = t1, t2, (m1 & ~src) | cells, (m2 & ~src) | (m1 & cells)
        else:
            c1, c2, c3, c4 = t1 & ~cells, t2, m1, m2 & ~src
        if i == 0:
            if have_first:
                score = first
            else:
                score = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -beta, -alpha, ply + 1, extended, code, state,
                                w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
        else:
            reduction = 0
            if reduce and i >= LMR_AFTER and key < 1 << 38:
                reduction = 2 if i >= LMR_MORE and depth >= 5 else 1
            score = -search(c1, c2, c3, c4, side ^ 1, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, extended,
                            code, state, w, table, killers, history, counters, moves, keys)
            if state[OUT]:
                return 0
            if score > alpha and reduction:
                score = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -alpha - 1, -alpha, ply + 1, extended, code,
                                state, w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
            if alpha < score < beta:
                score = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -beta, -alpha, ply + 1, extended, code, state,
                                w, table, killers, history, counters, moves, keys)
                if state[OUT]:
                    return 0
        if score > best_score:
            best_score, best_move = score, code
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if code < SACRIFICE:
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
        store(table, generation, m1, m2, t1, t2, side, depth, stored, flag, best_move)
    return best_score


@njit(cache=True, nogil=True)
def root(m1, m2, t1, t2, side, root_moves, depth, alpha, beta, state, w, table, killers, history, counters, moves,
         keys):
    """``PySearch._root``: (best score, best move) over ``root_moves`` in their order; the move
    that last raised alpha in ``state[PARTIAL]`` (-1: none yet), for a search the clock stops."""
    zero, one = np.int64(0), np.int64(1)
    best = root_moves[0]
    best_score = -WIN - 1
    state[PARTIAL] = -1
    for i in range(root_moves.shape[0]):
        code = root_moves[i]
        src = MOVE_SOURCE[code]
        cells = MOVE_CELLS[code]
        if code < SACRIFICE:
            c1, c2, c3, c4 = t1, t2, (m1 & ~src) | cells, (m2 & ~src) | (m1 & cells)
        else:
            c1, c2, c3, c4 = t1 & ~cells, t2, m1, m2 & ~src
        if i:
            score = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -alpha - 1, -alpha, one, zero, code, state, w,
                            table, killers, history, counters, moves, keys)
            if state[OUT]:
                return best_score, best
            if alpha < score < beta:
                score = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -beta, -alpha, one, zero, code, state, w,
                                table, killers, history, counters, moves, keys)
        else:
            score = -search(c1, c2, c3, c4, side ^ 1, depth - 1, -beta, -alpha, one, zero, code, state, w, table,
                            killers, history, counters, moves, keys)
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

_spare: list[list] = []  # transposition tables no core holds now, each with its last generation
_numbers = itertools.count(1)


def table() -> list:
    """A transposition table no other core holds (48 MB: a spare one, or made now) with a new generation for one
    decision (its slots of earlier decisions count as empty). ``list.pop`` takes it atomically, so searches in
    several threads never share one."""
    try:
        held = _spare.pop()
    except IndexError:
        table = np.empty((TABLE_SIZE, 6), dtype=np.int64)
        table.fill(0)  # every page now, not at the search's first touches (a page fault each, some 0.1 s in all)
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
        weakref.finalize(self, _spare.append, held)  # the table is a spare again once this decision is over
        self.number = self.state[OWNER] = next(_numbers)
        self.state[NULL_MOVE], self.state[FUTILE], self.state[REDUCE] = null_move, futility, reductions
        self.state[TABLE], self.state[INTERIOR] = table_on, interior
        self.killers = np.zeros((PLIES, 2), dtype=np.int64)
        self.history = np.zeros((2, 2 * SACRIFICE), dtype=np.int64)
        self.counters = np.zeros((2, 2 * SACRIFICE), dtype=np.int64)
        self.moves = np.zeros((PLIES + 8, MOVE_ROOM), dtype=np.int64)
        self.keys = np.zeros((PLIES + 8, MOVE_ROOM), dtype=np.int64)

    def root(self, owner, board, root_moves: np.ndarray, depth: int, alpha: int, beta: int) -> tuple[int, int]:
        """One root search of ``owner`` (whose ``clock``, ``deadline`` and ``checked`` the clock checks read)."""
        m1, m2, t1, t2, side = board
        _running[self.number] = owner
        try:
            return root(m1, m2, t1, t2, side, root_moves, depth, alpha, beta, self.state, self.weights, self.table,
                        self.killers, self.history, self.counters, self.moves, self.keys)
        finally:
            del _running[self.number]

    def search(self, owner, board, depth: int, alpha: int, beta: int, ply: int, extended: int, last: int) -> int:
        m1, m2, t1, t2, side = board
        _running[self.number] = owner
        try:
            return search(m1, m2, t1, t2, side, depth, alpha, beta, ply, extended, last, self.state, self.weights,
                          self.table, self.killers, self.history, self.counters, self.moves, self.keys)
        finally:
            del _running[self.number]

    def stored_depth(self, board) -> int | None:
        """The depth this decision's table holds ``board`` at, or None."""
        slot = probe(self.table, self.state[GENERATION], *board)
        return None if slot < 0 else int((self.table[slot, 4] >> 3) & 255)


class _Unlimited:
    clock = staticmethod(lambda: 0.0)
    deadline = float("inf")
    checked = 0.0


def warm_up(weights: tuple[int, ...]) -> None:
    """Compile (or load from numba's cache) every function: a depth-3 search of the start position, reading the
    clock once (numba compiles an object-mode block when it first runs, about 0.1 s, and does not cache it)."""
    from domain.murus.board import start_position

    m1, m2, _, t1, t2, _, side = start_position()
    core = Core(weights, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    buffer = np.zeros(MOVE_ROOM, dtype=np.int64)
    n = generate(m1, m2, t1, t2, buffer)
    core.state[NODES] = TIME_CHECK  # the first node reads the clock (compiling the object-mode block)
    core.root(_Unlimited, (m1, m2, t1, t2, side), buffer[:n].copy(), 3, -WIN - 1, WIN + 1)
    evaluate(m1, m2, t1, t2, side, core.weights)
    probe(core.table, core.state[GENERATION], m1, m2, t1, t2, side)
