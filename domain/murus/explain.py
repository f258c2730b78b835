"""Why a well-formed Murus command is illegal, as a sentence for the player."""

from __future__ import annotations

from domain.murus.board import COLS, FORWARD, Position, stacks
from domain.murus.notation import CELL_INDEX, CELL_NAMES, PLAYER_NAMES, Command, format
from domain.text import Text


def explain_illegal(pos: Position, advanced: bool, cmd: Command) -> Text:
    """The rule that ``cmd`` breaks in ``pos`` (the side to move plays it)."""
    side = pos[6]
    by_cell = stacks(pos)
    text = format(cmd)
    if not advanced and cmd.op == "xx":
        return Text("{text}: double sacrifices exist only in the advanced variant", text=text)
    if not advanced and cmd.op == "*":
        return Text("{text}: catapults exist only in the advanced variant", text=text)
    source = by_cell.get(CELL_INDEX[cmd.frm])
    if source is None:
        return Text("{frm} is empty", frm=cmd.frm)
    if source[0] != side:
        return Text("{frm} is not your catapult", frm=cmd.frm) if cmd.op == "*" else Text(
            "{frm} is not your tower", frm=cmd.frm)
    height = source[1]
    if cmd.op == "*":
        if height != 3:
            return Text("{frm} is not a catapult: only a stack of 3 stones fires", frm=cmd.frm)
        return _explain_fire(by_cell, side, cmd, text)
    if height == 1:
        return Text("{frm} is a wall: walls never move or act", frm=cmd.frm)
    if height == 3:
        return Text("{frm} is a catapult: catapults never distribute or sacrifice (they fire, like {frm}*…)",
                    frm=cmd.frm)
    if cmd.op == "-":
        return _explain_distribution(by_cell, side, advanced, cmd, text)
    return _explain_sacrifice(by_cell, side, advanced, cmd, text)


def _steps(cmd: Command) -> tuple[int, int]:
    """Column and row distance from ``cmd.frm`` to ``cmd.to``."""
    frm, to = CELL_INDEX[cmd.frm], CELL_INDEX[cmd.to]
    return to % COLS - frm % COLS, to // COLS - frm // COLS


def _explain_distribution(by_cell: dict, side: int, advanced: bool, cmd: Command, text: str) -> Text:
    dc, dr = _steps(cmd)
    if dc not in (-2, 0, 2) or dr not in (-2, 0, 2) or dc == dr == 0:
        return Text("{text}: name the far cell, two cells away in a straight line (orthogonal or diagonal)",
                    text=text)
    frm = CELL_INDEX[cmd.frm]
    middle = frm + (dr // 2) * COLS + dc // 2
    for cell, name in ((middle, CELL_NAMES[middle]), (CELL_INDEX[cmd.to], cmd.to)):
        stack = by_cell.get(cell)
        if stack is None:
            continue
        owner, height = stack
        if owner != side:
            return Text("{name} holds {owner} stones: a tower can neither pass nor land there",
                        name=name, owner=PLAYER_NAMES[owner])
        if height == 3:
            return Text("{name} holds your catapult: no stone lands on a catapult", name=name)
        if height == 2 and not advanced:
            return Text("{name} holds your tower: stones land only on empty cells or your own walls", name=name)
    return Text("{text} is not a legal move here", text=text)


def _explain_sacrifice(by_cell: dict, side: int, advanced: bool, cmd: Command, text: str) -> Text:
    dc, dr = _steps(cmd)
    if max(abs(dc), abs(dr)) != 1:
        return Text("{to} is not next to {frm}: a sacrifice removes an adjacent enemy stack",
                    to=cmd.to, frm=cmd.frm)
    stack = by_cell.get(CELL_INDEX[cmd.to])
    if stack is None:
        return Text("{to} is empty: there is nothing to remove", to=cmd.to)
    owner, height = stack
    if owner == side:
        return Text("{to} holds your own stones", to=cmd.to)
    if height == 2:
        if advanced:
            return Text("{to} is an enemy tower: a sacrifice only removes a wall or a catapult", to=cmd.to)
        return Text("{to} is an enemy tower: a sacrifice only removes a wall", to=cmd.to)
    if cmd.op == "xx" and height == 1:
        return Text("{to} is a wall: a double sacrifice only hits a catapult (write {frm}x{to})",
                    to=cmd.to, frm=cmd.frm)
    return Text("{text} is not a legal move here", text=text)


def _explain_fire(by_cell: dict, side: int, cmd: Command, text: str) -> Text:
    dc, dr = _steps(cmd)
    forward = FORWARD[side]
    distance = max(abs(dc), abs(dr))
    straight = dc in (-distance, 0, distance) and dr in (0, forward * distance)
    if distance not in (2, 3) or not straight:
        return Text("{text}: a catapult fires exactly 2 or 3 cells left, right, forward or diagonally forward",
                    text=text)
    stack = by_cell.get(CELL_INDEX[cmd.to])
    if stack is not None and stack[0] == side:
        return Text("{to} holds your own stones: a catapult fires at an empty cell or an enemy stack", to=cmd.to)
    return Text("{text} is not a legal move here", text=text)
