"""Exact play against seats that grab: hard's search when every other seat has only ever taken the best
immediate gain (three or four seats).

A seat that always grabs (``Simulator.grabs``: the plain move of best immediate gain, ties at random) is a chance
node, and usually one with a single outcome, so the game against such seats is small enough to search to its
end: ``Grabbers`` is an expectimax over the AI's actions at its own turns and the grab moves (equally likely) at
the others', with a table of positions searched, valued with the seat's reward (``Simulator.reward``: win share
plus a small term for the point margin). Unlike the tree search it sees the whole game, in particular when the
dig (FS-7) is worth more kept for later than spent now.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.ai.squirrels.actions import Rules
from domain.ai.squirrels.solver import Unsolved
from domain.ai.squirrels.table import MOVE_CELLS, Action, Sim

GRABBERS_SHARE = 0.6
"""Of hard's budget (after the model): the share the exact search may take before the tree search takes over."""


class Grabbers:
    """The expected reward of seat ``me`` when every other seat grabs; raises ``Unsolved`` at ``deadline``."""

    def __init__(self, rules: Rules, me: int, clock: Callable[[], float], deadline: float):
        self.rules, self.me, self.clock, self.deadline = rules, me, clock, deadline
        self.table: dict[tuple, float] = {}
        self.nodes = 0

    def best(self, sim: Sim) -> tuple[Action, float]:
        """The action of ``me`` (to move at ``sim``) of the best expected reward, and that reward."""
        actions = self.rules.actions(sim)
        values = [self._after(sim, action) for action in actions]
        i = max(range(len(actions)), key=values.__getitem__)
        return actions[i], values[i]

    def _after(self, sim: Sim, action: Action) -> float:
        child = sim.copy()
        self.rules.play(child, action)
        return self._value(child)

    def _value(self, sim: Sim) -> float:
        rules = self.rules
        while not sim.over and sim.turn != self.me:  # a grabber with a single grab: no choice, nothing to store
            grabs = rules.grabs(sim)
            if len(grabs) > 1:
                break
            rules.collect(sim, grabs[0][MOVE_CELLS])
            rules.finish_turn(sim)
        if sim.over:
            return rules.reward_of(sim, self.me)
        key = rules.key(sim)
        value = self.table.get(key)
        if value is not None:
            return value
        self.nodes += 1
        if not self.nodes & 63 and self.clock() >= self.deadline:
            raise Unsolved
        if sim.turn == self.me:
            value = max(self._after(sim, action) for action in rules.actions(sim))
        else:
            grabs = rules.grabs(sim)
            value = sum(self._after(sim, (None, *move, None)) for move in grabs) / len(grabs)
        self.table[key] = value
        return value
