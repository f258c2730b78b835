"""What a viewer sees of a Murus game: ``view``, ``redact``, ``describe`` and ``render`` (nothing is hidden)."""

from __future__ import annotations

from typing import Any

from domain.base import Event, Viewer, plain_result
from domain.murus import board
from domain.murus.events import Captured, GameCreated, GameEnded, Moved
from domain.murus.notation import CELL_NAMES, PLAYER_NAMES
from domain.murus.position import board_text, position_json
from domain.murus.rules import reason_text, result, status
from domain.murus.state import State
from domain.text import Seat, Text

_LOST = {1: Text("{player} loses the wall on {cell}"), 2: Text("{player} loses the tower on {cell}"),
         3: Text("{player} loses the catapult on {cell}")}
_SHRUNK = {(2, 1): Text("{player}'s tower on {cell} becomes a wall"),
           (3, 2): Text("{player}'s catapult on {cell} becomes a tower"),
           (3, 1): Text("{player}'s catapult on {cell} becomes a wall")}
_KINDS = {"distribute": Text("{player}: {move}"), "sacrifice": Text("{player}: {move} (sacrifice)"),
          "double_sacrifice": Text("{player}: {move} (double sacrifice)"), "fire": Text("{player}: {move} (fire)")}


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
        "result": plain_result(result(state)),
    }


def redact(event: Event, viewer: Viewer) -> Event:
    """Murus hides nothing: every viewer sees every event whole."""
    return event


def describe(event: Event) -> Text:
    """One line for the move list (players as seats: the service names them)."""
    if isinstance(event, GameCreated):
        side = PLAYER_NAMES[1 if event.position.get("turn") == "gauls" else 0]
        if event.options.get("variant") == "advanced":
            return Text("New game (advanced variant): the {side} move first", side=side)
        return Text("New game: the {side} move first", side=side)
    if isinstance(event, Moved):
        line = _KINDS.get(event.kind, _KINDS["distribute"])
        return Text(line.id, player=Seat(event.seat), move=event.move)
    if isinstance(event, Captured):
        was, now = event.removed + len(event.left), len(event.left)
        line = _LOST.get(was, _LOST[1]) if not event.left else _SHRUNK.get((was, now), _SHRUNK[(2, 1)])
        return Text(line.id, player=Seat(event.seat ^ 1), cell=event.cell)
    if isinstance(event, GameEnded):
        reason = reason_text(event.reason)
        if not event.winners:
            return reason
        return Text("{player} wins: {reason}", player=Seat(event.winners[0]), reason=reason)
    return Text(type(event).__name__)


def render(state: State) -> str:
    """A plain-text board with the side to move, the ply and the result."""
    text = board_text(state.pos) + f", ply {state.ply}"
    if state.result is not None:
        winners = state.result["winners"]
        who = " and ".join(PLAYER_NAMES[w] for w in winners) + " win: " if winners else ""
        text += f"\nGame over. {who}{state.result['reason']}"
    return text
