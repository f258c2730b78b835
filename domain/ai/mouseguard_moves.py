"""The board-level turns of Mouse Guard, generated for the search: the same turns as the rules, much faster.

``turns.turn_options`` (``domain/mouseguard/turns.py``) enumerates a turn by trying every candidate through the
``resolve_*`` functions, which validate by raising ``IllegalMove`` and describe the turn as a list of events:
right for the game, but 2–4 ms for a position's hundred-odd turns, most of a search iteration. ``Generator``
makes the same turns (MG-6 a: a step onto an open point, with or without one card on the moved mouse; MG-13:
an exit) directly on a list copy of the board, with the geometry tabled once per game:

* MG-5 *open*: playable, empty, not a corner of a stronghold. Strongholds never change during a turn's step,
  Sword or Diplomacy swap, so the closed corners are worked out once per position (``closed``).
* MG-8 Sword: the 8 L paths of the moved mouse, each step pushing the run of mice ahead of it; the front mouse
  is captured when the run is blocked, and a path that would capture one's own mouse is not a turn (MG-12).
* MG-9, MG-10 Stronghold: a leap into a free square around the moved mouse, every other mouse on its corners
  displaced back, else sideways (the two candidates per corner and owner are tabled); no turn if one cannot be.
* MG-14, MG-16 Diplomacy: the nearest enemy mice by the game's metric (the step moves no enemy); a swap on a
  point, a pull-out onto each open corner of a stronghold.
* MG-13 Exit: onto an open corner of the own stronghold (then one step, with option ``exit_extra_step``).
* MG-19 victory: a leap into one of the colour's winning squares, or no enemy mouse left.

A turn is a ``Turn``, the tuple ``(text, kind, card index or -1, board after, captured per colour, won)`` read
by ``domain/ai/mouseguard.py`` at the indices ``TEXT`` … ``WON``; ``text`` is the canonical notation
(``notation.format``). A test compares the generator with ``turns.turn_options`` on many positions
(``tests/domain/test_ai_mouseguard.py``).
"""

from __future__ import annotations

from typing import Any

from domain.mouseguard.board import (
    BACK,
    CORNERS,
    EAST,
    EMPTY,
    LOCATIONS,
    N_LOCATIONS,
    N_POINTS,
    NAMES,
    NEIGHBOURS,
    NORTH,
    SOUTH,
    SQUARES_AROUND,
    WEST,
    WINNING_SQUARES,
    coords,
    distances,
    geometry,
)

MOVE, RESCUE, PASS = 0, 1, 2
"""Kinds of whole turn in the search: a board-level turn (step or exit), a rescue (MG-18), a forced pass."""
SWORD, STRONGHOLD, DIPLOMACY = 0, 1, 2
"""Card indices, in the order of ``cards.CARDS``."""
NO_CAPTURE = (0, 0)


Turn = tuple[str, int, int, Any, "tuple[int, int] | None", bool]
"""A whole turn of the search: its notation, kind (``MOVE``, ``RESCUE``, ``PASS``), the card played or discarded
(-1: none), its payload (the board after a ``MOVE``, the point of a ``RESCUE``), the mice captured per colour (a
``MOVE``) and whether it wins at once (MG-19). A plain tuple: the generator makes thousands a second, and a named
tuple costs several times more to make; code unpacks it or reads it at these indices:"""
TEXT, KIND, CARD, PAYLOAD, CAPTURED, WON = range(6)

SQUARES = range(N_POINTS, N_LOCATIONS)
WINS = tuple(frozenset(LOCATIONS[s] for s in squares) for squares in WINNING_SQUARES)
"""MG-19 (a): by colour, the squares whose stronghold wins."""

L_PATHS = tuple(
    tuple((first, d1, NEIGHBOURS[first][d2], d2)
          for d1, first in enumerate(NEIGHBOURS[p]) if first >= 0
          for d2 in ((EAST, WEST) if d1 in (NORTH, SOUTH) else (NORTH, SOUTH)) if NEIGHBOURS[first][d2] >= 0)
    for p in range(N_POINTS))
"""MG-8: per point, its Sword paths ``(first, first direction, second, second direction)`` in the rules' order."""


def _displacements(square: int) -> tuple[tuple[int, tuple[tuple[int, ...], tuple[int, ...]]], ...]:
    """MG-10: per corner of ``square``, the points a mouse of each colour may be displaced to, in order."""
    corner_set = CORNERS[square - N_POINTS]
    column = coords(square)[0]
    table = []
    for corner in corner_set:
        sideways = WEST if coords(corner)[0] == column else EAST
        per_owner = tuple(tuple(t for t in (NEIGHBOURS[corner][BACK[owner]], NEIGHBOURS[corner][sideways])
                                if t >= 0 and t not in corner_set) for owner in (0, 1))
        table.append((corner, per_owner))
    return tuple(table)


DISPLACE = tuple(_displacements(square) for square in SQUARES)
"""``DISPLACE[square - N_POINTS]``: ``(corner, (targets for Black, targets for White))`` per corner."""
NAME_SWORD, NAME_STRONGHOLD, NAME_DIPLOMACY = " sword ", " stronghold ", " diplomacy "


class Generator:
    """The board-level turns for one set of options (``edge_points``, ``diplomacy_metric``,
    ``exit_extra_step``): ``turns``, plus ``closed`` and ``build`` for the AI's own board tests."""

    __slots__ = ("dist", "extra_step", "playable", "points")

    def __init__(self, edge_points: bool, metric: str, extra_step: bool):
        geo = geometry(edge_points)
        self.playable = geo.playable
        self.points = tuple(p for p in range(N_POINTS) if geo.playable[p])
        self.dist = distances(metric)
        self.extra_step = extra_step

    @staticmethod
    def closed(board) -> list[bool]:
        """Per point: whether it is a corner of a stronghold (MG-5, MG-12)."""
        closed = [False] * N_POINTS
        for square in SQUARES:
            if board[square] != EMPTY:
                for corner in CORNERS[square - N_POINTS]:
                    closed[corner] = True
        return closed

    def build(self, cells: list[int], colour: int, mover: int, square: int) -> bool:
        """MG-9, MG-10: the mouse on point ``mover`` leaps into ``square`` (free, with ``mover`` as a corner),
        displacing the mice on the other corners, in place on ``cells``; False (``cells`` spoilt) if a mouse
        cannot be displaced."""
        cells[mover] = EMPTY
        cells[square] = colour
        playable = self.playable
        for corner, targets in DISPLACE[square - N_POINTS]:
            owner = cells[corner]
            if owner == EMPTY:
                continue
            for target in targets[owner]:  # open (MG-5); never a corner of the new square
                if playable[target] and cells[target] == EMPTY and all(
                        cells[s] == EMPTY for s in SQUARES_AROUND[target]):
                    cells[target], cells[corner] = owner, EMPTY
                    break
            else:
                return False
        return True

    def _sword(self, cells: list[int], closed: list[bool], colour: int, mover: int, first: int, d1: int,
               second: int, d2: int) -> list[int] | None:
        """MG-8 on ``cells`` (not changed): captures per colour, with ``cells`` after the L left in place of
        the list's last item; None when the path is not playable."""
        playable = self.playable
        if not playable[first] or not playable[second] or closed[first] or closed[second]:
            return None  # a step onto the edge or onto a stronghold corner (squares do not change here)
        cells = list(cells)
        captured = [0, 0]
        at = mover
        for target, direction in ((first, d1), (second, d2)):
            if cells[target] != EMPTY:
                run = [target]
                after = NEIGHBOURS[target][direction]
                while after >= 0 and cells[after] != EMPTY:
                    run.append(after)
                    after = NEIGHBOURS[after][direction]
                if after < 0 or not playable[after] or closed[after]:
                    front = run.pop()
                    owner = cells[front]
                    if owner == colour:
                        return None  # MG-12: no capturing one's own mouse
                    captured[owner] += 1
                    cells[front] = EMPTY
                    after = front
                for loc in reversed(run):
                    cells[after], cells[loc] = cells[loc], EMPTY
                    after = loc
            cells[target], cells[at] = colour, EMPTY
            at = target
        captured.append(cells)
        return captured

    def turns(self, board: tuple[int, ...], colour: int) -> list[tuple]:
        """Every normal turn (MG-6 a) and exit turn (MG-13) of ``colour``, in the order of
        ``turns.turn_options``."""
        playable, dist = self.playable, self.dist
        enemy = 1 - colour
        closed = self.closed(board)
        enemies = [loc for loc in range(N_LOCATIONS) if board[loc] == enemy]
        no_enemy = not enemies
        wins = WINS[colour]
        out = []
        append = out.append
        for frm in self.points:
            if board[frm] != colour:
                continue
            for to in NEIGHBOURS[frm]:
                if to < 0 or board[to] != EMPTY or closed[to] or not playable[to]:
                    continue
                stepped = list(board)
                stepped[frm], stepped[to] = EMPTY, colour
                step = NAMES[frm] + "-" + NAMES[to]
                append((step, MOVE, -1, tuple(stepped), NO_CAPTURE, no_enemy))
                for first, d1, second, d2 in L_PATHS[to]:
                    result = self._sword(stepped, closed, colour, to, first, d1, second, d2)
                    if result is not None:
                        after = result.pop()
                        append((step + NAME_SWORD + NAMES[first] + " " + NAMES[second], MOVE, SWORD,
                                    tuple(after), (result[0], result[1]),
                                    no_enemy or len(enemies) == result[enemy]))
                for square in SQUARES_AROUND[to]:
                    if stepped[square] != EMPTY:
                        continue
                    cells = list(stepped)
                    if self.build(cells, colour, to, square):
                        append((step + NAME_STRONGHOLD + NAMES[square], MOVE, STRONGHOLD, tuple(cells),
                                NO_CAPTURE, no_enemy or square in wins))
                if enemies:
                    row = dist[to]
                    best = min(row[loc] for loc in enemies)
                    for target in enemies:
                        if row[target] != best:
                            continue
                        if target < N_POINTS:  # MG-14: a swap
                            cells = list(stepped)
                            cells[to], cells[target] = enemy, colour
                            append((step + NAME_DIPLOMACY + NAMES[target], MOVE, DIPLOMACY, tuple(cells),
                                    NO_CAPTURE, False))
                            continue
                        for corner in CORNERS[target - N_POINTS]:  # MG-14: a pull-out onto an open corner
                            if playable[corner] and stepped[corner] == EMPTY and all(
                                    s == target or stepped[s] == EMPTY for s in SQUARES_AROUND[corner]):
                                cells = list(stepped)
                                cells[target], cells[corner] = EMPTY, enemy
                                append((step + NAME_DIPLOMACY + NAMES[target] + " " + NAMES[corner], MOVE,
                                        DIPLOMACY, tuple(cells), NO_CAPTURE, False))
        for square in SQUARES:
            if board[square] == colour:
                self._exits(board, colour, square, no_enemy, append)
        return out

    def _exits(self, board: tuple[int, ...], colour: int, square: int, no_enemy: bool, append) -> None:
        """MG-13: the exits from the stronghold of ``colour`` on ``square``."""
        playable = self.playable
        for corner in CORNERS[square - N_POINTS]:
            if not playable[corner] or board[corner] != EMPTY or any(
                    s != square and board[s] != EMPTY for s in SQUARES_AROUND[corner]):
                continue
            cells = list(board)
            cells[square], cells[corner] = EMPTY, colour
            text = "exit " + NAMES[square] + " " + NAMES[corner]
            if not self.extra_step:
                append((text, MOVE, -1, tuple(cells), NO_CAPTURE, no_enemy))
                continue
            for step in NEIGHBOURS[corner]:  # the extra step, onto a point open once the square is left
                if step < 0 or not playable[step] or cells[step] != EMPTY or any(
                        cells[s] != EMPTY for s in SQUARES_AROUND[step]):
                    continue
                after = list(cells)
                after[corner], after[step] = EMPTY, colour
                append((text + " " + NAMES[step], MOVE, -1, tuple(after), NO_CAPTURE, no_enemy))
