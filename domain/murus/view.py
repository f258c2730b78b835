"""What a viewer sees of a Murus game: ``view``, ``redact``, ``describe`` and ``render`` (nothing is hidden)."""

from __future__ import annotations

from typing import Any

from domain.base import Event, Viewer
from domain.murus import board
from domain.murus.events import Captured, GameCreated, GameEnded, Moved
from domain.murus.notation import CELL_NAMES, PLAYER_NAMES
from domain.murus.position import board_text, position_json
from domain.murus.rules import result, status
from domain.murus.state import State

STACK_NAMES = {1: "wall", 2: "tower", 3: "catapult"}


def view(state: State, viewer: Viewer) -> dict[str, Any]:
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


def render(state: State) -> str:
    """A plain-text board with the side to move, the ply and the result."""
    text = board_text(state.pos) + f", ply {state.ply}"
    if state.result is not None:
        winners = state.result["winners"]
        who = " and ".join(PLAYER_NAMES[w] for w in winners) + " win: " if winners else ""
        text += f"\nGame over. {who}{state.result['reason']}"
    return text
