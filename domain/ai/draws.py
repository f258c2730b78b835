"""AI seats answering a draw offer: ``easy`` declines; ``normal`` and ``hard`` accept when their own evaluation of
the position, from their seat's view only, gives them little hope.

Murus Gallicus and Foraging Squirrels are played face up, so the seat's view is the whole position and the
analysis engine's chances (``domain/ai/analysis.py``) are fair to use. Mouse Guard and Mission commando hide
cards and commitments: their AIs average their own evaluation over worlds sampled from the view (the opponent's
hand, the deck order, a secret commitment), as their searches do.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.ai import analysis, commando
from domain.ai import mouseguard as mg
from domain.mouseguard.state import board_from_mice

ACCEPT_BELOW = 0.35
"""A draw is accepted when the AI's chance of winning is below this (a draw is worth half a win)."""
WORLDS = 24
"""Worlds sampled from the view where it hides something."""


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
        chance = analysis.murus_chance(score, view["options"]["variant"] == "advanced")
        return chance if side == seat else 1.0 - chance
    if game == "squirrels" and view.get("status") == "playing":
        return analysis._squirrels(view, budget, rng, clock).win[seat]
    if game == "mouseguard" and view.get("phase") != "setup":
        return _mouseguard(view, rng)
    if game == "commando":
        base = commando._base_state(view)
        return sum(commando.evaluate(commando.determinise(base, view, rng), seat) for _ in range(WORLDS)) / WORLDS
    return None


def _mouseguard(view: dict, rng: random.Random) -> float:
    """Hard's fitted evaluation for the viewer's colour, averaged over hands the opponent may hold."""
    game = mg.GameRules(view["options"])
    me = 0 if view["colour"] == "black" else 1
    counts = dict.fromkeys(mg.CARDS, mg.COPIES)
    for card in view["hand"] + view["discard"]:
        counts[card] -= 1
    unseen = [mg.CARDS.index(card) for card, n in counts.items() for _ in range(n)]
    opponent_count = view["hand_counts"]["white" if me == 0 else "black"]
    hands = [[0, 0, 0], [0, 0, 0]]
    for card in view["hand"]:
        hands[me][mg.CARDS.index(card)] += 1
    mover = me if view.get("you") in view["to_act"] else 1 - me
    root = mg.Sim(board_from_mice(view["mice"]), hands, [], [mg.CARDS.index(c) for c in view["discard"]],
                  [view["captured"]["black"], view["captured"]["white"]], mover, view["plies"])
    worlds = [mg._determinise(root, me, opponent_count, unseen, rng) for _ in range(WORLDS)]
    return sum(mg.evaluate(game, world, me, hard=True) for world in worlds) / WORLDS
