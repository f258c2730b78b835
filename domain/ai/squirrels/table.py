"""The table the Squirrels AI searches: a compact, mutable copy of a game and the rules played on it.

A ``Sim`` holds the grid as card indices (``EMPTY``, ``SQUIRREL``), the squirrel's cell, whose turn it is, who
has dug and each seat's pile as a tally; ``Simulator`` plays the game's rules on it — the runs a colour collects
(FS-4, FS-5), the dig (FS-7), the end (FS-8) and the scores (FS-9) — much faster than the decider, and
``tests/domain/test_ai_squirrels_sim.py`` checks it against the decider move for move. ``load`` builds one from
a seat's view (the game has no hidden information: the view is the whole table).
"""

from __future__ import annotations

import math

CELLS = tuple(f"{col}{row}" for row in range(1, 6) for col in "abcde")
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
DIRECTIONS = ("up", "down", "left", "right")
STEPS = ((0, 1), (0, -1), (-1, 0), (1, 0))
LETTERS = "WUBRGC"
BITS = {letter: 1 << i for i, letter in enumerate(LETTERS)}
LETTER_OF = {bit: letter for letter, bit in BITS.items()}
EMPTY, SQUIRREL = -1, -2
CARDS, FOILS, RARES, COLORS, SQUIRRELS = range(5)
"""The columns of a pile tally: cards, foils, rares and mythics, the colour mask, squirrels in the art."""


def _ray(start: int, step: tuple[int, int]) -> tuple[int, ...]:
    x, y = start % 5 + step[0], start // 5 + step[1]
    cells = []
    while 0 <= x < 5 and 0 <= y < 5:
        cells.append(y * 5 + x)
        x, y = x + step[0], y + step[1]
    return tuple(cells)


RAYS = tuple(tuple(_ray(i, step) for step in STEPS) for i in range(25))
"""Per cell and direction index, the cells that way, nearest first."""
LINES = tuple(tuple(c for ray in RAYS[i] for c in ray) for i in range(25))
"""Per cell, every other cell of its row and column."""


# Moves, digs and actions are plain tuples, made by the thousand in every playout (a named tuple costs several
# times more to make); code unpacks them, or reads their cells at ``MOVE_CELLS`` / ``ACTION_CELLS``.
Move = tuple[int, str, tuple[int, ...]]
"""A plain move ``(direction, letter, cells)``: the squirrel runs ``DIRECTIONS[direction]`` collecting ``cells``
(grid indices, nearest first) of colour ``letter``."""
Dig = tuple[int, int]
"""FS-7: ``(frm, to)``, the food card on ``frm`` moves to the empty cell ``to``."""
Action = tuple[Dig | None, int, str, tuple[int, ...], Dig | None]
"""A whole turn ``(dig_before, direction, letter, cells, dig_after)``: a move, with a dig before or after it."""
MOVE_CELLS = 2
ACTION_CELLS = 3


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


class Simulator:
    """The moves, digs and scores of the game on a ``Sim``, for a fixed card set and options."""

    def __init__(self, cards: Cards, seats: int, needs_one: bool, max_plies: int | None):
        self.cards, self.seats, self.needs_one, self.max_plies = cards, seats, needs_one, max_plies

    def moves(self, sim: Sim, directions: range | tuple = range(4)) -> list[Move]:
        """Distinct plain moves: one per different collected run (FS-4, FS-5).

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

    def grabs(self, sim: Sim, moves: list[Move] | None = None) -> list[Move]:
        """The plain moves (of ``moves``, if already found) of best immediate gain: easy's choice, a grabber's."""
        moves = self.moves(sim) if moves is None else moves
        gains = [self.gain(sim, cells) for _, _, cells in moves]
        best = max(gains)
        return [move for move, gain in zip(moves, gains) if gain == best]

    def collect(self, sim: Sim, cells: tuple) -> None:
        """FS-4: the seat to move takes ``cells``; the squirrel lands on the last one."""
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
        """FS-7: the seat to move digs the card on ``frm`` to ``to``."""
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

    def key(self, sim: Sim) -> tuple:
        """What decides the rest of the game from ``sim`` (for a table of positions searched): the grid, the
        seat to move, the digs, the first move made, the tallies, and the plies when ``max_plies`` can end it."""
        return (*sim.grid, sim.turn, *sim.dug, sim.opened, sim.plies if self.max_plies else 0,
                *(n for row in sim.tally for n in row))

    def reward(self, sim: Sim) -> list[float]:
        """Per seat: its share of the win (1/k among k tied winners) plus a small term for the point margin; an
        equal share each when the turn limit stopped the game (a draw, FS-12)."""
        return [self.reward_of(sim, seat) for seat in range(self.seats)]

    def reward_of(self, sim: Sim, seat: int) -> float:
        """``reward(sim)[seat]``, for one seat only."""
        if self.max_plies and any(sim.grid[i] >= 0 for i in LINES[sim.sq]):  # over with food left: the limit
            return 1 / self.seats
        return _reward(self.points(sim), seat)

    def play(self, sim: Sim, action: Action) -> None:
        """A whole turn: the dig before, the move, the dig after, the end of the turn."""
        dig_before, _, _, cells, dig_after = action
        if dig_before:
            self.dig(sim, *dig_before)
        self.collect(sim, cells)
        if dig_after:
            self.dig(sim, *dig_after)
        self.finish_turn(sim)


def notation(action: Action) -> str:
    """The command text of an action."""
    dig_before, d, letter, _, dig_after = action
    move = f"{letter} {DIRECTIONS[d]}"
    if dig_before:
        frm, to = dig_before
        return f"dig {CELLS[frm]} {CELLS[to]}; {move}"
    if dig_after:
        frm, to = dig_after
        return f"{move}; dig {CELLS[frm]} {CELLS[to]}"
    return move


def load(view: dict) -> tuple[Cards, Sim, int, bool, int | None]:
    """The table a view shows: its cards, the ``Sim``, and the seats, ``bonus_needs_one`` and ``max_plies``."""
    ids = sorted(view["cards"], key=int)
    index = {int(cid): n for n, cid in enumerate(ids)}
    cards = Cards([view["cards"][cid] for cid in ids])
    options = view.get("options", {})
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
    return cards, sim, len(view["piles"]), bool(options.get("bonus_needs_one")), options.get("max_plies")


def _reward(points: list[int], seat: int) -> float:
    """``seat``'s reward for final ``points``: its win share plus 0.1 · tanh(margin over the best other / 4)."""
    best = max(points)
    other = max(p for s, p in enumerate(points) if s != seat)
    return (1 / points.count(best) if points[seat] == best else 0.0) + 0.1 * math.tanh((points[seat] - other) / 4)
