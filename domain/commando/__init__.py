"""Mission commando (RULES.md §4): a roll-and-move race to the enemy base, with fights and caution cards.

The decider interface of ``domain/base.py``. The board is data (``default-board.json``, schema in
``docs/commando-board.md``); option ``board`` replaces it with a board object (the domain reads no file).
"""

from __future__ import annotations

import random
from functools import reduce
from typing import Any

from domain.base import Setup, Viewer
from domain.commando import rules
from domain.commando.events import EVENTS
from domain.commando.events import Event as _Event
from domain.commando.notation import Command, format, parse
from domain.commando.position import SEATS, dump_position, initial_events
from domain.commando.state import State, evolve
from domain.commando.views import describe, redact, render, view

NAME = "commando"


def initial(setup: Setup, rng: random.Random) -> list[_Event]:
    """The events that create a game: ``game_created``, the shuffled caution deck, any lost first turn."""
    events = initial_events(setup, rng)
    state = reduce(evolve, events, None)
    assert state is not None
    return [*events, *rules.start_events(state, rng)]


def decide(state: State, seat: int, cmd: Command, rng: random.Random) -> list[_Event]:
    """The events ``seat``'s command produces; ``IllegalMove`` says why it is refused."""
    return rules.decide(state, seat, cmd, rng)


def to_act(state: State) -> list[int]:
    """Seats that may act now (both fighters while commitments are owed)."""
    return rules.to_act(state)


def legal(state: State, seat: int) -> list[str]:
    """Every legal command of ``seat`` now, in notation."""
    return rules.legal(state, seat)


def status(state: State) -> str:
    """"playing" or "finished" (no setup phase)."""
    return "finished" if state.phase == "finished" else "playing"


def result(state: State) -> dict[str, Any] | None:
    """The winners and why, once finished; a turn-limit draw has no winners."""
    if state.winners is None:
        return None
    return {"winners": list(state.winners), "reason": state.reason}


__all__ = [
    "EVENTS",
    "NAME",
    "SEATS",
    "Viewer",
    "decide",
    "describe",
    "dump_position",
    "evolve",
    "format",
    "initial",
    "legal",
    "parse",
    "redact",
    "render",
    "result",
    "status",
    "to_act",
    "view",
]
