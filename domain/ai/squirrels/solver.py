"""Exact solving of a two-seat Squirrels game, and hard's use of it around the second player's dig (FS-7).

``Solver`` searches to the end over the AI's actions: negamax with alpha-beta on the outcome for the seat to
move (+1 win, 0 shared win, -1 loss) and a table of solved positions. ``solve`` is hard's policy: see its
docstring.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.ai.squirrels.actions import Rules
from domain.ai.squirrels.table import ACTION_CELLS, Action, Sim

SOLVE_CARDS = 20  # hard, two seats: with at most this many food cards left, first try to solve the game exactly …
SOLVE_ANY_BUDGET = 0.5  # … or at any count with at least this budget (the default of 1 s gives hard 1.7 s)
SOLVE_SHARE = 0.6  # … within this share of the budget (the rest, if unsolved or lost, goes to the tree search)
HOPE_SHARE = 0.85  # with a proven relaxation (see ``solve``), the game itself may be solved until this share


class Unsolved(Exception):
    """The exact search ran out of time."""


class Solver:
    """An exact search of a two-seat game to its end over the tree actions: negamax with alpha-beta on the
    outcome for the seat to move (+1 win, 0 shared win, -1 loss) and a table of solved positions."""

    def __init__(self, rules: Rules, clock: Callable[[], float], deadline: float):
        self.rules, self.clock, self.deadline = rules, clock, deadline
        self.table: dict[tuple, tuple[int, int, Action | None]] = {}  # key → value, flag (0 exact, 1 lower
        # bound, -1 upper bound), best action
        self.nodes = 0

    def best(self, sim: Sim, among: list[Action] | None = None) -> tuple[int, Action]:
        """The value of ``sim`` for its seat to move (playing one of ``among``, default any action) and an action
        reaching it; raises ``Unsolved``."""
        actions = self._ordered(sim, among)
        for target in (1, 0):  # null-window tests, which prune most: a win? else a shared win?
            for action in actions:
                if self._value(sim, action, target - 1, target) >= target:
                    return target, action
        return -1, actions[0]

    def safe(self, sim: Sim, among: list[Action] | None = None) -> tuple[int, list[Action]]:
        """The value of ``sim`` for its seat to move (playing one of ``among``, default any action) and the actions
        that keep it (only one if it is a win: the search needs no more; all of them for a shared win, so the tree
        search may pick the one most likely to win against an opponent who errs). Raises ``Unsolved``."""
        value, action = self.best(sim, among)
        if value != 0:
            return value, [action]
        return 0, [action] + [other for other in self._ordered(sim, among)
                              if other != action and self._value(sim, other, -1, 0) >= 0]

    def _ordered(self, sim: Sim, among: list[Action] | None = None) -> list[Action]:
        actions = self.rules.actions(sim) if among is None else list(among)
        gain = self.rules.gain
        actions.sort(key=lambda action: -gain(sim, action[ACTION_CELLS]))
        return actions

    def _value(self, sim: Sim, action: Action, alpha: int, beta: int) -> int:
        """The value of playing ``action`` at ``sim``, for the seat playing it."""
        child = sim.copy()
        self.rules.play(child, action)
        if child.over:
            points = self.rules.points(child)
            mine, theirs = points[sim.turn], points[1 - sim.turn]
            return (mine > theirs) - (mine < theirs)
        return -self._search(child, -beta, -alpha)

    def _search(self, sim: Sim, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 31 and self.clock() >= self.deadline:
            raise Unsolved
        key = (tuple(sim.grid), sim.turn, sim.dug[0], sim.dug[1], sim.opened, *map(tuple, sim.tally))
        entry = self.table.get(key)
        known = None
        if entry is not None:
            value, flag, known = entry
            if flag == 0 or (flag > 0 and value >= beta) or (flag < 0 and value <= alpha):
                return value
        original_alpha, best, best_action = alpha, -2, None
        if known is not None:  # the action that decided this position last time is tried before any other
            best = alpha = max(alpha, self._value(sim, known, alpha, beta))
            best_action = known
        if alpha < beta:
            for action in self._ordered(sim):
                if action == known:
                    continue
                value = self._value(sim, action, alpha, beta)
                if value > best:
                    best, best_action = value, action
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
        self.table[key] = (best, 1 if best >= beta else -1 if best <= original_alpha else 0, best_action)
        return best


def solve(rules: Rules, sim: Sim, clock: Callable[[], float], start: float, budget: float
          ) -> tuple[Action | None, list[Action] | None]:
    """Hard's exact solving in a two-seat game: an action to play at once, or the actions the tree search should
    choose among (None: any).

    While the opponent still holds its dig (FS-7; hard is then the first player and has none), perfect play
    nearly always beats hard, so it solves the game *as if the opponent never digs*: that relaxation only takes
    options from the opponent, so its value bounds the game's from above (a relaxed loss is a loss). Its proven
    win is played (the opponent must then find the right dig to avoid losing); its proven shared win restricts
    the choice to the actions that keep it. A proven result of the game itself comes first, though: a win is
    played, and a shared win is never traded for a hope. The tree search, if any, assumes no dig either.

    Otherwise it solves the game itself (with at most ``SOLVE_CARDS`` food cards left): a proven win is played,
    a proven shared win restricts the choice to the actions that keep it, and while nothing is proven hard keeps
    its own dig (plain moves only): the dig decides endgames, where the solver can place it.
    """
    opponent = 1 - sim.turn
    cards = sum(card >= 0 for card in sim.grid)
    solvable = cards <= SOLVE_CARDS or budget >= SOLVE_ANY_BUDGET
    if sim.holds_dig(opponent):
        hopeful = sim.without_dig(opponent)
        hope = Solver(rules, clock, start + SOLVE_SHARE * budget)
        try:
            hoped, keep = hope.safe(hopeful)
        except Unsolved:
            return None, None
        if hoped < 0:  # lost even if the opponent never digs: lost
            return None, None
        if solvable:  # never trade a proven result of the game itself for a hope
            try:
                value, safe = Solver(rules, clock, start + HOPE_SHARE * budget).safe(sim)
            except Unsolved:
                value = -1
            if value > 0:
                return safe[0], None
            if value == 0:  # keep the shared win; hope for more among the actions that keep it
                hope.deadline = start + budget
                try:
                    hoped, keep = hope.safe(hopeful, safe)
                except Unsolved:
                    hoped, keep = 0, safe
        if hoped > 0 or len(keep) == 1:
            return keep[0], None
        return None, keep
    if solvable:
        try:
            value, safe = Solver(rules, clock, start + SOLVE_SHARE * budget).safe(sim)
        except Unsolved:
            pass
        else:
            if value > 0 or (value == 0 and len(safe) == 1):
                return safe[0], None
            return None, safe if value == 0 else None
    return None, rules.plain_actions(sim) if sim.holds_dig(sim.turn) else None
