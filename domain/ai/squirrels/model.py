"""What hard knows of the other seats: how likely each one is to simply grab, learned from its moves so far.

With three or four seats max-n assumes every other seat plays its own best reply. Against players who think that
is right; against players who grab the largest immediate gain (easy's rule, and many people's) it is wrong about
the game. Hard tells them apart from the game so far: each seat starts at ``PRIOR``; a move of best immediate gain
without a dig is ``1 / THINKER_GRABS`` times likelier from a grabber than from a thinker, any other move
``GRABBER_STRAYS / (1 - THINKER_GRABS)`` times. The tree search (``mcts.grow``) then lets a seat grab with that
chance and think otherwise. A seat that has never strayed (not yet played, or only grabbed) counts as a certain
grabber (``sure_grabbers``): a single move off the best gain makes it a thinker at once, while grabs are weak
evidence, as thinkers grab often too (against three easy players at four seats, 61% → 77% over 100 development
games; ``docs/ai.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.ai.squirrels.actions import rebuild
from domain.ai.squirrels.mcts import GREEDY, grow

PRIOR = 0.5
THINKER_GRABS = 0.7
"""How often a searching player's move is also a move of best immediate gain (measured: normal 70%, hard 80%)."""
SURE = PRIOR
"""A seat whose chance is still at least this (it has never strayed, ``sure_grabbers``) is taken for a grabber."""
GRABBER_STRAYS = 0.05
"""How often a grabber plays anything else (easy never does; a person who mostly grabs may)."""


def grab_chances(history: list[dict], seats: int, me: int, rng: random.Random, clock: Callable[[], float],
                 budget: float) -> list[float]:
    """Per seat, the chance that it grabs, from ``history`` (the views at every version so far), in about
    ``budget`` seconds: each move of a seat other than ``me`` weighs by how likely a thinker was to play a grab
    there, which a short max-n search of that position tells (``THINKER_GRABS`` without time for it)."""
    # A turn starts at the first version showing its (plies, seat to move); its move ends at the first version
    # with one more ply and the same seat (its turn has not passed yet).
    starts: dict[tuple[int, int], dict] = {}
    for view in history:
        if view.get("status") == "playing":
            starts.setdefault((view["plies"], view["turn"]), view)
    played = [(view, starts[plies + 1, seat]) for (plies, seat), view in sorted(starts.items())
              if seat != me and (plies + 1, seat) in starts]
    odds = [PRIOR / (1 - PRIOR)] * seats
    start = clock()
    for n, (before, after) in enumerate(played):
        rules, sim = rebuild(before)
        share = (budget - (clock() - start)) / (len(played) - n)
        thinker = _thinker_grabs(rules, sim, rng, clock, share) if share > 0.002 else THINKER_GRABS
        if grabbed(rules, sim, before, after):
            odds[before["turn"]] *= 1 / thinker
        else:
            odds[before["turn"]] *= GRABBER_STRAYS / (1 - thinker)
    return [o / (1 + o) for o in odds]


def sure_grabbers(chances: list[float], me: int) -> list[float]:
    """``chances`` with every seat but ``me`` that has never strayed from the best immediate gain (its chance at
    least ``SURE``) counted as a certain grabber (1.0)."""
    return [1.0 if seat != me and chance >= SURE else chance for seat, chance in enumerate(chances)]


def _thinker_grabs(rules, sim, rng, clock, budget) -> float:
    """How likely a thinker was to grab from ``sim``: the share of a short max-n search's visits on grabs."""
    root, _ = grow(rules, sim, rng, budget, clock, greedy=GREEDY[rules.seats])
    if not root.children:
        return THINKER_GRABS
    best = _best_gain(rules, sim)
    on_grabs = sum(child.visits for (before, _, _, cells, after), child in zip(root.actions, root.children)
                   if before is None and after is None and rules.gain(sim, cells) >= best - 1e-9)
    return min(0.95, max(0.1, on_grabs / sum(child.visits for child in root.children)))


def grabbed(rules, sim, before: dict, after: dict) -> bool:
    """The move from ``before`` (``sim``) to ``after`` was a move of best immediate gain, without a dig."""
    mover = before["turn"]
    if after["dug"][mover] != before["dug"][mover]:
        return False
    index = {int(cid): n for n, cid in enumerate(sorted(before["cards"], key=int))}  # as ``table.load``
    cell = {card: i for i, card in enumerate(sim.grid) if card >= 0}
    cells = tuple(cell[index[cid]] for cid in after["piles"][mover][len(before["piles"][mover]):])
    return rules.gain(sim, cells) >= _best_gain(rules, sim) - 1e-9


def _best_gain(rules, sim) -> float:
    return max(rules.gain(sim, cells) for _, _, cells in rules.moves(sim))
