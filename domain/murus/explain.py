"""Why a well-formed Murus command is illegal, as a sentence for the player."""

from __future__ import annotations

from domain.murus.board import COLS, FORWARD, Position, stacks
from domain.murus.notation import CELL_INDEX, CELL_NAMES, PLAYER_NAMES, Command, format


def explain_illegal(pos: Position, advanced: bool, cmd: Command) -> str:
    """The rule that ``cmd`` breaks in ``pos`` (the side to move plays it)."""
    side = pos[6]
    by_cell = stacks(pos)
    text = format(cmd)
    if not advanced and cmd.op == "xx":
        return f"{text}: double sacrifices exist only in the advanced variant"
    if not advanced and cmd.op == "*":
        return f"{text}: catapults exist only in the advanced variant"
    wanted = "catapult" if cmd.op == "*" else "tower"
    source = by_cell.get(CELL_INDEX[cmd.frm])
    if source is None:
        return f"{cmd.frm} is empty"
    if source[0] != side:
        return f"{cmd.frm} is not your {wanted}"
    height = source[1]
    if cmd.op == "*":
        if height != 3:
            return f"{cmd.frm} is not a catapult: only a stack of 3 stones fires"
        return _explain_fire(by_cell, side, cmd, text)
    if height == 1:
        return f"{cmd.frm} is a wall: walls never move or act"
    if height == 3:
        return f"{cmd.frm} is a catapult: catapults never distribute or sacrifice (they fire, like {cmd.frm}*…)"
    if cmd.op == "-":
        return _explain_distribution(by_cell, side, advanced, cmd, text)
    return _explain_sacrifice(by_cell, side, advanced, cmd, text)


def _steps(cmd: Command) -> tuple[int, int]:
    """Column and row distance from ``cmd.frm`` to ``cmd.to``."""
    frm, to = CELL_INDEX[cmd.frm], CELL_INDEX[cmd.to]
    return to % COLS - frm % COLS, to // COLS - frm // COLS


def _explain_distribution(by_cell: dict, side: int, advanced: bool, cmd: Command, text: str) -> str:
    dc, dr = _steps(cmd)
    if dc not in (-2, 0, 2) or dr not in (-2, 0, 2) or dc == dr == 0:
        return f"{text}: name the far cell, two cells away in a straight line (orthogonal or diagonal)"
    frm = CELL_INDEX[cmd.frm]
    middle = frm + (dr // 2) * COLS + dc // 2
    for cell, name in ((middle, CELL_NAMES[middle]), (CELL_INDEX[cmd.to], cmd.to)):
        stack = by_cell.get(cell)
        if stack is None:
            continue
        owner, height = stack
        if owner != side:
            return f"{name} holds {PLAYER_NAMES[owner]} stones: a tower can neither pass nor land there"
        if height == 3:
            return f"{name} holds your catapult: no stone lands on a catapult"
        if height == 2 and not advanced:
            return f"{name} holds your tower: stones land only on empty cells or your own walls"
    return f"{text} is not a legal move here"


def _explain_sacrifice(by_cell: dict, side: int, advanced: bool, cmd: Command, text: str) -> str:
    dc, dr = _steps(cmd)
    if max(abs(dc), abs(dr)) != 1:
        return f"{cmd.to} is not next to {cmd.frm}: a sacrifice removes an adjacent enemy stack"
    stack = by_cell.get(CELL_INDEX[cmd.to])
    if stack is None:
        return f"{cmd.to} is empty: there is nothing to remove"
    owner, height = stack
    if owner == side:
        return f"{cmd.to} holds your own stones"
    if height == 2:
        hits = "a wall or a catapult" if advanced else "a wall"
        return f"{cmd.to} is an enemy tower: a sacrifice only removes {hits}"
    if cmd.op == "xx" and height == 1:
        return f"{cmd.to} is a wall: a double sacrifice only hits a catapult (write {cmd.frm}x{cmd.to})"
    return f"{text} is not a legal move here"


def _explain_fire(by_cell: dict, side: int, cmd: Command, text: str) -> str:
    dc, dr = _steps(cmd)
    forward = FORWARD[side]
    distance = max(abs(dc), abs(dr))
    straight = dc in (-distance, 0, distance) and dr in (0, forward * distance)
    if distance not in (2, 3) or not straight:
        return f"{text}: a catapult fires exactly 2 or 3 cells left, right, forward or diagonally forward"
    stack = by_cell.get(CELL_INDEX[cmd.to])
    if stack is not None and stack[0] == side:
        return f"{cmd.to} holds your own stones: a catapult fires at an empty cell or an enemy stack"
    return f"{text} is not a legal move here"
