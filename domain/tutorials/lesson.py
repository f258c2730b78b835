"""A tutorial's parts: its ``Step``s, the ``Tutorial``, and the states its steps start from (``domain/tutorials/``:
the scripts of each game beside this module)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from domain.base import Setup
from domain.text import Text

SEED = 39
"""The seed every step's state is created with (Mouse Guard draws the seats' colours, MG-3; a deck left out of a
position is shuffled): the same step is the same board for everyone."""


@dataclass(frozen=True)
class Step:
    """One step: the position, what to do, the moves that complete it and why another move is not it."""

    position: dict[str, Any]
    text: Text
    moves: tuple[str, ...]
    why: Text
    then: tuple[tuple[str, Text], ...] = ()
    """Follow-ups of a step with one move: each the next move asked for (and what it says), in the state after the
    moves before it; the step is done after the last."""
    seats: int = 2
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Tutorial:
    game: str
    title: Text
    steps: tuple[Step, ...]


def state_of(module: ModuleType, step: Step) -> Any:
    """The step's game state, from the game's own ``initial`` (seeded with ``SEED``)."""
    state = None
    for event in module.initial(Setup(seats=step.seats, options=step.options, position=step.position),
                                random.Random(SEED)):
        state = module.evolve(state, event)
    return state


def after(module: ModuleType, state: Any, seat: int, moves: tuple[str, ...] | list[str]) -> Any:
    """The state after ``seat`` plays ``moves`` from ``state`` (dice seeded with ``SEED``)."""
    rng = random.Random(SEED)
    for move in moves:
        for event in module.decide(state, seat, module.parse(move), rng):
            state = module.evolve(state, event)
    return state


def seat_of(module: ModuleType, state: Any) -> int:
    """The seat the player of the tutorial holds: the first to act."""
    return module.to_act(state)[0]
