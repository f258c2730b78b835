"""The events of a tic-tac-toe game."""

from __future__ import annotations

from typing import Any

from domain.base import Event


class GameCreated(Event, frozen=True, tag="game_created"):
    seats: int
    options: dict[str, Any]
    position: dict[str, Any]


class Marked(Event, frozen=True, tag="marked"):
    seat: int
    cell: str


class GameEnded(Event, frozen=True, tag="game_ended"):
    winners: list[int]
    reason: str
    termination: str


EVENTS = (GameCreated, Marked, GameEnded)
