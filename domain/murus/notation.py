"""The Murus notation: cell names and commands (``a1-a3``, ``a1xb2``, ``a1xxb2``, ``a1*a3``)."""

from __future__ import annotations

import re
from typing import NamedTuple

from domain.base import BadNotation
from domain.murus.board import (
    ADJACENT_FROM,
    COLS,
    DISTRIBUTE,
    DISTRIBUTE_FROM,
    DOUBLE_SACRIFICE,
    FIRE,
    FIRE_FROM,
    OPERATORS,
    ROWS,
    SACRIFICE,
    Move,
)
from domain.text import Text

CELL_NAMES = tuple(f"{'abcdefgh'[i % COLS]}{i // COLS + 1}" for i in range(COLS * ROWS))
"""Cell index → name (``a1`` is index 0, ``h7`` the last)."""
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}

SIDE_NAMES = ("romans", "gauls")
PLAYER_NAMES = (Text("Romans"), Text("Gauls"))

_COMMAND = re.compile(r"([a-h][1-7])(-|xx|x|\*)([a-h][1-7])")


class Command(NamedTuple):
    """One turn: ``frm`` and ``to`` are cell names, ``op`` one of ``-``, ``x``, ``xx``, ``*``."""

    frm: str
    op: str
    to: str


def parse(text: str) -> Command:
    """The command written in ``text``; ``BadNotation`` if it is not Murus notation."""
    if type(text) is str:
        cmd = _COMMANDS.get(text)
        if cmd is not None:
            return cmd
    match = _COMMAND.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise BadNotation(
            Text("{text} is not a Murus command: write a1-a3 (distribute), a1xb2 (sacrifice), a1xxb2 (double "
                 "sacrifice) or a1*a3 (fire)", text=repr(text))
        )
    return Command(*match.groups())


def format(cmd: Command) -> str:
    """The canonical text of ``cmd``."""
    return f"{cmd.frm}{cmd.op}{cmd.to}"


def to_move(cmd: Command) -> Move:
    """The engine move that ``cmd`` names (its legality is not checked)."""
    return (OPERATORS.index(cmd.op), CELL_INDEX[cmd.frm], CELL_INDEX[cmd.to])


def move_text(move: Move) -> str:
    """The canonical notation of an engine move."""
    kind, frm, to = move
    return f"{CELL_NAMES[frm]}{OPERATORS[kind]}{CELL_NAMES[to]}"


MOVE_TEXTS = {
    (kind, frm, frm + offset): move_text((kind, frm, frm + offset))
    for kind, by_offset in ((DISTRIBUTE, DISTRIBUTE_FROM), (SACRIFICE, ADJACENT_FROM),
                            (DOUBLE_SACRIFICE, ADJACENT_FROM), (FIRE, FIRE_FROM[0]), (FIRE, FIRE_FROM[1]))
    for offset, has in by_offset.items()
    for frm in range(COLS * ROWS) if has >> frm & 1
}
"""``move_text`` of every move the generator can produce (each move's geometry), looked up instead of written."""
_COMMANDS = {text: Command(CELL_NAMES[frm], OPERATORS[kind], CELL_NAMES[to])
             for (kind, frm, to), text in MOVE_TEXTS.items()}
"""The canonical text of every geometrically possible move → its command (``parse`` without the regex)."""
