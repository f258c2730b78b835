"""Max-n UCT over the Squirrels AI's actions: each node maximises the reward of the seat to move there.

Playouts are random moves, or with probability ``greedy`` the move of best immediate gain; with digs (hard) a
seat still holding its dig uses it at the end (``Rules.closing_dig``). The reward of a finished game is each
seat's win share plus a small term for the point margin (``Simulator.reward``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from domain.ai.squirrels.actions import Rules
from domain.ai.squirrels.table import MOVE_CELLS, Action, Sim

C = 0.7  # UCT exploration for rewards in about [0, 1]


class Node:
    __slots__ = ("actions", "children", "seat", "totals", "visits")

    def __init__(self, seat: int, seats: int):
        self.seat = seat
        self.actions: list[Action] | None = None
        self.children: list[Node] = []
        self.visits = 0
        self.totals = [0.0] * seats


def playout(rules: Rules, sim: Sim, rng: random.Random, greedy: float, digs: bool) -> list[float]:
    """Play to the end: random moves, or with probability ``greedy`` the best immediate gain; with ``digs`` a
    seat still holding its dig uses it at the end (``Rules.closing_dig``)."""
    while not sim.over:
        moves = rules.moves(sim)
        if greedy and rng.random() < greedy:
            best = max(rules.gain(sim, m[MOVE_CELLS]) for m in moves)
            move = rng.choice([m for m in moves if rules.gain(sim, m[MOVE_CELLS]) == best])
        else:
            move = rng.choice(moves)
        rules.collect(sim, move[MOVE_CELLS])
        if digs and rules.can_dig(sim):
            dig = rules.closing_dig(sim)
            if dig:
                rules.dig(sim, *dig)
        rules.finish_turn(sim)
    return rules.reward(sim)


def search(rules: Rules, root_sim: Sim, rng: random.Random, budget: float, clock: Callable[[], float],
           greedy: float, max_iterations: int = 1_000_000, root_actions: list[Action] | None = None
           ) -> tuple[Action, int]:
    """Max-n UCT from ``root_sim`` (over ``root_actions`` if given); the most visited action and the iterations
    run."""
    root, iterations = grow(rules, root_sim, rng, budget, clock, greedy, max_iterations, root_actions)
    if not root.children:  # a single action, or no time for a single iteration
        return root.actions[0], 0
    return root.actions[most_visited(root)], iterations


def most_visited(root: Node) -> int:
    """The index of the root's most visited child (ties: the better total for the seat to move)."""
    return max(range(len(root.children)), key=lambda i: (root.children[i].visits,
                                                         root.children[i].totals[root.seat]))


def grow(rules: Rules, root_sim: Sim, rng: random.Random, budget: float, clock: Callable[[], float],
         greedy: float, max_iterations: int = 1_000_000, root_actions: list[Action] | None = None
         ) -> tuple[Node, int]:
    """The max-n UCT tree grown from ``root_sim`` for ``budget`` seconds, and the iterations run (none with a
    single action: nothing to choose)."""
    start = clock()
    root = Node(root_sim.turn, rules.seats)
    root.actions = rules.actions(root_sim) if root_actions is None else list(root_actions)
    if len(root.actions) == 1:
        return root, 0
    iterations = 0
    while iterations < max_iterations and clock() - start < budget:
        iterations += 1
        sim, node, path = root_sim.copy(), root, [root]
        while not sim.over:
            if node.actions is None:
                node.actions = rules.actions(sim)
            if len(node.children) < len(node.actions):  # expand the next untried action
                action = node.actions[len(node.children)]
                rules.play(sim, action)
                child = Node(sim.turn, rules.seats)
                node.children.append(child)
                path.append(child)
                break
            log_n, seat = math.log(node.visits), node.seat
            best_i = max(range(len(node.children)), key=lambda i: _ucb(node.children[i], seat, log_n))
            rules.play(sim, node.actions[best_i])
            node = node.children[best_i]
            path.append(node)
        reward = rules.reward(sim) if sim.over else playout(rules, sim, rng, greedy, greedy > 0)
        for visited in path:
            visited.visits += 1
            for seat in range(rules.seats):
                visited.totals[seat] += reward[seat]
    return root, iterations


def _ucb(child: Node, seat: int, log_n: float) -> float:
    return child.totals[seat] / child.visits + C * math.sqrt(log_n / child.visits)
