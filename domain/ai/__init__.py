"""AI players: pure search over the games' deciders, from a seat's view only.

A game's AI module is the one its registration names (``GameType.ai``, ``domain/registry.py``), for the built-in
games ``domain/ai/<game>.py``; it exposes::

    choose(view: dict, seat: int, level: str, rng: random.Random, budget: float, clock: Callable[[], float]) -> str

``view`` is exactly what ``<game>.view(state, seat)`` gives a human at that seat: the AI never sees another seat's
hand, the deck order, a secret commitment or a future die (it determinises or samples them). ``level`` is
``"easy"`` (random or greedy), ``"normal"`` or ``"hard"`` (real search). ``budget`` is the thinking time in
seconds, measured with the injected ``clock`` (the domain never reads a clock itself). The answer is one command
in the game's notation, legal for that seat. A module that sets ``READS_HISTORY`` also takes ``history``: that
seat's views at every earlier version (what a person at that seat has seen, and nothing more).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

from domain.catalog import LEVELS  # noqa: F401 - the levels, named where games are described

BUDGET_FACTOR = {"easy": 1.0, "normal": 1.0, "hard": 2.0}
"""Hard thinks twice as long as the configured budget (the ``ai_time`` setting)."""


def budget_for(level: str, ai_time: float) -> float:
    """Seconds the ``level`` AI may think when the configured budget is ``ai_time``."""
    return ai_time * BUDGET_FACTOR[level]


def ai_module(game: str) -> ModuleType:
    """The AI module ``game``'s registration names; ``KeyError`` for an unknown game, ``ValueError`` for a game
    without AI players."""
    # Imported here, not above: every game's catalog imports LEVELS from this module, and the registry imports
    # the games.
    from domain import registry

    module = registry.game_type(game).ai_module()
    if module is None:
        raise ValueError(f"{game} has no AI players")
    return module


def reads_history(game: str) -> bool:
    """Whether ``game``'s AI learns from the game so far: then ``choose`` wants its ``history``."""
    return getattr(ai_module(game), "READS_HISTORY", False)


def choose(game: str, view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float], history: list[dict] | None = None) -> str:
    """The command the ``level`` AI of ``game`` plays at ``seat`` from ``view``; ``history`` (for a game whose AI
    ``reads_history``) is that seat's view at every version so far, oldest first, ``view`` last."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    module = ai_module(game)
    if history is not None and reads_history(game):
        return module.choose(view, seat, level, rng, budget, clock, history=history)
    return module.choose(view, seat, level, rng, budget, clock)
