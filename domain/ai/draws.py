"""AI seats answering a draw offer: ``easy`` declines; ``normal`` and ``hard`` accept when their own evaluation of
the position, from their seat's view only, gives them little hope.

Murus Gallicus and Foraging Squirrels are played face up, so the seat's view is the whole position and the
analysis engine's chances (``domain/ai/analysis.py``) are fair to use. Mouse Guard and Mission commando hide
cards and commitments: their engines evaluate only the true state, which an AI may not see, so their AIs decline.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.ai import analysis

ACCEPT_BELOW = 0.35
"""A draw is accepted when the AI's chance of winning is below this (a draw is worth half a win)."""


def answer_draw(game: str, view: dict, seat: int, level: str, rng: random.Random, budget: float,
                clock: Callable[[], float]) -> str:
    """``"accept draw"`` or ``"decline draw"`` for the ``level`` AI at ``seat``, thinking at most ``budget``."""
    if level == "easy":
        return "decline draw"
    chance = own_chance(game, view, seat, rng, budget, clock)
    return "accept draw" if chance is not None and chance < ACCEPT_BELOW else "decline draw"


def own_chance(game: str, view: dict, seat: int, rng: random.Random, budget: float,
               clock: Callable[[], float]) -> float | None:
    """``seat``'s winning chance from its own view, or None where the view hides too much to evaluate."""
    if game == "murus":
        score, _, side = analysis.murus_search(view, budget, rng, clock)
        chance = analysis.murus_chance(score)
        return chance if side == seat else 1.0 - chance
    if game == "squirrels" and view.get("status") == "playing":
        return analysis._squirrels(view, budget, rng, clock).win[seat]
    return None
