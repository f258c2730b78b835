"""The Murus position JSON (``{"turn": "romans", "cells": {"a1": "RR"}}``), both ways, and a text board."""

from __future__ import annotations

from typing import Any, Protocol

from domain.base import BadSetup
from domain.murus.board import COLS, GOAL_ROW, ROMANS, ROWS, Position, from_stacks, stacks, start_position
from domain.murus.notation import CELL_INDEX, CELL_NAMES, PLAYER_NAMES, SIDE_NAMES
from domain.text import Text


class Positioned(Protocol):
    """What ``dump_position`` reads of a state (``state.State``, which reads this module: no import back)."""

    pos: Position

STONE_LETTERS = "RG"
"""Letter of a stone, by side."""
STONES_PER_SIDE = 16
HOME_ROW_NAMES = ("1", "7")


def stack_text(owner: int, height: int) -> str:
    """A stack as written in a position: one letter per stone (``"RR"``)."""
    return STONE_LETTERS[owner] * height


def cells_json(pos: Position) -> dict[str, str]:
    """Every occupied cell name → its stack text, in board order (a1, b1, …, h7)."""
    return {CELL_NAMES[i]: stack_text(*stack) for i, stack in sorted(stacks(pos).items())}


def position_json(pos: Position) -> dict[str, Any]:
    """The docs/rules.md position JSON of ``pos``."""
    return {"turn": SIDE_NAMES[pos[6]], "cells": cells_json(pos)}


def load_position(data: Any, advanced: bool) -> Position:
    """The position described by ``data`` (omitted fields: start values); ``BadSetup`` names any problem."""
    if data is None:
        return start_position()
    if not isinstance(data, dict):
        raise BadSetup("position", Text('must be an object with "turn" and "cells"'))
    for key in data:
        if key not in ("turn", "cells"):
            raise BadSetup(f"position.{key}", Text("unknown field (known: cells, turn)"))
    turn = data.get("turn", SIDE_NAMES[ROMANS])
    if turn not in SIDE_NAMES:
        raise BadSetup("position.turn", Text("must be \"romans\" or \"gauls\", not {turn}", turn=repr(turn)))
    side = SIDE_NAMES.index(turn)
    if "cells" not in data:
        return start_position() if side == ROMANS else _swap(start_position())
    cells = data["cells"]
    if not isinstance(cells, dict):
        raise BadSetup("position.cells", Text('must be an object mapping cells to stacks, like {{"a1": "RR"}}'))
    limit = 3 if advanced else 2
    parsed = {}
    counts = [0, 0]
    for name, text in cells.items():
        field = f"position.cells.{name}"
        if name not in CELL_INDEX:
            raise BadSetup(field, Text("not a cell of the board (columns a-h, rows 1-7)"))
        if not isinstance(text, str) or not text or set(text) - set(STONE_LETTERS):
            raise BadSetup(field, Text("a stack is one letter per stone, R or G (like \"RR\"), not {text}",
                                       text=repr(text)))
        if len(set(text)) > 1:
            raise BadSetup(field, Text("a stack never mixes Roman and Gaul stones"))
        if len(text) > limit:
            variant = "advanced" if advanced else "basic"
            raise BadSetup(field, Text("a stack of {count} exceeds the limit of {limit} ({variant} variant)",
                                       count=len(text), limit=limit, variant=variant))
        owner = STONE_LETTERS.index(text[0])
        if not advanced and (1 << CELL_INDEX[name]) & GOAL_ROW[owner]:
            raise BadSetup(field, Text("{owner} already stand on row {home_row_names}: the game would be over "
                                       "(breakthrough)",
                                       owner=PLAYER_NAMES[owner], home_row_names=HOME_ROW_NAMES[owner ^ 1]))
        counts[owner] += len(text)
        parsed[CELL_INDEX[name]] = (owner, len(text))
    for owner, count in enumerate(counts):
        if count > STONES_PER_SIDE:
            raise BadSetup("position.cells", Text("the {owner} have {count} stones; each side has only "
                                                  "{stones_per_side}",
                                                  owner=PLAYER_NAMES[owner], count=count,
                                                  stones_per_side=STONES_PER_SIDE))
    return from_stacks(parsed, side)


def _swap(pos: Position) -> Position:
    """The same stones with the other side to move."""
    m1, m2, m3, t1, t2, t3, side = pos
    return (t1, t2, t3, m1, m2, m3, side ^ 1)


def board_text(pos: Position) -> str:
    """A plain-text board, row 7 on top, three characters per cell (``RR `` is a Roman tower, `` . `` an empty
    cell)."""
    by_cell = stacks(pos)
    lines = []
    for row in reversed(range(ROWS)):
        cells = []
        for col in range(COLS):
            stack = by_cell.get(COLS * row + col)
            cells.append(stack_text(*stack).ljust(3) if stack else " . ")
        lines.append(f"{row + 1} " + " ".join(cells))
    lines.append("   " + "   ".join("abcdefgh"))
    lines.append(f"{PLAYER_NAMES[pos[6]]} to move")
    return "\n".join(lines)


def dump_position(state: Positioned) -> dict[str, Any]:
    """The docs/rules.md position JSON of the current position (loading it back gives the same board and turn)."""
    return position_json(state.pos)
