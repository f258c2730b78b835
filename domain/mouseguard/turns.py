"""The board rules of a turn (MG-5…MG-19) on a board tuple: what each action does, or why it cannot be done.

Every ``resolve_*`` function returns the effects (``Moved``/``Swapped``/``Captured`` events) and the board after
them, or raises ``IllegalMove`` with the reason. ``turn_options`` enumerates every board-level turn by trying
the candidates through those same functions, so the list of legal turns and ``decide`` cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.base import IllegalMove, read_limit_reached
from domain.mouseguard.board import (
    BACK,
    COLOURS,
    CORNERS,
    EAST,
    EMPTY,
    LOCATIONS,
    N_LOCATIONS,
    N_POINTS,
    NEIGHBOURS,
    NORTH,
    SOUTH,
    SQUARES_AROUND,
    WEST,
    WINNING_SQUARES,
    Geometry,
    coords,
    direction_between,
    distances,
    is_point,
    name,
)
from domain.mouseguard.events import Captured, Event, Moved, Swapped
from domain.mouseguard.notation import Command, Exit, Turn
from domain.text import Text, first_match, match

Board = tuple[int, ...]
Effects = list[Event]


class Option(NamedTuple):
    """One way to play a turn on this board: the command, the card it needs (or None), its effects."""

    cmd: Command
    card: str | None
    effects: Effects
    board: Board


def stronghold_touching(board: Sequence[int], point: int, ignore: int = -1) -> int:
    """A stronghold (square) having ``point`` as a corner, other than ``ignore``; -1 if none (MG-5)."""
    for square in SQUARES_AROUND[point]:
        if board[square] != EMPTY and square != ignore:
            return square
    return -1


def why_not_open(geo: Geometry, board: Board, point: int, ignore: int = -1) -> Text | None:
    """Why ``point`` is not open (MG-5), or None when it is. ``ignore``: a stronghold being left."""
    if not geo.playable[point]:
        return Text("{point} is on the board edge, which is not playable", point=name(point))
    if board[point] != EMPTY:
        return Text("{point} is occupied", point=name(point))
    square = stronghold_touching(board, point, ignore)
    if square >= 0:
        return Text("{point} is a corner of the stronghold on {square}", point=name(point), square=name(square))
    return None


def is_open(geo: Geometry, board: Sequence[int], point: int, ignore: int = -1) -> bool:
    """MG-5: playable, empty and not a corner of a stronghold (other than ``ignore``)."""
    return geo.playable[point] and board[point] == EMPTY and stronghold_touching(board, point, ignore) < 0


def _with(board: Board, changes: dict[int, int]) -> Board:
    cells = list(board)
    for loc, colour in changes.items():
        cells[loc] = colour
    return tuple(cells)


def _in_the_square(board: Board, point: int, colour: int) -> int | None:
    """The square written like ``point`` in capitals (d4 → D4) when it holds a mouse of ``colour``: a player who
    names a point where the stronghold's square is meant."""
    square = LOCATIONS.get(name(point).upper())
    return square if square is not None and not is_point(square) and board[square] == colour else None


def resolve_step(geo: Geometry, board: Board, colour: int, frm: int, to: int) -> tuple[Effects, Board]:
    """MG-6 (a): one orthogonal step onto an open point; a normal move never pushes."""
    if board[frm] == EMPTY:
        square = _in_the_square(board, frm, colour)
        if square is not None:
            raise IllegalMove(Text("there is no mouse on {frm} (your mouse is in the stronghold {square}, a "
                                   "square: it leaves with an exit, 'exit {square} <corner>')", frm=name(frm),
                                   square=name(square)))
        raise IllegalMove(Text("there is no mouse on {frm}", frm=name(frm)))
    if board[frm] != colour:
        raise IllegalMove(Text("the mouse on {frm} is not yours", frm=name(frm)))
    if direction_between(frm, to) is None:
        raise IllegalMove(Text("{to} is not one orthogonal step from {frm}", to=name(to), frm=name(frm)))
    reason = why_not_open(geo, board, to)
    if reason:
        raise IllegalMove(Text("the mouse on {frm} cannot step to {to}: {reason}",
                               frm=name(frm), to=name(to), reason=reason))
    return [Moved(COLOURS[colour], name(frm), name(to))], _with(board, {frm: EMPTY, to: colour})


def _push(geo: Geometry, cells: list[int], colour: int, start: int, direction: int, effects: Effects) -> None:
    """MG-8: push the contiguous run from ``start`` one step; the front mouse is captured if it is blocked."""
    run = [start]
    after = NEIGHBOURS[start][direction]
    while after >= 0 and cells[after] != EMPTY:
        run.append(after)
        after = NEIGHBOURS[after][direction]
    front = run[-1]
    blocked = after < 0 or not geo.playable[after] or stronghold_touching(cells, after) >= 0
    if blocked:
        if cells[front] == colour:
            if after < 0 or not geo.playable[after]:
                raise IllegalMove(Text("the sword would push your own mouse on {front} off the playable points: "
                                       "you may not capture your own mice", front=name(front)))
            raise IllegalMove(Text("the sword would push your own mouse on {front} onto a corner of the "
                                   "stronghold on {square}: you may not capture your own mice", front=name(front),
                                   square=name(stronghold_touching(cells, after))))
        effects.append(Captured(COLOURS[cells[front]], name(front)))
        cells[front] = EMPTY
        after = front
        run.pop()
    for loc in reversed(run):
        effects.append(Moved(COLOURS[cells[loc]], name(loc), name(after), "push"))
        cells[after], cells[loc] = cells[loc], EMPTY
        after = loc


def resolve_sword(geo: Geometry, board: Board, colour: int, mover: int, first: int, second: int
                  ) -> tuple[Effects, Board]:
    """MG-8: the moved mouse steps to ``first`` then turns to ``second``, pushing runs of mice."""
    d1 = direction_between(mover, first)
    if d1 is None:
        raise IllegalMove(Text("the sword's first step goes from {mover} to a neighbouring point, not {first}",
                               mover=name(mover), first=name(first)))
    d2 = direction_between(first, second)
    if d2 is None or d2 // 2 == d1 // 2:
        raise IllegalMove(Text("the sword's second step turns at a right angle from {first}, so {second} is not "
                               "on an L", first=name(first), second=name(second)))
    cells, effects, at = list(board), [], mover
    for direction, target in ((d1, first), (d2, second)):
        if not geo.playable[target]:
            raise IllegalMove(Text("the sword cannot step onto {target}: it is on the board edge, which is not "
                                   "playable", target=name(target)))
        square = stronghold_touching(cells, target)
        if square >= 0:
            raise IllegalMove(Text("the sword cannot step onto {target}: it is a corner of the stronghold on "
                                   "{square}", target=name(target), square=name(square)))
        if cells[target] != EMPTY:
            _push(geo, cells, colour, target, direction, effects)
        effects.append(Moved(COLOURS[colour], name(at), name(target), "sword"))
        cells[target], cells[at] = colour, EMPTY
        at = target
    return effects, tuple(cells)


def resolve_stronghold(geo: Geometry, board: Board, colour: int, mover: int, square: int
                       ) -> tuple[Effects, Board]:
    """MG-9, MG-10: leap into ``square``, displacing every other mouse on its corners (back, else sideways)."""
    if mover not in CORNERS[square - N_POINTS]:
        around = ", ".join(name(s) for s in SQUARES_AROUND[mover])
        raise IllegalMove(Text("a stronghold is built on a square with {mover} as a corner ({around}), not "
                               "{square}", mover=name(mover), around=around, square=name(square)))
    if board[square] != EMPTY:
        raise IllegalMove(Text("{square} already holds a stronghold", square=name(square)))
    corner_set = CORNERS[square - N_POINTS]
    cells = list(board)
    cells[mover], cells[square] = EMPTY, colour
    effects: Effects = [Moved(COLOURS[colour], name(mover), name(square), "leap")]
    square_col = coords(square)[0]
    for corner in corner_set:
        owner = cells[corner]
        if owner == EMPTY:
            continue
        sideways = WEST if coords(corner)[0] == square_col else EAST
        targets = (NEIGHBOURS[corner][BACK[owner]], NEIGHBOURS[corner][sideways])
        target = next((t for t in targets if t >= 0 and t not in corner_set and is_open(geo, cells, t)), -1)
        if target < 0:
            tried = [name(t) for t in targets if t >= 0 and t not in corner_set]
            why = (Text("{point} is not open", point=tried[0]) if len(tried) == 1
                   else Text("{point} and {other} are not open", point=tried[0], other=tried[1]) if tried
                   else Text("there is no point behind it or beside it"))
            raise IllegalMove(Text("the stronghold cannot be built on {square}: the mouse on {corner} cannot be "
                                   "displaced ({why})", square=name(square), corner=name(corner), why=why))
        effects.append(Moved(COLOURS[owner], name(corner), name(target), "displace"))
        cells[target], cells[corner] = owner, EMPTY
    return effects, tuple(cells)


def nearest_enemies(board: Board, colour: int, mover: int, metric: str) -> list[int]:
    """MG-14, MG-16: the enemy mice nearest to the moved mouse (several when tied)."""
    row = distances(metric)[mover]
    enemy = 1 - colour
    enemies = [loc for loc in range(N_LOCATIONS) if board[loc] == enemy]
    if not enemies:
        return []
    best = min(row[loc] for loc in enemies)
    return [loc for loc in enemies if row[loc] == best]


def resolve_diplomacy(geo: Geometry, board: Board, colour: int, mover: int, target: int, corner: int | None,
                      metric: str) -> tuple[Effects, Board]:
    """MG-14: swap with the nearest enemy on a point, or pull it out of its stronghold onto ``corner``."""
    enemy = 1 - colour
    if board[target] != enemy:
        square = _in_the_square(board, target, enemy) if is_point(target) else None
        if square is not None:
            raise IllegalMove(Text("there is no enemy mouse on {target} (the enemy mouse is in the stronghold "
                                   "{square}, a square: name it in capitals with the corner it is pulled onto, "
                                   "'diplomacy {square} <corner>')", target=name(target), square=name(square)))
        raise IllegalMove(Text("there is no enemy mouse on {target}", target=name(target)))
    nearest = nearest_enemies(board, colour, mover, metric)
    if target not in nearest:
        listed = ", ".join(name(loc) for loc in nearest)
        raise IllegalMove(Text("diplomacy targets the enemy mouse nearest to {mover} ({listed}), not {target}",
                               mover=name(mover), listed=listed, target=name(target)))
    if is_point(target):
        return [Swapped(name(mover), name(target))], _with(board, {mover: enemy, target: colour})
    assert corner is not None, "the notation names the corner of a pull-out"
    if corner not in CORNERS[target - N_POINTS]:
        raise IllegalMove(Text("{corner} is not a corner of {target}", corner=name(corner), target=name(target)))
    reason = why_not_open(geo, board, corner, ignore=target)
    if reason:
        raise IllegalMove(Text("the mouse in {target} cannot be pulled out onto {corner}: {reason}",
                               target=name(target), corner=name(corner), reason=reason))
    return ([Moved(COLOURS[enemy], name(target), name(corner), "pull")],
            _with(board, {target: EMPTY, corner: enemy}))


def resolve_exit(geo: Geometry, board: Board, colour: int, square: int, corner: int, step: int | None,
                 extra_step: bool) -> tuple[Effects, Board]:
    """MG-13: leave a stronghold onto an open corner (then step once with option ``exit_extra_step``)."""
    if board[square] == EMPTY:
        raise IllegalMove(Text("there is no stronghold on {square}", square=name(square)))
    if board[square] != colour:
        raise IllegalMove(Text("the stronghold on {square} is not yours", square=name(square)))
    if corner not in CORNERS[square - N_POINTS]:
        raise IllegalMove(Text("{corner} is not a corner of {square}", corner=name(corner), square=name(square)))
    reason = why_not_open(geo, board, corner, ignore=square)
    if reason:
        raise IllegalMove(Text("the mouse in {square} cannot exit onto {corner}: {reason}",
                               square=name(square), corner=name(corner), reason=reason))
    effects: Effects = [Moved(COLOURS[colour], name(square), name(corner), "exit")]
    after = _with(board, {square: EMPTY, corner: colour})
    if not extra_step:
        if step is not None:
            raise IllegalMove(Text("an exit takes no extra step (option exit_extra_step is off)"))
        return effects, after
    if step is None:
        raise IllegalMove(Text("with option exit_extra_step the exit also steps once: 'exit {square} {corner} "
                               "<point>'", square=name(square), corner=name(corner)))
    step_effects, after = resolve_step(geo, after, colour, corner, step)
    return effects + step_effects, after


def resolve_rescue(geo: Geometry, board: Board, colour: int, at: int) -> Board:
    """MG-18 (the board part): the captured mouse goes back on an open point of the setup rows."""
    if not is_point(at) or coords(at)[1] not in geo.setup_rows[colour] or not geo.playable[at]:
        raise IllegalMove(Text("a rescued mouse goes on your setup rows ({colour}), not {at}",
                               colour=geo.setup_rows_text(colour), at=name(at)))
    reason = why_not_open(geo, board, at)
    if reason:
        raise IllegalMove(Text("the rescued mouse cannot go on {at}: {reason}", at=name(at), reason=reason))
    return _with(board, {at: colour})


def _attempts(geo: Geometry, board: Board, colour: int, mover: int, metric: str):
    """Every card candidate for the moved mouse: (card, args, thunk resolving it)."""
    for d1, first in enumerate(NEIGHBOURS[mover]):
        if first < 0:
            continue
        for d2 in ((EAST, WEST) if d1 in (NORTH, SOUTH) else (NORTH, SOUTH)):  # the L turns
            second = NEIGHBOURS[first][d2]
            if second >= 0:
                yield "sword", (first, second), lambda f=first, s=second: resolve_sword(geo, board, colour,
                                                                                         mover, f, s)
    for square in SQUARES_AROUND[mover]:
        yield "stronghold", (square,), lambda s=square: resolve_stronghold(geo, board, colour, mover, s)
    for target in nearest_enemies(board, colour, mover, metric):
        for corner in ((None,) if is_point(target) else CORNERS[target - N_POINTS]):
            args = (target,) if corner is None else (target, corner)
            yield "diplomacy", args, lambda t=target, c=corner: resolve_diplomacy(geo, board, colour, mover,
                                                                                   t, c, metric)


def turn_options(geo: Geometry, board: Board, colour: int, metric: str, extra_step: bool) -> list[Option]:
    """Every normal turn (MG-6 a, with or without a card) and exit turn (MG-13) of ``colour`` on ``board``."""
    options: list[Option] = []
    for frm in range(N_POINTS):
        if board[frm] != colour:
            continue
        for to in NEIGHBOURS[frm]:
            if to < 0 or not is_open(geo, board, to):
                continue
            step_effects, stepped = resolve_step(geo, board, colour, frm, to)
            options.append(Option(Turn(name(frm), name(to)), None, step_effects, stepped))
            for card, args, attempt in _attempts(geo, stepped, colour, to, metric):
                try:
                    effects, after = attempt()
                except IllegalMove:
                    continue
                cmd = Turn(name(frm), name(to), card, tuple(name(a) for a in args))
                options.append(Option(cmd, card, step_effects + effects, after))
    for square in range(N_POINTS, N_LOCATIONS):
        if board[square] != colour:
            continue
        for corner in CORNERS[square - N_POINTS]:
            steps = [s for s in NEIGHBOURS[corner] if s >= 0] if extra_step else [None]
            for step in steps:
                try:
                    effects, after = resolve_exit(geo, board, colour, square, corner, step, extra_step)
                except IllegalMove:
                    continue
                options.append(Option(Exit(name(square), name(corner), None if step is None else name(step)),
                                      None, effects, after))
    return options


def rescue_points(geo: Geometry, board: Board, colour: int) -> list[int]:
    """The open points of ``colour``'s setup rows, where a rescued mouse may go (MG-18)."""
    return [p for p in geo.setup_points[colour] if is_open(geo, board, p)]


_WON = ((Text("Black built a stronghold on {square}, in the enemy's corner"),
         Text("Black captured every white mouse")),
        (Text("White built a stronghold on {square}, in the enemy's corner"),
         Text("White captured every black mouse")))
"""The reasons a colour wins (MG-19), by colour."""


def reason_text(reason: str) -> Text:
    """A stored reason (its English, in a ``game_ended`` event) read back as the text it was made from."""
    return first_match(
        reason, *(lambda r, won=won: match(r, won[0].id) for won in _WON),
        *(lambda r, won=won: match(r, won[1].id) for won in _WON),
        read_limit_reached,
        lambda r: read_limit_reached(r.replace("a draw:", "Draw:", 1)))  # games stored before #15 say "a draw"


def victory(board: Board, colour: int, effects: Effects) -> Text | None:
    """MG-19, checked right after ``colour``'s action: the reason it wins, or None."""
    for effect in effects:
        if isinstance(effect, Moved) and effect.cause == "leap" and effect.to in WINNING_SQUARES[colour]:
            return Text(_WON[colour][0].id, square=effect.to)
    if (1 - colour) not in board:
        return _WON[colour][1]
    return None
