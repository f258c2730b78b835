"""Murus Gallicus on bitboards: positions, move generation, moves applied, game end, perft.

A position is a tuple ``(m1, m2, m3, t1, t2, t3, side)``. Bit ``8 * row + col`` of ``m<k>`` is set where the
side to move has at least ``k`` stones, ``t<k>`` the same for the other side (nested planes: m3 ⊆ m2 ⊆ m1, so a
wall is ``m1 & ~m2``, a tower ``m2 & ~m3``, a catapult ``m3``). ``side`` is ``ROMANS`` (0) or ``GAULS`` (1).
Keeping the mover first makes the generator colour-blind except for "forward" (fire) and the home rows.

A move is a tuple ``(kind, frm, to)`` of cell indices: for a distribution ``to`` is the far cell, for a sacrifice
the enemy stack, for a fire the target. ``advanced`` selects the catapult rules (MS-A1…MS-A4).
"""

from __future__ import annotations

from collections.abc import Iterator

COLS, ROWS = 8, 7
CELLS = COLS * ROWS
FULL = (1 << CELLS) - 1
ROMANS, GAULS = 0, 1

DISTRIBUTE, SACRIFICE, DOUBLE_SACRIFICE, FIRE = 0, 1, 2, 3
OPERATORS = ("-", "x", "xx", "*")
"""Notation of each move kind, indexed by kind."""

Position = tuple[int, int, int, int, int, int, int]
Move = tuple[int, int, int]
SIDE = 6
"""The index of the side to move in a ``Position``."""
KIND = 0
"""The index of the kind (``DISTRIBUTE`` …) in a ``Move``."""

ROW_MASKS = tuple(0xFF << (COLS * row) for row in range(ROWS))
HOME_ROW = (ROW_MASKS[0], ROW_MASKS[ROWS - 1])
"""Each side's home row, by side."""
GOAL_ROW = (HOME_ROW[GAULS], HOME_ROW[ROMANS])
"""The row each side must reach (the other side's home), by side."""
FORWARD = (1, -1)
"""Row step toward the enemy home row, by side."""

KING_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _cells_with_target(dc: int, dr: int, distance: int) -> int:
    """Mask of the cells from which ``distance`` steps of (dc, dr) stay on the board."""
    mask = 0
    for row in range(ROWS):
        for col in range(COLS):
            if 0 <= col + dc * distance < COLS and 0 <= row + dr * distance < ROWS:
                mask |= 1 << (COLS * row + col)
    return mask


# Per direction: (offset, cells with a neighbour that way, cells with a second cell that way).
STEPS = tuple((COLS * dr + dc, _cells_with_target(dc, dr, 1), _cells_with_target(dc, dr, 2))
              for dc, dr in KING_STEPS)

# Per side, per fire direction (left, right, forward, forward-left, forward-right) and range 2 or 3:
# (offset, cells whose target at that range is on the board).
FIRE_STEPS = tuple(
    tuple(
        (k * (COLS * dr + dc), _cells_with_target(dc, dr, k))
        for dc, dr in ((-1, 0), (1, 0), (0, fwd), (-1, fwd), (1, fwd))
        for k in (2, 3)
    )
    for fwd in FORWARD
)

NEIGHBOURS = tuple(
    sum(1 << (COLS * (i // COLS + dr) + i % COLS + dc) for dc, dr in KING_STEPS
        if 0 <= i % COLS + dc < COLS and 0 <= i // COLS + dr < ROWS)
    for i in range(CELLS)
)
"""8-neighbourhood mask of every cell."""


def start_position() -> Position:
    """MS-1: a Roman tower on every cell of row 1, a Gaul tower on every cell of row 7, Romans to move."""
    romans, gauls = HOME_ROW
    return (romans, romans, 0, gauls, gauls, 0, ROMANS)


def _bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_LIFT = 2 * (COLS + 1)
"""Planes are shifted up by this many bits so that a look back along a step is one right shift (``_GEN_STEPS``)."""
_GEN_STEPS = tuple((offset, 2 * offset, _LIFT + offset, _LIFT + 2 * offset, has1, has2)
                   for offset, has1, has2 in STEPS)
"""``STEPS`` for the generator: (offset, 2 × offset, right shifts of a lifted plane seen 1 and 2 steps away, has1,
has2): bit i of ``(bits << _LIFT) >> (_LIFT + k * offset)`` is bit ``i + k * offset`` of ``bits``."""
_FIRE_LIFT = 3 * (COLS + 1)
_GEN_FIRE_STEPS = tuple(tuple((offset, _FIRE_LIFT + offset, has) for offset, has in steps) for steps in FIRE_STEPS)
"""``FIRE_STEPS`` with the right shift of a plane lifted by ``_FIRE_LIFT`` bits."""


def generate(pos: Position, advanced: bool) -> list[Move]:
    """Every legal move of the side to move (MS-4, MS-5, MS-A1…MS-A3); empty when stalemated."""
    m1, m2, m3, t1, t2, t3, side = pos
    moves: list[Move] = []
    add = moves.append
    towers = m2 & ~m3
    if towers:
        # Landing cells: empty or own walls (basic), also own towers (advanced); never enemy stones or a full
        # stack.
        landing = (FULL & ~(t1 | (m3 if advanced else m2))) << _LIFT
        enemy_walls = (t1 & ~t2) << _LIFT
        enemy_catapults = t3 << _LIFT
        for offset, double, near_shift, far_shift, has1, has2 in _GEN_STEPS:
            can = towers & has2 & (landing >> near_shift) & (landing >> far_shift)
            while can:
                low = can & -can
                frm = low.bit_length() - 1
                add((DISTRIBUTE, frm, frm + double))
                can ^= low
            near = towers & has1
            can = near & (enemy_walls >> near_shift)
            while can:
                low = can & -can
                frm = low.bit_length() - 1
                add((SACRIFICE, frm, frm + offset))
                can ^= low
            if enemy_catapults:
                can = near & (enemy_catapults >> near_shift)
                while can:
                    low = can & -can
                    frm = low.bit_length() - 1
                    add((SACRIFICE, frm, frm + offset))
                    add((DOUBLE_SACRIFICE, frm, frm + offset))
                    can ^= low
    if m3:
        target = (FULL & ~m1) << _FIRE_LIFT
        for offset, shift, has in _GEN_FIRE_STEPS[side]:
            can = m3 & has & (target >> shift)
            while can:
                low = can & -can
                frm = low.bit_length() - 1
                add((FIRE, frm, frm + offset))
                can ^= low
    return moves


def count_moves(pos: Position, advanced: bool) -> int:
    """``len(generate(pos, advanced))``, counted set-wise without listing the moves."""
    m1, m2, m3, t1, t2, t3, side = pos
    count = 0
    towers = m2 & ~m3
    if towers:
        landing = (FULL & ~(t1 | (m3 if advanced else m2))) << _LIFT
        enemy_walls = (t1 & ~t2) << _LIFT
        catapults = t3 << _LIFT
        for _, _, near_shift, far_shift, has1, has2 in _GEN_STEPS:
            count += (towers & has2 & (landing >> near_shift) & (landing >> far_shift)).bit_count()
            near = towers & has1
            count += (near & (enemy_walls >> near_shift)).bit_count()
            if catapults:
                count += 2 * (near & (catapults >> near_shift)).bit_count()
    if m3:
        target = (FULL & ~m1) << _FIRE_LIFT
        for _, shift, has in _GEN_FIRE_STEPS[side]:
            count += (m3 & has & (target >> shift)).bit_count()
    return count


def has_move(pos: Position, advanced: bool) -> bool:
    """``count_moves(pos, advanced) > 0``, stopping at the first direction that has a move."""
    m1, m2, m3, t1, t2, t3, side = pos
    towers = m2 & ~m3
    if towers:
        landing = (FULL & ~(t1 | (m3 if advanced else m2))) << _LIFT
        victims = ((t1 & ~t2) | t3) << _LIFT  # enemy walls and catapults (a double sacrifice needs a catapult too)
        for _, _, near_shift, far_shift, has1, has2 in _GEN_STEPS:
            if towers & ((has2 & (landing >> near_shift) & (landing >> far_shift))
                         | (has1 & (victims >> near_shift))):
                return True
    if m3:
        target = (FULL & ~m1) << _FIRE_LIFT
        for _, shift, has in _GEN_FIRE_STEPS[side]:
            if m3 & has & (target >> shift):
                return True
    return False


DISTRIBUTE_FROM = {2 * offset: has2 for offset, _, has2 in STEPS}
"""``to - frm`` of a distribution → the cells it may start from."""
ADJACENT_FROM = {offset: has1 for offset, has1, _ in STEPS}
"""``to - frm`` of a (double) sacrifice → the cells it may start from."""
FIRE_FROM = tuple(dict(steps) for steps in FIRE_STEPS)
"""Per side, ``to - frm`` of a fire → the cells it may start from."""


def is_legal(pos: Position, move: Move, advanced: bool) -> bool:
    """``move in generate(pos, advanced)``, checked for this one move without listing the others."""
    m1, m2, m3, t1, t2, t3, side = pos
    kind, frm, to = move
    if not (0 <= frm < CELLS and 0 <= to < CELLS):
        return False
    source, target = 1 << frm, 1 << to
    if kind == FIRE:
        has = FIRE_FROM[side].get(to - frm)
        return has is not None and bool(m3 & has & source) and not m1 & target
    if kind == DISTRIBUTE:
        has2 = DISTRIBUTE_FROM.get(to - frm)
        if has2 is None or not m2 & ~m3 & has2 & source:
            return False
        landing = FULL & ~(t1 | (m3 if advanced else m2))
        return bool(landing & (1 << ((frm + to) >> 1)) and landing & target)
    if kind != SACRIFICE and kind != DOUBLE_SACRIFICE:
        return False
    has1 = ADJACENT_FROM.get(to - frm)
    if has1 is None or not m2 & ~m3 & has1 & source:
        return False
    if kind == SACRIFICE:
        return bool(target & ((t1 & ~t2) | t3))
    return bool(target & t3)


def play(pos: Position, move: Move) -> Position:
    """The position after ``move`` (assumed legal), the other side to move."""
    m1, m2, m3, t1, t2, t3, side = pos
    kind, frm, to = move
    source, target = 1 << frm, 1 << to
    if kind == DISTRIBUTE:
        # One stone onto each of the two cells: every landing cell grows by one (nested planes carry upward).
        landing = (1 << ((frm + to) >> 1)) | target
        m1, m2, m3 = (m1 & ~source) | landing, (m2 & ~source) | (m1 & landing), m3 | (m2 & landing)
    elif kind == SACRIFICE:
        m2 &= ~source
        t1, t2, t3 = _remove_top(t1, t2, t3, target)
    elif kind == DOUBLE_SACRIFICE:
        m1 &= ~source
        m2 &= ~source
        t2 &= ~target
        t3 &= ~target
    else:
        m3 &= ~source
        if t1 & target:
            t1, t2, t3 = _remove_top(t1, t2, t3, target)
        else:
            m1 |= target
    return (t1, t2, t3, m1, m2, m3, side ^ 1)


def _remove_top(p1: int, p2: int, p3: int, cell: int) -> tuple[int, int, int]:
    """Planes with the top stone of ``cell`` removed."""
    if p3 & cell:
        return p1, p2, p3 & ~cell
    if p2 & cell:
        return p1, p2 & ~cell, p3
    return p1 & ~cell, p2, p3


BREAKTHROUGH, HELD, STALEMATE = "breakthrough", "held", "stalemate"


def outcome(pos: Position, advanced: bool) -> tuple[int, str] | None:
    """``(winning side, how)`` if the game is over at the start of this turn, else ``None``.

    ``how`` is ``BREAKTHROUGH`` (MS-6: the side that just moved stands on its goal row; basic only),
    ``HELD`` (MS-A4: the side to move still stands on its goal row; checked before stalemate) or
    ``STALEMATE`` (MS-7: the side to move has no legal action).
    """
    m1, _, _, t1, _, _, side = pos
    if advanced:
        if m1 & GOAL_ROW[side]:
            return side, HELD
    elif t1 & GOAL_ROW[side ^ 1]:
        return side ^ 1, BREAKTHROUGH
    if not has_move(pos, advanced):
        return side ^ 1, STALEMATE
    return None


def perft(pos: Position, depth: int, advanced: bool) -> int:
    """Number of move sequences of exactly ``depth`` plies; a finished game has no moves."""
    if depth == 0:
        return 1
    m1, _, _, t1, _, _, side = pos
    if (m1 & GOAL_ROW[side]) if advanced else (t1 & GOAL_ROW[side ^ 1]):
        return 0
    if depth == 1:
        return count_moves(pos, advanced)
    return sum(perft(play(pos, move), depth - 1, advanced) for move in generate(pos, advanced))


def stacks(pos: Position) -> dict[int, tuple[int, int]]:
    """Every occupied cell index → ``(side, height)``."""
    m1, m2, m3, t1, t2, t3, side = pos
    result = {}
    for owner, (p1, p2, p3) in ((side, (m1, m2, m3)), (side ^ 1, (t1, t2, t3))):
        for i in _bits(p1):
            bit = 1 << i
            result[i] = (owner, 1 + bool(p2 & bit) + bool(p3 & bit))
    return result


def from_stacks(cells: dict[int, tuple[int, int]], side: int) -> Position:
    """The position with these stacks (cell index → ``(owner, height)``) and ``side`` to move."""
    planes = [[0, 0, 0], [0, 0, 0]]
    for i, (owner, height) in cells.items():
        for level in range(height):
            planes[owner][level] |= 1 << i
    mine, theirs = planes[side], planes[side ^ 1]
    return (*mine, *theirs, side)  # type: ignore[return-value]
