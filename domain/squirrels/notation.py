"""The notation of a turn: ``G left``, ``dig b2 c4; G left`` (dig first) or ``G left; dig b2 c4`` (dig after)."""

from __future__ import annotations

import re
from typing import NamedTuple

from domain.base import BadNotation
from domain.squirrels.board import CELL_INDEX, COLORS, DIRECTIONS


class Turn(NamedTuple):
    """One whole turn: a colour and a direction, and maybe a dig before or after the move."""

    color: str
    direction: str
    dig: tuple[str, str] | None = None
    dig_first: bool = False


_MOVE = re.compile(r"([a-z]+)\s+([a-z]+)", re.IGNORECASE)
_DIG = re.compile(r"dig\s+(\S+)\s+(\S+)", re.IGNORECASE)


def _cell(text: str) -> str:
    cell = text.lower()
    if cell not in CELL_INDEX:
        raise BadNotation(f"{text!r} is not a cell (a1 to e5)")
    return cell


def _move(text: str) -> tuple[str, str]:
    match = _MOVE.fullmatch(text)
    if not match:
        raise BadNotation(f"{text!r} is not a move: write a colour and a direction, e.g. 'G left'")
    color, direction = match.group(1).upper(), match.group(2).lower()
    if color not in COLORS:
        raise BadNotation(f"{match.group(1)!r} is not a colour (W, U, B, R, G or C)")
    if direction not in DIRECTIONS:
        raise BadNotation(f"{match.group(2)!r} is not a direction (up, down, left or right)")
    return color, direction


def parse(text: str) -> Turn:
    """A turn from its notation; raises ``BadNotation`` for anything else."""
    if not isinstance(text, str):
        raise BadNotation("a move is a text such as 'G left'")
    parts = [part.strip() for part in text.strip().split(";")]
    if len(parts) > 2:
        raise BadNotation("a turn is a move with at most one dig, e.g. 'dig b2 c4; G left'")
    if len(parts) == 2 and not all(parts):
        side = "before" if not parts[0] else "after"
        raise BadNotation(f"nothing {side} ';': a turn is a move and at most one dig, e.g. 'G left; dig b2 c4'")
    for part in parts:
        words = part.split()
        if words and words[0].lower() == "dig" and len(words) != 3:
            raise BadNotation(f"{part!r}: a dig names two cells, the food card's and the empty one it goes to, "
                              "e.g. 'dig b2 c4'")
    digs = [i for i, part in enumerate(parts) if _DIG.fullmatch(part)]
    if len(digs) > 1:
        raise BadNotation("only one dig per turn")
    if len(parts) == 2 and not digs:
        raise BadNotation("two moves in one turn: one move, and at most one dig, e.g. 'G left; dig b2 c4'")
    if len(parts) == 1 and digs:
        raise BadNotation("a dig comes with a move in the same turn, e.g. 'dig b2 c4; G left'")
    dig = None
    if digs:
        frm, to = _DIG.fullmatch(parts[digs[0]]).groups()
        dig = (_cell(frm), _cell(to))
        if dig[0] == dig[1]:
            raise BadNotation(f"dig {dig[0]} {dig[1]}: a dug card moves to another cell, an empty one")
    color, direction = _move(parts[1 - digs[0]] if digs else parts[0])
    return Turn(color, direction, dig, bool(digs) and digs[0] == 0)


def format(turn: Turn) -> str:
    """The canonical notation of a turn."""
    move = f"{turn.color} {turn.direction}"
    if turn.dig is None:
        return move
    dig = f"dig {turn.dig[0]} {turn.dig[1]}"
    return f"{dig}; {move}" if turn.dig_first else f"{move}; {dig}"
