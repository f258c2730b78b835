"""AI for Foraging Squirrels: greedy (easy) and max-n MCTS over the open grid (normal, hard).

The game has no hidden information, so the seat's view is the whole table: the search rebuilds a compact
simulation from it (grid of card indices, per-seat pile tallies) and never needs to sample anything.

- easy: the plain move (no dig) with the best immediate gain; ties broken by the rng.
- normal: UCT on a max-n tree (each node maximises the reward of the seat to move), random playouts.
- hard: the same tree with greedy-biased playouts, in which a seat still holding its dig uses it to settle the
  end (``Rules.closing_dig``); and in a two-seat game, exact solving first (``Solver``: alpha-beta over win /
  shared win / loss to the end, with a table; ``solve``). The second player's dig (FS-7) decides most games
  between perfect players, so hard plays each seat its own way. Holding the dig, it solves the game (with at most
  ``SOLVE_CARDS`` food cards left, or from the deal at the default budget), plays a proven win, keeps to the
  moves of a proven shared win, and keeps its dig while nothing is proven. Facing a dig still held, it solves the
  game *as if the opponent never dug* (a bound from above: a loss there is a loss) and plays for that win unless
  the game itself proves a result to keep; its tree search assumes the same. With three or four seats hard learns
  from the game so far (``history``) how likely each other seat is to grab the best immediate gain (``model``),
  and its tree lets that seat grab with that chance; a seat that has never strayed from the best gain counts as
  a grabber, and while every other seat does, hard searches the whole game exactly against grabbers first
  (``grabbers``).

Tree actions are every distinct plain move, plus, while the seat still has its dig, the few digs that matter:
digs before the move that bring a valuable card into the squirrel's line and collect it, and digs after the
move that close the game (take the last card out of the new line) or re-open it (bring the cheapest card in).
Playouts use plain moves (and, for hard, closing digs). The reward of a finished game is the win share (1/k
among k tied winners) plus a small term for the point margin, so the search still prefers a bigger win or a
smaller loss.

Modules: ``table`` (the compact table and the game's rules on it, checked against the decider move for move),
``actions`` (the actions the searches consider), ``mcts`` (max-n UCT and playouts), ``solver`` (exact solving and
hard's use of it around the dig), ``model`` (who grabs), ``grabbers`` (exact play against seats that grab);
this module chooses by level.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.ai.squirrels.actions import DIG_BEFORE_KEPT, DIG_SOURCES, Rules, rebuild
from domain.ai.squirrels.grabbers import GRABBERS_SHARE, Grabbers
from domain.ai.squirrels.mcts import GREEDY, C, Node, grow, most_visited, playout, search
from domain.ai.squirrels.model import grab_chances, sure_grabbers
from domain.ai.squirrels.solver import SOLVE_ANY_BUDGET, SOLVE_CARDS, Solver, Unsolved, solve
from domain.ai.squirrels.table import (
    ACTION_CELLS,
    BITS,
    CELL_INDEX,
    CELLS,
    DIRECTIONS,
    EMPTY,
    LETTERS,
    LINES,
    MOVE_CELLS,
    RAYS,
    SQUIRREL,
    Action,
    Cards,
    Dig,
    Move,
    Sim,
    Simulator,
    notation,
)

__all__ = ["ACTION_CELLS", "BITS", "C", "CELLS", "CELL_INDEX", "DIG_BEFORE_KEPT", "DIG_SOURCES", "DIRECTIONS",
           "EMPTY", "GRABBERS_SHARE", "GREEDY", "LETTERS", "LINES", "MOVE_CELLS", "RAYS", "SOLVE_ANY_BUDGET",
           "SOLVE_CARDS", "SQUIRREL", "Action", "Cards", "Dig", "Grabbers", "Move", "Node", "Rules", "Sim",
           "Simulator", "Solver", "Unsolved", "choose", "grab_chances", "grow", "most_visited", "notation",
           "playout", "rebuild", "search", "solve", "sure_grabbers"]


MODEL_SHARE = 0.25
"""Of hard's budget with three or four seats: the share spent learning which seats grab (``model``)."""
READS_HISTORY = True
"""``choose`` takes ``history``: hard learns from it which of the other seats grab (``model``)."""


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float], history: list[dict] | None = None) -> str:
    """The command of the ``level`` AI at ``seat`` from its view (and ``history``, the views at every version so
    far, if known: with three or four seats hard learns from it how likely each other seat is to grab)."""
    rules, sim = rebuild(view)
    if sim.turn != seat:
        raise ValueError(f"seat {seat} is not to play")
    if level == "easy":
        d, letter, cells = rng.choice(rules.grabs(sim))
        return notation((None, d, letter, cells, None))
    # Answer before the budget runs out: keep a margin for rebuilding and returning.
    start, budget = clock(), budget * 0.85
    root_actions = None
    if level == "hard" and rules.seats == 2:
        decided, root_actions = solve(rules, sim, clock, start, budget)
        if decided is not None:
            return notation(decided)
        if sim.holds_dig(1 - seat):  # as in ``solve``: search as if the opponent never dug
            sim = sim.without_dig(1 - seat)
    grab = None
    if level == "hard" and rules.seats > 2 and history:
        grab = sure_grabbers(grab_chances(history, rules.seats, seat, rng, clock, MODEL_SHARE * budget), seat)
        if all(chance == 1.0 for other, chance in enumerate(grab) if other != seat):
            try:  # every other seat grabs: the whole game is small enough to search exactly (``grabbers``)
                return notation(Grabbers(rules, seat, clock, start + GRABBERS_SHARE * budget).best(sim)[0])
            except Unsolved:
                pass
    greedy = GREEDY[rules.seats] if level == "hard" else 0.0
    action, _ = search(rules, sim, rng, budget - (clock() - start), clock, greedy, root_actions=root_actions,
                       grab=grab)
    return notation(action)

