"""The Murus decider: commands in, events out, state folded from events (RULES.md §1)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from domain.base import BadSetup, Event, IllegalMove, Rng, Setup, Viewer, check_options
from domain.murus import board
from domain.murus.board import BREAKTHROUGH, CELLS, DISTRIBUTE, FULL, HELD, Position
from domain.murus.events import Captured, GameCreated, GameEnded, Moved
from domain.murus.explain import explain_illegal
from domain.murus.notation import (
    CELL_INDEX,
    CELL_NAMES,
    MOVE_TEXTS,
    PLAYER_NAMES,
    Command,
    format,
    parse,
    to_move,
)
from domain.murus.position import STONE_LETTERS, board_text, load_position, position_json

NAME = "murus"
SEATS = (2, 2)
OPTIONS = {"variant": "basic", "max_plies": None}
VARIANTS = ("basic", "advanced")
KIND_NAMES = ("distribute", "sacrifice", "double_sacrifice", "fire")
STACK_NAMES = {1: "wall", 2: "tower", 3: "catapult"}
GOAL_ROW_NUMBERS = (7, 1)
"""The row number each side must reach, by side."""


@dataclass(frozen=True)
class MurusState:
    """A game: options, the bitboard position (side to move inside), plies played, last move, result."""

    seats: int
    options: dict[str, Any]
    pos: Position
    ply: int = 0
    last_move: str | None = None
    last_cells: tuple[str, ...] = ()
    result: dict[str, Any] | None = None

    @property
    def advanced(self) -> bool:
        return self.options["variant"] == "advanced"

    @property
    def side(self) -> int:
        """The side (= seat) to move."""
        return self.pos[6]


def initial(setup: Setup, rng: Rng) -> list[Event]:
    """``game_created`` with the options and start position; ``game_ended`` too if that position is over."""
    if setup.seats != 2:
        raise BadSetup("seats", f"Murus Gallicus is played by exactly 2 players, not {setup.seats}")
    options = check_options(setup.options, OPTIONS)
    if options["variant"] not in VARIANTS:
        raise BadSetup("options.variant", f"must be \"basic\" or \"advanced\", not {options['variant']!r}")
    advanced = options["variant"] == "advanced"
    pos = load_position(setup.position, advanced)
    events: list[Event] = [GameCreated(seats=setup.seats, options=options, position=position_json(pos))]
    ending = _ending(pos, advanced, ply=0, max_plies=None)
    if ending is not None:
        events.append(ending)
    return events


def evolve(state: MurusState | None, event: Event) -> MurusState:
    """The state after ``event``."""
    if isinstance(event, GameCreated):
        advanced = event.options["variant"] == "advanced"
        return MurusState(seats=event.seats, options=dict(event.options),
                          pos=load_position(event.position, advanced))
    assert state is not None, "the first event of a game is game_created"
    if isinstance(event, Moved):
        # Each changed cell is cleared on all six planes and its new stack set, from per-cell masks; the new
        # position has the other side to move, so its planes come first. No dictionaries are built.
        m1, m2, m3, t1, t2, t3, side = state.pos
        changes = _CELL_CHANGES[side]
        clear = stones = 0
        for change in event.cells.items():
            masks = changes.get(change)
            if masks is None:
                return _evolve_moved(state, event)
            clear |= masks[0]
            stones |= masks[1]
        keep = ~clear
        pos = ((t1 & keep) | (stones >> _T1 & FULL), (t2 & keep) | (stones >> _T2 & FULL),
               (t3 & keep) | (stones >> _T3 & FULL), (m1 & keep) | (stones & FULL),
               (m2 & keep) | (stones >> _M2 & FULL), (m3 & keep) | (stones >> _M3 & FULL), side ^ 1)
        return _after_move(state, pos, event.move, tuple(event.cells))
    if isinstance(event, GameEnded):
        return dataclasses.replace(state, result={"winners": list(event.winners), "reason": event.reason})
    return state  # captured: already applied by its moved event


_M2, _M3, _T1, _T2, _T3 = (CELLS * plane for plane in range(1, 6))
_CELL_CHANGES = tuple(
    {
        (name, STONE_LETTERS[owner] * height if height else ""): (
            1 << i,
            sum(1 << (i + CELLS * (3 * (owner != mover) + level)) for level in range(height)),
        )
        for i, name in enumerate(CELL_NAMES) for owner in (0, 1) for height in range(4)
    }
    for mover in (0, 1)
)
"""Per side to move, ``(cell name, new stack text)`` of a ``moved`` event → (the cell's bit, its stones on the
six planes packed into one int: plane ``k`` (m1, m2, m3, t1, t2, t3) at bit ``CELLS * k``)."""


def _after_move(state: MurusState, pos: Position, move: str, cells: tuple[str, ...]) -> MurusState:
    """``dataclasses.replace(state, pos=pos, ply=state.ply + 1, last_move=move, last_cells=cells)``, as a copy of
    the instance's fields: the frozen dataclass ``__init__`` (one ``object.__setattr__`` per field) was most of a
    fold step. ``state`` itself is untouched."""
    new = object.__new__(MurusState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields["pos"] = pos
    fields["ply"] = state.ply + 1
    fields["last_move"] = move
    fields["last_cells"] = cells
    return new


def _evolve_moved(state: MurusState, event: Moved) -> MurusState:
    """The state after a ``moved`` event with a cell or stack text outside ``_CELL_CHANGES``: the general path
    through stack dictionaries (it fails on a bad name or stack as it always did)."""
    by_cell = board.stacks(state.pos)
    for name, text in event.cells.items():
        if text:
            by_cell[CELL_INDEX[name]] = (STONE_LETTERS.index(text[0]), len(text))
        else:
            by_cell.pop(CELL_INDEX[name], None)
    return dataclasses.replace(state, pos=board.from_stacks(by_cell, state.side ^ 1), ply=state.ply + 1,
                               last_move=event.move, last_cells=tuple(event.cells))


def _text(bit: int, p1: int, p2: int, p3: int, letter: str) -> str:
    """The stack text of cell ``bit`` in the planes ``p1``–``p3`` of the side written ``letter`` ("" if none)."""
    if not p1 & bit:
        return ""
    return letter * (1 + (p2 & bit != 0) + (p3 & bit != 0))


def decide(state: MurusState, seat: int, cmd: Command | str, rng: Rng) -> list[Event]:
    """The events of ``seat`` playing ``cmd``; ``IllegalMove`` says why not."""
    if state is None:
        raise IllegalMove("There is no game yet.")
    if state.result is not None:
        raise IllegalMove("The game is over.")
    if seat != state.side:
        raise IllegalMove(f"It is not your turn: the {PLAYER_NAMES[state.side]} are to move.")
    if isinstance(cmd, str):
        cmd = parse(cmd)
    move = to_move(cmd)
    pos = state.pos
    if not board.is_legal(pos, move, state.advanced):
        raise IllegalMove(explain_illegal(pos, state.advanced, cmd))
    child = board.play(pos, move)
    # The mover's planes are m (before) and d (after), the other side's t and c; the cells whose stack changed
    # are those where any plane differs, in board order.
    m1, m2, m3, t1, t2, t3, side = pos
    c1, c2, c3, d1, d2, d3, _ = child
    mine, theirs = STONE_LETTERS[side], STONE_LETTERS[side ^ 1]
    changed = (m1 ^ d1) | (m2 ^ d2) | (m3 ^ d3) | (t1 ^ c1) | (t2 ^ c2) | (t3 ^ c3)
    cells = {}
    while changed:
        bit = changed & -changed
        cells[CELL_NAMES[bit.bit_length() - 1]] = _text(bit, d1, d2, d3, mine) or _text(bit, c1, c2, c3, theirs)
        changed ^= bit
    kind = move[0]
    events: list[Event] = [Moved(
        seat=seat, move=format(cmd), kind=KIND_NAMES[kind], frm=cmd.frm, to=cmd.to, cells=cells,
    )]
    target = 1 << move[2]
    if kind != DISTRIBUTE and t1 & target:
        left = _text(target, d1, d2, d3, mine) or _text(target, c1, c2, c3, theirs)
        removed = 1 + (t2 & target != 0) + (t3 & target != 0) - len(left)
        events.append(Captured(seat=seat, cell=cmd.to, removed=removed, left=left))
    ending = _ending(child, state.advanced, ply=state.ply + 1, max_plies=state.options["max_plies"])
    if ending is not None:
        events.append(ending)
    return events


def _ending(pos: Position, advanced: bool, ply: int, max_plies: int | None) -> GameEnded | None:
    """``game_ended`` if the game is over when ``pos`` is reached after ``ply`` plies (MS-6/7/8, MS-A4)."""
    over = board.outcome(pos, advanced)
    if over is not None:
        winner, how = over
        if how == BREAKTHROUGH:
            reason = f"{PLAYER_NAMES[winner]} reached row {GOAL_ROW_NUMBERS[winner]}"
        elif how == HELD:
            reason = f"{PLAYER_NAMES[winner]} reached row {GOAL_ROW_NUMBERS[winner]} and held it for a turn"
        else:
            reason = f"{PLAYER_NAMES[winner ^ 1]} have no legal move"
        return GameEnded(winners=[winner], reason=reason)
    if max_plies is not None and ply >= max_plies:
        return GameEnded(winners=[], reason=f"Draw: the limit of {max_plies} plies was reached")
    return None


def to_act(state: MurusState) -> list[int]:
    """The seat to move, or nobody once the game is over."""
    return [] if state.result is not None else [state.side]


def legal(state: MurusState, seat: int) -> list[str]:
    """Every legal command of ``seat``, in notation, sorted."""
    if state.result is not None or seat != state.side:
        return []
    texts = MOVE_TEXTS
    return sorted([texts[move] for move in board.generate(state.pos, state.advanced)])


def status(state: MurusState) -> str:
    """"playing" or "finished" (Murus has no setup phase)."""
    return "finished" if state.result is not None else "playing"


def result(state: MurusState) -> dict[str, Any] | None:
    """Winners and reason once the game is over."""
    return None if state.result is None else {"winners": list(state.result["winners"]),
                                               "reason": state.result["reason"]}


def view(state: MurusState, viewer: Viewer) -> dict[str, Any]:
    """Everything (perfect information), the same for every viewer; see the module docstring of the package."""
    position = position_json(state.pos)
    m1, _, _, t1, _, _, side = state.pos
    on_goal = (m1 & board.GOAL_ROW[side]) | (t1 & board.GOAL_ROW[side ^ 1])
    return {
        "options": dict(state.options),
        "turn": position["turn"],
        "cells": position["cells"],
        "ply": state.ply,
        "position": position,
        "last_move": state.last_move,
        "last_cells": list(state.last_cells),
        "stack_limit": 3 if state.advanced else 2,
        "intruders": [CELL_NAMES[i] for i in range(board.CELLS) if on_goal >> i & 1],
        "status": status(state),
        "result": result(state),
    }


def redact(event: Event, viewer: Viewer) -> Event:
    """Murus hides nothing: every viewer sees every event whole."""
    return event


def describe(event: Event) -> str:
    """One line for the move list."""
    if isinstance(event, GameCreated):
        turn = event.position.get("turn", "romans")
        return f"New game ({event.options.get('variant', 'basic')} variant), {turn.capitalize()} to move"
    if isinstance(event, Moved):
        extra = "" if event.kind == "distribute" else f" ({event.kind.replace('_', ' ')})"
        return f"{PLAYER_NAMES[event.seat]}: {event.move}{extra}"
    if isinstance(event, Captured):
        victim = PLAYER_NAMES[event.seat ^ 1]
        was = STACK_NAMES.get(event.removed + len(event.left), "stack")
        if not event.left:
            return f"{victim} lose their {was} on {event.cell}"
        return f"{victim}' {was} on {event.cell} becomes a {STACK_NAMES.get(len(event.left), 'stack')}"
    if isinstance(event, GameEnded):
        if not event.winners:
            return event.reason
        return f"{' and '.join(PLAYER_NAMES[w] for w in event.winners)} win: {event.reason}"
    return type(event).__name__


def dump_position(state: MurusState) -> dict[str, Any]:
    """The RULES.md position JSON of the current position (loading it back gives the same board and turn)."""
    return position_json(state.pos)


def render(state: MurusState) -> str:
    """A plain-text board with the side to move, the ply and the result."""
    text = board_text(state.pos) + f", ply {state.ply}"
    if state.result is not None:
        winners = state.result["winners"]
        who = " and ".join(PLAYER_NAMES[w] for w in winners) + " win: " if winners else ""
        text += f"\nGame over. {who}{state.result['reason']}"
    return text


def perft(state: MurusState, depth: int) -> int:
    """Number of move sequences of ``depth`` plies from ``state`` (a finished game has none; ``max_plies``
    is a server limit, not a rule, and is ignored)."""
    if state.result is not None:
        return int(depth == 0)
    return board.perft(state.pos, depth, state.advanced)

