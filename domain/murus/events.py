"""The events of a Murus game. Murus has no hidden information: nothing is ever redacted."""

from __future__ import annotations

from typing import Any

from domain.base import Event


class GameCreated(Event, frozen=True, tag="game_created"):
    """A new game: its options (``variant``, ``max_plies``) and the start position (docs/rules.md position
    JSON)."""

    seats: int
    options: dict[str, Any]
    position: dict[str, Any]


class Moved(Event, frozen=True, tag="moved"):
    """One turn: ``move`` in notation, its ``kind`` (distribute | sacrifice | double_sacrifice | fire),
    the tower or catapult cell ``frm``, the far cell or target ``to``, and ``cells``: the new stack of every
    cell the turn changed (``""`` = now empty). Replaying ``cells`` rebuilds the board."""

    seat: int
    move: str
    kind: str
    frm: str
    to: str
    cells: dict[str, str]


class Captured(Event, frozen=True, tag="captured"):
    """Enemy stones removed by a sacrifice or a fire (already part of the ``moved`` cells; for the feed)."""

    seat: int
    cell: str
    removed: int
    left: str


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The game is over: ``winners`` (seats; empty for a draw), the ``reason`` as a sentence and the
    ``termination`` ("rules" or "max_plies"; absent from games stored before it existed: see ``state.evolve``)."""

    winners: list[int]
    reason: str
    termination: str | None = None


EVENTS = (GameCreated, Moved, Captured, GameEnded)
