"""Max-n UCT over the Squirrels AI's actions: each node maximises the reward of the seat to move there.

Playouts are random moves, or with probability ``greedy`` the move of best immediate gain; with digs (hard) a
seat still holding its dig uses it at the end (``Rules.closing_dig``). The reward of a finished game is each
seat's win share plus a small term for the point margin (``Simulator.reward``).

With ``grab`` (hard with three or four seats, ``model.grab_chances``) a seat other than the root's grabs with its
chance: at its nodes the tree then follows a move of best immediate gain (they come first among its actions)
instead of the seat's own best reply, and in playouts it grabs (and never digs) with that chance. Each node's
value is then the mixture of the two.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from domain.ai.squirrels.actions import Rules
from domain.ai.squirrels.table import ACTION_CELLS, MOVE_CELLS, Action, Sim

C = 0.7  # UCT exploration for rewards in about [0, 1]
GREEDY = {2: 0.75, 3: 0.3, 4: 0.3}
"""Hard's playouts, by seats: the share of moves of best immediate gain (with three seats, against two normal
players: 0.75 won 31-33% of 120 games, 0.3 41%, 0.001 42%; ``docs/ai.md``)."""


class Node:
    __slots__ = ("actions", "children", "grabs", "seat", "totals", "visits")

    def __init__(self, seat: int, seats: int):
        self.seat = seat
        self.actions: list[Action] | None = None
        self.grabs = 0  # with a grab model: the first ``grabs`` actions are the moves of best immediate gain
        self.children: list[Node] = []
        self.visits = 0
        self.totals = [0.0] * seats


def playout(rules: Rules, sim: Sim, rng: random.Random, greedy: float, digs: bool,
            grab: list[float] | None = None) -> list[float]:
    """Play to the end: random moves, or with probability ``greedy`` the best immediate gain; with ``digs`` a
    seat still holding its dig uses it at the end (``Rules.closing_dig``). With ``grab``, a seat grabs (and does
    not dig) with its chance, and plays as above otherwise."""
    while not sim.over:
        moves = rules.moves(sim)
        if grab is not None and grab[sim.turn] and rng.random() < grab[sim.turn]:
            rules.collect(sim, rng.choice(rules.grabs(sim, moves))[MOVE_CELLS])
            rules.finish_turn(sim)
            continue
        move = rng.choice(rules.grabs(sim, moves) if greedy and rng.random() < greedy else moves)
        rules.collect(sim, move[MOVE_CELLS])
        if digs and rules.can_dig(sim):
            dig = rules.closing_dig(sim)
            if dig:
                rules.dig(sim, *dig)
        rules.finish_turn(sim)
    return rules.reward(sim)


def search(rules: Rules, root_sim: Sim, rng: random.Random, budget: float, clock: Callable[[], float],
           greedy: float, max_iterations: int = 1_000_000, root_actions: list[Action] | None = None,
           grab: list[float] | None = None) -> tuple[Action, int]:
    """Max-n UCT from ``root_sim`` (over ``root_actions`` if given; the other seats grabbing with their ``grab``
    chances); the most visited action and the iterations run."""
    root, iterations = grow(rules, root_sim, rng, budget, clock, greedy, max_iterations, root_actions, grab)
    if not root.children:  # a single action, or no time for a single iteration
        return root.actions[0], 0
    return root.actions[most_visited(root)], iterations


def most_visited(root: Node) -> int:
    """The index of the root's most visited child (ties: the better total for the seat to move)."""
    return max(range(len(root.children)), key=lambda i: (root.children[i].visits,
                                                         root.children[i].totals[root.seat]))


def grow(rules: Rules, root_sim: Sim, rng: random.Random, budget: float, clock: Callable[[], float],
         greedy: float, max_iterations: int = 1_000_000, root_actions: list[Action] | None = None,
         grab: list[float] | None = None) -> tuple[Node, int]:
    """The max-n UCT tree grown from ``root_sim`` for ``budget`` seconds (the other seats grabbing with their
    ``grab`` chances), and the iterations run (none with a single action: nothing to choose)."""
    start = clock()
    if grab is not None:
        grab = [0.0 if seat == root_sim.turn else chance for seat, chance in enumerate(grab)]
        if not any(grab):
            grab = None
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
                if grab is not None and grab[node.seat]:
                    _grabs_first(rules, sim, node)
            if grab is not None and node.grabs and rng.random() < grab[node.seat]:  # this seat grabs
                i = rng.randrange(node.grabs)
                if i < len(node.children):
                    rules.play(sim, node.actions[i])
                    node = node.children[i]
                    path.append(node)
                    continue
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
        reward = rules.reward(sim) if sim.over else playout(rules, sim, rng, greedy, greedy > 0, grab)
        for visited in path:
            visited.visits += 1
            for seat in range(rules.seats):
                visited.totals[seat] += reward[seat]
    return root, iterations


def grab_actions(rules: Rules, sim: Sim, actions: list[Action]) -> list[Action]:
    """The ``actions`` that are a plain move of best immediate gain (``Simulator.grabs``), in their order."""
    cells = {move[MOVE_CELLS] for move in rules.grabs(sim)}
    return [a for a in actions if a[0] is None and a[4] is None and a[ACTION_CELLS] in cells]


def _grabs_first(rules: Rules, sim: Sim, node: Node) -> None:
    """Put the plain moves of best immediate gain first among ``node``'s actions, and count them."""
    grabs = grab_actions(rules, sim, node.actions)
    node.actions = grabs + [a for a in node.actions if a not in grabs]
    node.grabs = len(grabs)


def _ucb(child: Node, seat: int, log_n: float) -> float:
    return child.totals[seat] / child.visits + C * math.sqrt(log_n / child.visits)
