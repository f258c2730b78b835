"""Exact max-n solving of a Squirrels endgame with three or more seats (hard).

With two seats the game is zero-sum and ``solver.Solver`` proves it with alpha-beta. With more seats each seat
plays for its own share: ``MaxN`` searches to the end over the AI's actions, every seat choosing the action best
for its own reward (``Simulator.reward``: win share plus a small margin term, as the tree search scores a
playout), with a table of solved positions. Max-n has no deep pruning, so only endgames (at most
``MAXN_CARDS`` food cards) are tried, within a share of the budget; an unfinished search leaves the choice to the
tree search.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.ai.squirrels.actions import Rules
from domain.ai.squirrels.solver import Unsolved
from domain.ai.squirrels.table import ACTION_CELLS, Action, Sim

MAXN_CARDS = 12  # hard, three or more seats: with at most this many food cards left, try to solve the end …
MAXN_SHARE = 0.5  # … within this share of the budget


class MaxN:
    """Exact max-n search to the end of the game; raises ``Unsolved`` at the deadline."""

    def __init__(self, rules: Rules, clock: Callable[[], float], deadline: float):
        self.rules, self.clock, self.deadline = rules, clock, deadline
        self.table: dict[tuple, tuple[float, ...]] = {}
        self.nodes = 0

    def best(self, sim: Sim) -> tuple[tuple[float, ...], Action]:
        """The rewards of ``sim`` under max-n play and the action of its seat to move that reaches them."""
        best_value, best_action = None, None
        for action in self._ordered(sim):
            value = self._value(sim, action)
            if best_value is None or value[sim.turn] > best_value[sim.turn]:
                best_value, best_action = value, action
        return best_value, best_action

    def _ordered(self, sim: Sim) -> list[Action]:
        actions = self.rules.actions(sim)
        gain = self.rules.gain
        actions.sort(key=lambda action: -gain(sim, action[ACTION_CELLS]))
        return actions

    def _value(self, sim: Sim, action: Action) -> tuple[float, ...]:
        child = sim.copy()
        self.rules.play(child, action)
        if child.over:
            return tuple(self.rules.reward(child))
        return self._search(child)

    def _search(self, sim: Sim) -> tuple[float, ...]:
        self.nodes += 1
        if not self.nodes & 31 and self.clock() >= self.deadline:
            raise Unsolved
        key = (tuple(sim.grid), sim.turn, tuple(sim.dug), sim.opened, *map(tuple, sim.tally))
        value = self.table.get(key)
        if value is None:
            value = self.best(sim)[0]
            self.table[key] = value
        return value


def endgame(rules: Rules, sim: Sim, clock: Callable[[], float], start: float, budget: float) -> Action | None:
    """Hard's max-n move in an endgame of three or more seats, or None (too many cards, or out of time)."""
    if sum(card >= 0 for card in sim.grid) > MAXN_CARDS:
        return None
    try:
        return MaxN(rules, clock, start + MAXN_SHARE * budget).best(sim)[1]
    except Unsolved:
        return None
