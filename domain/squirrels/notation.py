"""The notation of a turn: ``G left``, ``dig b2 c4; G left`` (dig first) or ``G left; dig b2 c4`` (dig after)."""

from __future__ import annotations

import re
from typing import NamedTuple

from domain.base import BadNotation
from domain.squirrels.board import CELL_INDEX, COLORS, DIRECTIONS
from domain.text import Text


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
        raise BadNotation(Text("{text} is not a cell (a1 to e5)", text=repr(text)))
    return cell


def _move(text: str) -> tuple[str, str]:
    match = _MOVE.fullmatch(text)
    if not match:
        raise BadNotation(Text("{text} is not a move: write a colour and a direction, e.g. 'G left'",
                               text=repr(text)))
    color, direction = match.group(1).upper(), match.group(2).lower()
    if color not in COLORS:
        raise BadNotation(Text("{value} is not a colour (W, U, B, R, G or C)", value=repr(match.group(1))))
    if direction not in DIRECTIONS:
        raise BadNotation(Text("{value} is not a direction (up, down, left or right)", value=repr(match.group(2))))
    return color, direction


def parse(text: str) -> Turn:
    """A turn from its notation; raises ``BadNotation`` for anything else."""
    if not isinstance(text, str):
        raise BadNotation(Text("a move is a text such as 'G left'"))
    parts = [part.strip() for part in text.strip().split(";")]
    if len(parts) > 2:
        raise BadNotation(Text("a turn is a move with at most one dig, e.g. 'dig b2 c4; G left'"))
    if len(parts) == 2 and not all(parts):
        side = "before" if not parts[0] else "after"
        raise BadNotation(Text("nothing {side} ';': a turn is a move and at most one dig, e.g. 'G left; dig b2 "
                               "c4'", side=side))
    for part in parts:
        words = part.split()
        if words and words[0].lower() == "dig" and len(words) != 3:
            raise BadNotation(Text("{part}: a dig names two cells, the food card's and the empty one it goes to, "
                                   "e.g. 'dig b2 c4'", part=repr(part)))
    digs = [i for i, part in enumerate(parts) if _DIG.fullmatch(part)]
    if len(digs) > 1:
        raise BadNotation(Text("only one dig per turn"))
    if len(parts) == 2 and not digs:
        raise BadNotation(Text("two moves in one turn: one move, and at most one dig, e.g. 'G left; dig b2 c4'"))
    if len(parts) == 1 and digs:
        raise BadNotation(Text("a dig comes with a move in the same turn, e.g. 'dig b2 c4; G left'"))
    dig = None
    if digs:
        frm, to = _DIG.fullmatch(parts[digs[0]]).groups()
        dig = (_cell(frm), _cell(to))
        if dig[0] == dig[1]:
            raise BadNotation(Text("dig {dig} {dig2}: a dug card moves to another cell, an empty one",
                                   dig=dig[0], dig2=dig[1]))
    color, direction = _move(parts[1 - digs[0]] if digs else parts[0])
    return Turn(color, direction, dig, bool(digs) and digs[0] == 0)


def format(turn: Turn) -> str:
    """The canonical notation of a turn."""
    move = f"{turn.color} {turn.direction}"
    if turn.dig is None:
        return move
    dig = f"dig {turn.dig[0]} {turn.dig[1]}"
    return f"{dig}; {move}" if turn.dig_first else f"{move}; {dig}"
