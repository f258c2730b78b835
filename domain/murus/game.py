"""The Murus decider: commands in, events out, state folded from events (RULES.md §1)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from domain.base import BadSetup, Event, IllegalMove, Rng, Setup, Viewer, check_options
from domain.murus import board
from domain.murus.board import BREAKTHROUGH, DISTRIBUTE, HELD, Position
from domain.murus.events import Captured, GameCreated, GameEnded, Moved
from domain.murus.explain import explain_illegal
from domain.murus.notation import (
    CELL_INDEX,
    CELL_NAMES,
    PLAYER_NAMES,
    Command,
    format,
    move_text,
    parse,
    to_move,
)
from domain.murus.position import STONE_LETTERS, board_text, load_position, position_json, stack_text

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
        by_cell = board.stacks(state.pos)
        for name, text in event.cells.items():
            if text:
                by_cell[CELL_INDEX[name]] = (STONE_LETTERS.index(text[0]), len(text))
            else:
                by_cell.pop(CELL_INDEX[name], None)
        return dataclasses.replace(state, pos=board.from_stacks(by_cell, state.side ^ 1), ply=state.ply + 1,
                                   last_move=event.move, last_cells=tuple(event.cells))
    if isinstance(event, GameEnded):
        return dataclasses.replace(state, result={"winners": list(event.winners), "reason": event.reason})
    return state  # captured: already applied by its moved event


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
    if move not in board.generate(state.pos, state.advanced):
        raise IllegalMove(explain_illegal(state.pos, state.advanced, cmd))
    child = board.play(state.pos, move)
    before, after = board.stacks(state.pos), board.stacks(child)
    changed = sorted(i for i in before.keys() | after.keys() if before.get(i) != after.get(i))
    kind = move[0]
    events: list[Event] = [Moved(
        seat=seat, move=format(cmd), kind=KIND_NAMES[kind], frm=cmd.frm, to=cmd.to,
        cells={CELL_NAMES[i]: stack_text(*after[i]) if i in after else "" for i in changed},
    )]
    target = move[2]
    victim = before.get(target)
    if kind != DISTRIBUTE and victim is not None and victim[0] != seat:
        left = stack_text(*after[target]) if target in after else ""
        events.append(Captured(seat=seat, cell=cmd.to, removed=victim[1] - len(left), left=left))
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
    return sorted(move_text(move) for move in board.generate(state.pos, state.advanced))


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

