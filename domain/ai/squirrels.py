"""AI for Foraging Squirrels: greedy (easy) and max-n MCTS over the open grid (normal, hard).

The game has no hidden information, so the seat's view is the whole table: the search rebuilds a compact
simulation from it (grid of card indices, per-seat pile tallies) and never needs to sample anything.

- easy: the plain move (no dig) with the best immediate gain; ties broken by the rng.
- normal: UCT on a max-n tree (each node maximises the reward of the seat to move), random playouts.
- hard: the same tree with greedy-biased playouts, in which a seat still holding its dig uses it to settle the
  end (``Rules.closing_dig``); and in a two-seat game, exact solving first (``Solver``: alpha-beta over win /
  shared win / loss to the end, with a table; see ``_solve``). The second player's dig (FS-7) decides most games
  between perfect players, so hard plays each seat its own way. Holding the dig, it solves the game (with at most
  ``SOLVE_CARDS`` food cards left, or from the deal at the default budget), plays a proven win, keeps to the
  moves of a proven shared win, and keeps its dig while nothing is proven. Facing a dig still held, it solves the
  game *as if the opponent never dug* (a bound from above: a loss there is a loss) and plays for that win unless
  the game itself proves a result to keep; its tree search assumes the same.

Tree actions are every distinct plain move, plus, while the seat still has its dig, the few digs that matter:
digs before the move that bring a valuable card into the squirrel's line and collect it, and digs after the
move that close the game (take the last card out of the new line) or re-open it (bring the cheapest card in).
Playouts use plain moves (and, for hard, closing digs). The reward of a finished game is the win share (1/k
among k tied winners) plus a small term for the point margin, so the search still prefers a bigger win or a
smaller loss.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

CELLS = tuple(f"{col}{row}" for row in range(1, 6) for col in "abcde")
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
DIRECTIONS = ("up", "down", "left", "right")
STEPS = ((0, 1), (0, -1), (-1, 0), (1, 0))
LETTERS = "WUBRGC"
BITS = {letter: 1 << i for i, letter in enumerate(LETTERS)}
LETTER_OF = {bit: letter for letter, bit in BITS.items()}
EMPTY, SQUIRREL = -1, -2
CARDS, FOILS, RARES, COLORS, SQUIRRELS = range(5)
C = 0.7  # UCT exploration for rewards in about [0, 1]
DIG_BEFORE_KEPT = 4  # dig-before actions kept per node, the best by immediate gain
DIG_SOURCES = 6  # most valuable food cards considered as dig sources
SOLVE_CARDS = 20  # hard, two seats: with at most this many food cards left, first try to solve the game exactly …
SOLVE_ANY_BUDGET = 0.5  # … or at any count with at least this budget (the default of 1 s gives hard 1.7 s)
SOLVE_SHARE = 0.6  # … within this share of the budget (the rest, if unsolved or lost, goes to the tree search)
HOPE_SHARE = 0.85  # with a proven relaxation (see ``_solve``), the game itself may be solved until this share


def _ray(start: int, step: tuple[int, int]) -> tuple[int, ...]:
    x, y = start % 5 + step[0], start // 5 + step[1]
    cells = []
    while 0 <= x < 5 and 0 <= y < 5:
        cells.append(y * 5 + x)
        x, y = x + step[0], y + step[1]
    return tuple(cells)


RAYS = tuple(tuple(_ray(i, step) for step in STEPS) for i in range(25))
LINES = tuple(tuple(c for ray in RAYS[i] for c in ray) for i in range(25))


class Cards:
    """Per card index: colour bitmask (C for colourless), foil, rare-or-mythic, squirrel art."""

    def __init__(self, facts: list[dict]):
        self.mask = [sum(BITS[c] for c in f["colors"]) or BITS["C"] for f in facts]
        self.foil = [bool(f["foil"]) for f in facts]
        self.rare = [f["rarity"] in ("rare", "mythic") for f in facts]
        self.squirrel = [bool(f["squirrel"]) for f in facts]
        self.value = [1 + 0.4 * (self.foil[i] + self.rare[i] + self.squirrel[i]) for i in range(len(facts))]

    def add(self, row: list[int], card: int) -> None:
        """Count ``card`` in a pile tally ``[cards, foils, rares, colour mask, squirrels]``."""
        row[CARDS] += 1
        row[FOILS] += self.foil[card]
        row[RARES] += self.rare[card]
        row[COLORS] |= self.mask[card]
        row[SQUIRRELS] += self.squirrel[card]


class Sim:
    """A mutable copy of the table for one search iteration."""

    __slots__ = ("dug", "first", "grid", "opened", "over", "plies", "sq", "tally", "turn")

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.grid, other.sq, other.turn, other.first = self.grid[:], self.sq, self.turn, self.first
        other.opened, other.dug, other.plies, other.over = self.opened, self.dug[:], self.plies, self.over
        other.tally = [row[:] for row in self.tally]
        return other

    def holds_dig(self, seat: int) -> bool:
        """``seat`` may still dig some time (FS-7: every seat but the first, once)."""
        return seat != self.first and not self.dug[seat]

    def without_dig(self, seat: int) -> Sim:
        """A copy in which ``seat`` has no dig left."""
        other = self.copy()
        other.dug[seat] = True
        return other


class Rules:
    """The moves, digs and scores of the game on a ``Sim``, for a fixed card set and options."""

    def __init__(self, cards: Cards, seats: int, needs_one: bool, max_plies: int | None):
        self.cards, self.seats, self.needs_one, self.max_plies = cards, seats, needs_one, max_plies

    def moves(self, sim: Sim, directions: range | tuple = range(4)) -> list[tuple]:
        """Distinct plain moves ``(direction, letter, cells)``: one per different collected run (FS-4, FS-5).

        Walking a direction's cards keeps the colours every card so far shares: when some drop out, the cards
        before are the run of each dropped colour (named by the first in ``LETTERS``)."""
        grid, mask = sim.grid, self.cards.mask
        found = []
        for d in directions:
            cells = [i for i in RAYS[sim.sq][d] if grid[i] >= 0]
            if not cells:
                continue
            common, n, length = mask[grid[cells[0]]], 1, len(cells)
            while n < length:
                kept = common & mask[grid[cells[n]]]
                if kept != common:
                    dropped = common ^ kept
                    found.append((d, LETTER_OF[dropped & -dropped], tuple(cells[:n])))
                    common = kept
                    if not common:
                        break
                n += 1
            if common:
                found.append((d, LETTER_OF[common & -common], tuple(cells)))
        return found

    def gain(self, sim: Sim, cells: tuple) -> float:
        """Immediate worth of collecting ``cells`` for the seat to move (new colours count too)."""
        cards, grid = self.cards, sim.grid
        colors = sim.tally[sim.turn][COLORS]
        total = 0.0
        for i in cells:
            card = grid[i]
            total += cards.value[card] + (0.3 if cards.mask[card] & ~colors else 0.0)
            colors |= cards.mask[card]
        return total

    def collect(self, sim: Sim, cells: tuple) -> None:
        grid, row = sim.grid, sim.tally[sim.turn]
        for i in cells:
            self.cards.add(row, grid[i])
            grid[i] = EMPTY
        grid[sim.sq] = EMPTY
        sim.sq = cells[-1]
        grid[sim.sq] = SQUIRREL
        sim.plies += 1
        if sim.turn == sim.first:
            sim.opened = True

    @staticmethod
    def dig(sim: Sim, frm: int, to: int) -> None:
        sim.grid[to], sim.grid[frm] = sim.grid[frm], EMPTY
        sim.dug[sim.turn] = True

    def finish_turn(self, sim: Sim) -> None:
        """FS-8: end the game when the squirrel's line is empty (or at the turn limit), else pass the turn."""
        grid = sim.grid
        for i in LINES[sim.sq]:
            if grid[i] >= 0:
                if self.max_plies and sim.plies >= self.max_plies:
                    break
                sim.turn = (sim.turn + 1) % self.seats
                return
        sim.over = True

    def can_dig(self, sim: Sim) -> bool:
        return sim.opened and sim.holds_dig(sim.turn)

    def points(self, sim: Sim) -> list[int]:
        """FS-9: cards plus one per category won, ties shared."""
        counts = [[row[CARDS], row[FOILS], row[RARES], row[COLORS].bit_count(), row[SQUIRRELS]]
                  for row in sim.tally]
        points = [c[0] for c in counts]
        for k in range(1, 5):
            best = max(c[k] for c in counts)
            if best or not self.needs_one:
                for seat, c in enumerate(counts):
                    points[seat] += c[k] == best
        return points

    def reward(self, sim: Sim) -> list[float]:
        points = self.points(sim)
        best = max(points)
        winners = points.count(best)
        reward = []
        for seat, p in enumerate(points):
            other = max(q for s, q in enumerate(points) if s != seat)
            reward.append((1 / winners if p == best else 0.0) + 0.1 * math.tanh((p - other) / 4))
        return reward

    # --- tree actions: (dig_before, direction, letter, cells, dig_after) -------------------------------------

    def actions(self, sim: Sim) -> list[tuple]:
        moves = self.moves(sim)
        found = self.plain_actions(sim, moves)
        if self.can_dig(sim):
            found += self._digs_before(sim) + self._digs_after(sim, moves)
        return found

    def plain_actions(self, sim: Sim, moves: list[tuple] | None = None) -> list[tuple]:
        """The tree actions without a dig, one per distinct move (``moves``, if already found)."""
        return [(None, d, letter, cells, None) for d, letter, cells in moves or self.moves(sim)]

    def _digs_before(self, sim: Sim) -> list[tuple]:
        grid, value = sim.grid, self.cards.value
        sources = sorted((i for i in range(25) if grid[i] >= 0), key=lambda i: -value[grid[i]])[:DIG_SOURCES]
        scored = []
        for d in range(4):
            for to in RAYS[sim.sq][d]:
                if grid[to] != EMPTY:
                    continue
                for frm in sources:
                    grid[to], grid[frm] = grid[frm], EMPTY
                    for move in self.moves(sim, (d,)):
                        if to in move[2]:
                            scored.append((self.gain(sim, move[2]), ((frm, to), *move, None)))
                    grid[frm], grid[to] = grid[to], EMPTY
        scored.sort(key=lambda pair: -pair[0])
        return [action for _, action in scored[:DIG_BEFORE_KEPT]]

    def _digs_after(self, sim: Sim, moves: list[tuple]) -> list[tuple]:
        found = []
        for d, letter, cells in moves:
            after = sim.copy()
            self.collect(after, cells)
            settling = self._settling_dig(after)
            if settling:
                found.append((None, d, letter, cells, settling[1]))
        return found

    def _settling_dig(self, sim: Sim) -> tuple[bool, tuple[int, int]] | None:
        """After a move, the dig that settles whether the game ends (FS-8): with one food card left in the
        squirrel's line, taking it out ends the game (``True``); with none, bringing the cheapest card in goes on
        (``False``). None if the line holds more, or no cell allows it."""
        grid, line = sim.grid, LINES[sim.sq]
        in_line = [i for i in line if grid[i] >= 0]
        if len(in_line) == 1:
            to = next((i for i in range(25) if grid[i] == EMPTY and i not in line), None)
            return None if to is None else (True, (in_line[0], to))
        if not in_line:
            outside = [i for i in range(25) if grid[i] >= 0]
            holes = [i for i in line if grid[i] == EMPTY]
            if outside and holes:
                return False, (min(outside, key=lambda i: self.cards.value[grid[i]]), holes[0])
        return None

    def closing_dig(self, sim: Sim) -> tuple[int, int] | None:
        """After the mover collected: the settling dig (``_settling_dig``) if it settles the end in the mover's
        favour — ending a game it leads, or going on with one it would not win."""
        settling = self._settling_dig(sim)
        if settling is None:
            return None
        points = self.points(sim)
        leads = points[sim.turn] > max(p for seat, p in enumerate(points) if seat != sim.turn)
        ends, dig = settling
        return dig if ends == leads else None

    def play(self, sim: Sim, action: tuple) -> None:
        dig_before, _, _, cells, dig_after = action
        if dig_before:
            self.dig(sim, *dig_before)
        self.collect(sim, cells)
        if dig_after:
            self.dig(sim, *dig_after)
        self.finish_turn(sim)


def notation(action: tuple) -> str:
    """The command text of a tree action."""
    dig_before, d, letter, _, dig_after = action
    move = f"{letter} {DIRECTIONS[d]}"
    if dig_before:
        return f"dig {CELLS[dig_before[0]]} {CELLS[dig_before[1]]}; {move}"
    if dig_after:
        return f"{move}; dig {CELLS[dig_after[0]]} {CELLS[dig_after[1]]}"
    return move


def rebuild(view: dict) -> tuple[Rules, Sim]:
    """The simulation of the table a view shows."""
    ids = sorted(view["cards"], key=int)
    index = {int(cid): n for n, cid in enumerate(ids)}
    cards = Cards([view["cards"][cid] for cid in ids])
    options = view.get("options", {})
    rules = Rules(cards, len(view["piles"]), bool(options.get("bonus_needs_one")), options.get("max_plies"))
    sim = Sim.__new__(Sim)
    sim.grid = [EMPTY] * 25
    for cell, content in view["grid"].items():
        sim.grid[CELL_INDEX[cell]] = SQUIRREL if content == "squirrel" else index[content]
    sim.sq = sim.grid.index(SQUIRREL)
    sim.turn, sim.first = view["turn"], view["first"]
    sim.dug = list(view["dug"])
    sim.plies, sim.over = view.get("plies", 0), False
    sim.tally = []
    for pile in view["piles"]:
        row = [0, 0, 0, 0, 0]
        for cid in pile:
            cards.add(row, index[cid])
        sim.tally.append(row)
    sim.opened = view.get("opened", bool(view["piles"][sim.first]))
    return rules, sim


class Node:
    __slots__ = ("actions", "children", "seat", "totals", "visits")

    def __init__(self, seat: int, seats: int):
        self.seat = seat
        self.actions: list[tuple] | None = None
        self.children: list[Node] = []
        self.visits = 0
        self.totals = [0.0] * seats


def _playout(rules: Rules, sim: Sim, rng: random.Random, greedy: float, digs: bool) -> list[float]:
    """Play to the end: random moves, or with probability ``greedy`` the best immediate gain; with ``digs`` a
    seat still holding its dig uses it at the end (``Rules.closing_dig``)."""
    while not sim.over:
        moves = rules.moves(sim)
        if greedy and rng.random() < greedy:
            best = max(rules.gain(sim, m[2]) for m in moves)
            move = rng.choice([m for m in moves if rules.gain(sim, m[2]) == best])
        else:
            move = rng.choice(moves)
        rules.collect(sim, move[2])
        if digs and rules.can_dig(sim):
            dig = rules.closing_dig(sim)
            if dig:
                rules.dig(sim, *dig)
        rules.finish_turn(sim)
    return rules.reward(sim)


def search(rules: Rules, root_sim: Sim, rng: random.Random, budget: float, clock: Callable[[], float],
           greedy: float, max_iterations: int = 1_000_000, root_actions: list[tuple] | None = None
           ) -> tuple[tuple, int]:
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
         greedy: float, max_iterations: int = 1_000_000, root_actions: list[tuple] | None = None
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
        reward = rules.reward(sim) if sim.over else _playout(rules, sim, rng, greedy, greedy > 0)
        for visited in path:
            visited.visits += 1
            for seat in range(rules.seats):
                visited.totals[seat] += reward[seat]
    return root, iterations


class _Unsolved(Exception):
    """The exact search ran out of time."""


class Solver:
    """An exact search of a two-seat game to its end over the tree actions: negamax with alpha-beta on the
    outcome for the seat to move (+1 win, 0 shared win, -1 loss) and a table of solved positions."""

    def __init__(self, rules: Rules, clock: Callable[[], float], deadline: float):
        self.rules, self.clock, self.deadline = rules, clock, deadline
        self.table: dict[tuple, tuple[int, int, tuple | None]] = {}  # key → value, flag (0 exact, 1 lower bound,
        # -1 upper bound), best action
        self.nodes = 0

    def best(self, sim: Sim, among: list[tuple] | None = None) -> tuple[int, tuple]:
        """The value of ``sim`` for its seat to move (playing one of ``among``, default any action) and an action
        reaching it; raises ``_Unsolved``."""
        actions = self._ordered(sim, among)
        for target in (1, 0):  # null-window tests, which prune most: a win? else a shared win?
            for action in actions:
                if self._value(sim, action, target - 1, target) >= target:
                    return target, action
        return -1, actions[0]

    def safe(self, sim: Sim, among: list[tuple] | None = None) -> tuple[int, list[tuple]]:
        """The value of ``sim`` for its seat to move (playing one of ``among``, default any action) and the actions
        that keep it (only one if it is a win: the search needs no more; all of them for a shared win, so the tree
        search may pick the one most likely to win against an opponent who errs). Raises ``_Unsolved``."""
        value, action = self.best(sim, among)
        if value != 0:
            return value, [action]
        return 0, [action] + [other for other in self._ordered(sim, among)
                              if other != action and self._value(sim, other, -1, 0) >= 0]

    def _ordered(self, sim: Sim, among: list[tuple] | None = None) -> list[tuple]:
        actions = self.rules.actions(sim) if among is None else list(among)
        gain = self.rules.gain
        actions.sort(key=lambda action: -gain(sim, action[3]))
        return actions

    def _value(self, sim: Sim, action: tuple, alpha: int, beta: int) -> int:
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
            raise _Unsolved
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


def _ucb(child: Node, seat: int, log_n: float) -> float:
    return child.totals[seat] / child.visits + C * math.sqrt(log_n / child.visits)


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float]) -> str:
    """The command of the ``level`` AI at ``seat`` from its view."""
    rules, sim = rebuild(view)
    if sim.turn != seat:
        raise ValueError(f"seat {seat} is not to play")
    if level == "easy":
        moves = rules.moves(sim)
        best = max(rules.gain(sim, m[2]) for m in moves)
        d, letter, cells = rng.choice([m for m in moves if rules.gain(sim, m[2]) == best])
        return notation((None, d, letter, cells, None))
    # Answer before the budget runs out: keep a margin for rebuilding and returning.
    start, budget = clock(), budget * 0.85
    root_actions = None
    if level == "hard" and rules.seats == 2:
        decided, root_actions = _solve(rules, sim, clock, start, budget)
        if decided is not None:
            return notation(decided)
        if sim.holds_dig(1 - seat):  # as in ``_solve``: search as if the opponent never dug
            sim = sim.without_dig(1 - seat)
    action, _ = search(rules, sim, rng, budget - (clock() - start), clock,
                       greedy=0.75 if level == "hard" else 0.0, root_actions=root_actions)
    return notation(action)


def _solve(rules: Rules, sim: Sim, clock: Callable[[], float], start: float, budget: float
           ) -> tuple[tuple | None, list[tuple] | None]:
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
        except _Unsolved:
            return None, None
        if hoped < 0:  # lost even if the opponent never digs: lost
            return None, None
        if solvable:  # never trade a proven result of the game itself for a hope
            try:
                value, safe = Solver(rules, clock, start + HOPE_SHARE * budget).safe(sim)
            except _Unsolved:
                value = -1
            if value > 0:
                return safe[0], None
            if value == 0:  # keep the shared win; hope for more among the actions that keep it
                hope.deadline = start + budget
                try:
                    hoped, keep = hope.safe(hopeful, safe)
                except _Unsolved:
                    hoped, keep = 0, safe
        if hoped > 0 or len(keep) == 1:
            return keep[0], None
        return None, keep
    if solvable:
        try:
            value, safe = Solver(rules, clock, start + SOLVE_SHARE * budget).safe(sim)
        except _Unsolved:
            pass
        else:
            if value > 0 or (value == 0 and len(safe) == 1):
                return safe[0], None
            return None, safe if value == 0 else None
    return None, rules.plain_actions(sim) if sim.holds_dig(sim.turn) else None
