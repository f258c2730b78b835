"""The 5 × 5 grid and its cards: cells, colour matching (FS-5), the scan of a turn (FS-4), the end (FS-8)."""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

SQUIRREL = "squirrel"
COLUMNS = "abcde"
CELLS = tuple(f"{col}{row}" for row in range(1, 6) for col in COLUMNS)
"""Cell names by index: index = 5 × (row - 1) + column; a1 is 0, e5 is 24."""
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
COLORS = "WUBRGC"
DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}

Grid = tuple  # 25 entries: a card id (int), SQUIRREL, or None for an empty cell


class Card(msgspec.Struct, frozen=True):
    """A food card as the game sees it (colours already empty for lands)."""

    name: str
    rarity: str
    colors: str = ""
    foil: bool = False
    squirrel: bool = False
    land: bool = False
    number: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The card as position/view JSON."""
        return {"number": self.number, "name": self.name, "rarity": self.rarity, "colors": self.colors,
                "foil": self.foil, "squirrel": self.squirrel, "land": self.land}


def matches(card: Card, color: str) -> bool:
    """FS-5: a card matches each of its colours; C matches colourless cards (lands included)."""
    return not card.colors if color == "C" else color in card.colors


def squirrel_index(grid: Grid) -> int:
    """Index of the squirrel's cell."""
    return grid.index(SQUIRREL)


def scan(grid: Grid, cards: dict[int, Card], color: str, direction: str) -> list[int]:
    """FS-4: the cells collected by ``color`` toward ``direction``, nearest first (empty cells are skipped)."""
    start = squirrel_index(grid)
    dx, dy = DIRECTIONS[direction]
    x, y = start % 5 + dx, start // 5 + dy
    collected = []
    while 0 <= x < 5 and 0 <= y < 5:
        cid = grid[y * 5 + x]
        if cid is not None:
            if not matches(cards[cid], color):
                break
            collected.append(y * 5 + x)
        x, y = x + dx, y + dy
    return collected


def line_cells(index: int) -> list[int]:
    """The other cells of the row and the column of ``index``."""
    x, y = index % 5, index // 5
    return [y * 5 + i for i in range(5) if i != x] + [i * 5 + x for i in range(5) if i != y]


def line_has_food(grid: Grid) -> bool:
    """FS-8: a food card remains in the squirrel's row or column."""
    return any(grid[i] is not None for i in line_cells(squirrel_index(grid)))


def move_squirrel(grid: Grid, collected: list[int]) -> Grid:
    """The grid after a turn that collected ``collected``: the squirrel on the last one, the rest empty."""
    cells = list(grid)
    cells[squirrel_index(grid)] = None
    for i in collected:
        cells[i] = None
    cells[collected[-1]] = SQUIRREL
    return tuple(cells)


def dig(grid: Grid, frm: int, to: int) -> Grid:
    """The grid with the card of ``frm`` moved to ``to``."""
    cells = list(grid)
    cells[to], cells[frm] = cells[frm], None
    return tuple(cells)


def food_cells(grid: Grid) -> list[int]:
    """Cells holding a food card."""
    return [i for i, c in enumerate(grid) if c is not None and c != SQUIRREL]


def empty_cells(grid: Grid) -> list[int]:
    """Cells holding nothing."""
    return [i for i, c in enumerate(grid) if c is None]


class Seated(Protocol):
    """What the turn order reads of a game's state (``state.State``, which reads this module: no import back)."""

    seats: int
    left: Any
    first: int | None
    opened: bool
    dug: Any


def can_dig(state: Seated, seat: int) -> bool:
    """FS-7: ``seat`` still has its dig and may use it now (not the first player, not before its turn ended)."""
    return seat != state.first and state.opened and not state.dug[seat]


def next_seat(state: Seated, seat: int) -> int:
    """FS-3: play goes round in seat order (past seats that left the table)."""
    for step in range(1, state.seats + 1):
        following = (seat + step) % state.seats
        if following not in state.left:
            return following
    return seat
