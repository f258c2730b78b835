"""Tables of many (Foraging Squirrels, Mission commando): a round seats the players at tables of a chosen size,
by score groups, nobody at a table with someone they sat with before where that can be avoided.

Sizes: ``t = ⌈n / size⌉`` tables whose sizes differ by one at most (7 players at tables of 4: 4 and 3; at tables of
3: 3, 2 and 2), the larger tables first. Seating: the cost of a seating is, first, the number of pairs of players
who sat at a table together before (counted once per earlier meeting), then the sum over tables of the squared
score differences of every pair at it (score groups). Up to ``EXACT`` seatings the least costly one is found by
trying them all; beyond, a local search from the seating by score order swaps players between tables while the
cost falls, from a few starts drawn by the ``rng`` given (the service seeds it from the tournament and the round,
so a rebuild is the same)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from math import comb

from domain.tournaments.history import History

EXACT = 20_000  # seatings tried one by one at most
STARTS = 8  # local searches beyond that


def sizes(count: int, size: int) -> list[int]:
    """The tables' sizes for ``count`` players at tables of ``size`` (at most), larger first."""
    if count <= 0:
        return []
    tables = -(-count // size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seatings_count(shape: Sequence[int]) -> int:
    """How many ways ``len(shape)`` tables of these sizes can seat ``sum(shape)`` players (tables of one size are
    interchangeable)."""
    left, total = sum(shape), 1
    for s in shape:
        total *= comb(left, s)
        left -= s
    for s in set(shape):
        k = list(shape).count(s)
        for i in range(2, k + 1):
            total //= i
    return total


def cost(tables: Sequence[Sequence[str]], history: History) -> tuple[int, int]:
    """(earlier meetings, score spread) of a seating: lower is better, the first term first."""
    twice = score2 = 0
    for table in tables:
        twice += history.together(table)
        score2 += sum(round(2 * (history.scores[a] - history.scores[b])) ** 2 for a, b in combinations(table, 2))
    return twice, score2


def seat(players: Sequence[str], size: int, history: History, rng: random.Random) -> list[tuple[str, ...]]:
    """The tables of the next round for ``players`` (in seed order), highest scores first; seats at a table in
    the order of the players who have had the first seat least."""
    shape = sizes(len(players), size)
    ordered = sorted(players, key=lambda p: (-history.scores[p], players.index(p)))
    if seatings_count(shape) <= EXACT:
        best = _exhaustive(ordered, shape, history)
    else:
        best = _local(ordered, shape, history, rng)
    out = [tuple(sorted(t, key=lambda p: (history.balance(p), ordered.index(p)))) for t in best]
    out.sort(key=lambda t: (-len(t), min(ordered.index(p) for p in t)))
    return out


def _by_score(ordered: list[str], shape: list[int]) -> list[list[str]]:
    out, i = [], 0
    for s in shape:
        out.append(ordered[i:i + s])
        i += s
    return out


def _exhaustive(ordered: list[str], shape: list[int], history: History) -> list[list[str]]:
    """The least costly seating, trying each: the first player left joins each possible table in turn."""
    best: list = [None, None]

    def go(left: list[str], sizes_left: list[int], tables: list[list[str]]) -> None:
        if not left:
            c = cost(tables, history)
            if best[0] is None or c < best[0]:
                best[0], best[1] = c, [list(t) for t in tables]
            return
        head, rest = left[0], left[1:]
        for s in sorted(set(sizes_left), reverse=True):
            remaining = list(sizes_left)
            remaining.remove(s)
            for others in combinations(rest, s - 1):
                table = [head, *others]
                if best[0] is not None and cost([*tables, table], history) >= best[0]:
                    continue  # costs only grow as tables are added
                go([p for p in rest if p not in others], remaining, [*tables, table])

    go(ordered, shape, [])
    return best[1]


def _local(ordered: list[str], shape: list[int], history: History, rng: random.Random) -> list[list[str]]:
    """A seating no swap of two players between tables improves, the best of ``STARTS`` searches."""
    best, best_cost = None, None
    for start in range(STARTS):
        tables = _by_score(ordered if start == 0 else rng.sample(ordered, len(ordered)), shape)
        current = cost(tables, history)
        improved = True
        while improved:
            improved = False
            for i, j in combinations(range(len(tables)), 2):
                for x in range(len(tables[i])):
                    for y in range(len(tables[j])):
                        tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
                        c = cost(tables, history)
                        if c < current:
                            current, improved = c, True
                        else:
                            tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
        if best_cost is None or current < best_cost:
            best, best_cost = [list(t) for t in tables], current
    return best
