"""Geometry of the Mouse Guard board: points, squares, neighbours, setup rows and distances.

Every place a mouse can stand is a *location*, an int: points ``a1``…``g9`` are ``0…62`` (``row * 7 + col``),
squares ``A1``…``F8`` are ``63…110`` (``63 + row * 6 + col``). A board is a tuple of 111 colours, one per
location (``EMPTY``, ``BLACK`` or ``WHITE``).
"""

from __future__ import annotations

from functools import cache

POINT_COLS, POINT_ROWS = 7, 9
SQUARE_COLS, SQUARE_ROWS = 6, 8
N_POINTS = POINT_COLS * POINT_ROWS
N_SQUARES = SQUARE_COLS * SQUARE_ROWS
N_LOCATIONS = N_POINTS + N_SQUARES

EMPTY, BLACK, WHITE = -1, 0, 1
COLOURS = ("black", "white")
EMPTY_BOARD: tuple[int, ...] = (EMPTY,) * N_LOCATIONS

NORTH, SOUTH, EAST, WEST = 0, 1, 2, 3
DIRECTION_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
BACK = (SOUTH, NORTH)
"""Each colour's "back" direction, toward its own side (Black: row 1, White: row 9)."""

# Where each colour wins by building (MG-19): the corner squares of the opponent's back edge.
WINNING_SQUARES = (("A8", "F8"), ("A1", "F1"))


def point_id(col: int, row: int) -> int:
    """The location of the point at 0-based ``col``, ``row``."""
    return row * POINT_COLS + col


def square_id(col: int, row: int) -> int:
    """The location of the square at 0-based ``col``, ``row``."""
    return N_POINTS + row * SQUARE_COLS + col


def is_point(loc: int) -> bool:
    """True for a point, False for a square."""
    return loc < N_POINTS


def coords(loc: int) -> tuple[int, int]:
    """0-based (col, row) of a point or a square."""
    if loc < N_POINTS:
        return loc % POINT_COLS, loc // POINT_COLS
    return (loc - N_POINTS) % SQUARE_COLS, (loc - N_POINTS) // SQUARE_COLS


NAMES: tuple[str, ...] = tuple(
    [f"{chr(97 + loc % POINT_COLS)}{loc // POINT_COLS + 1}" for loc in range(N_POINTS)]
    + [f"{chr(65 + s % SQUARE_COLS)}{s // SQUARE_COLS + 1}" for s in range(N_SQUARES)]
)
LOCATIONS: dict[str, int] = {name: loc for loc, name in enumerate(NAMES)}


def name(loc: int) -> str:
    """Notation of a location: ``c3`` for a point, ``C3`` for a square."""
    return NAMES[loc]


def corners(square: int) -> tuple[int, int, int, int]:
    """The four corner points of a square (``C4`` → ``c4 d4 c5 d5``)."""
    col, row = coords(square)
    return (point_id(col, row), point_id(col + 1, row), point_id(col, row + 1), point_id(col + 1, row + 1))


CORNERS: tuple[tuple[int, int, int, int], ...] = tuple(corners(N_POINTS + s) for s in range(N_SQUARES))


def squares_around(point: int) -> tuple[int, ...]:
    """The (up to 4) squares having ``point`` as a corner."""
    col, row = coords(point)
    return tuple(square_id(c, r) for c in (col - 1, col) for r in (row - 1, row)
                 if 0 <= c < SQUARE_COLS and 0 <= r < SQUARE_ROWS)


SQUARES_AROUND: tuple[tuple[int, ...], ...] = tuple(squares_around(p) for p in range(N_POINTS))


def _neighbour(point: int, direction: int) -> int:
    col, row = coords(point)
    dc, dr = DIRECTION_STEPS[direction]
    col, row = col + dc, row + dr
    if 0 <= col < POINT_COLS and 0 <= row < POINT_ROWS:
        return point_id(col, row)
    return -1


NEIGHBOURS: tuple[tuple[int, int, int, int], ...] = tuple(
    tuple(_neighbour(p, d) for d in range(4)) for p in range(N_POINTS))  # type: ignore[misc]
"""``NEIGHBOURS[point][direction]``: the next point that way, or -1 beyond the outer line."""


def direction_between(a: int, b: int) -> int | None:
    """The direction of the single orthogonal step from point ``a`` to point ``b``, if it is one."""
    for direction, q in enumerate(NEIGHBOURS[a]):
        if q == b and q >= 0:
            return direction
    return None


class Geometry:
    """What depends on option ``edge_points`` (MG-1): playable points and the setup rows."""

    def __init__(self, edge_points: bool):
        self.edge_points = edge_points
        low, high = (0, POINT_ROWS - 1) if edge_points else (1, POINT_ROWS - 2)
        lowc, highc = (0, POINT_COLS - 1) if edge_points else (1, POINT_COLS - 2)
        self.playable: tuple[bool, ...] = tuple(
            lowc <= coords(p)[0] <= highc and low <= coords(p)[1] <= high for p in range(N_POINTS))
        # MG-4: each colour's two nearest playable rows (0-based).
        self.setup_rows: tuple[tuple[int, int], tuple[int, int]] = ((low, low + 1), (high - 1, high))
        self.setup_points: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
            tuple(sorted((p for p in range(N_POINTS) if self.playable[p] and coords(p)[1] in rows),
                         key=point_sort_key))
            for rows in self.setup_rows)

    def setup_rows_text(self, colour: int) -> str:
        """The setup rows of ``colour`` as players number them ("2–3")."""
        first, second = sorted(self.setup_rows[colour])
        return f"{first + 1}–{second + 1}"


@cache
def geometry(edge_points: bool) -> Geometry:
    """The shared geometry for a value of option ``edge_points``."""
    return Geometry(edge_points)


def point_sort_key(point: int) -> tuple[int, int]:
    """Canonical order of points: by column, then by row (``b2 c3 d2 e3``)."""
    col, row = coords(point)
    return col, row


def _squares_of(loc: int) -> tuple[int, ...]:
    """The squares a mouse occupies for MG-16: around a point, or its own square."""
    return SQUARES_AROUND[loc] if is_point(loc) else (loc,)


def _manhattan_squares(a: int, b: int) -> int:
    return min(abs(coords(x)[0] - coords(y)[0]) + abs(coords(x)[1] - coords(y)[1])
               for x in _squares_of(a) for y in _squares_of(b))


def _chebyshev_positions(a: int, b: int) -> int:
    # Doubled coordinates keep it integral: a point sits on (2c, 2r), a square's centre on (2c+1, 2r+1).
    def doubled(loc: int) -> tuple[int, int]:
        col, row = coords(loc)
        return (2 * col, 2 * row) if is_point(loc) else (2 * col + 1, 2 * row + 1)
    (ax, ay), (bx, by) = doubled(a), doubled(b)
    return max(abs(ax - bx), abs(ay - by))


@cache
def distances(metric: str) -> tuple[tuple[int, ...], ...]:
    """``distances(metric)[a][b]``: MG-16 distance between mice on locations ``a`` and ``b``."""
    measure = _manhattan_squares if metric == "squares" else _chebyshev_positions
    return tuple(tuple(measure(a, b) for b in range(N_LOCATIONS)) for a in range(N_LOCATIONS))
