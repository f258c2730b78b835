"""Round robin by Berger tables: every pair meets once, the first seat shared as evenly as possible.

For n players (n odd: a bye joins as the last, and whoever meets it sits out the round), n' = n rounded up to even
and n' − 1 rounds. Berger's scheme: the last player stays put while the others turn round one step each round;
in round r the last player meets the one at position r and takes the first seat in every other round, and the
others meet in pairs from either side of that one, the first of each pair (turning one way) in the first seat.
Each player then has the first seat ⌊(n' − 1) / 2⌋ or ⌈(n' − 1) / 2⌉ times.
"""

from __future__ import annotations

from collections.abc import Sequence


def schedule(count: int) -> list[list[tuple[int, ...]]]:
    """Every round's tables as seed indexes (``0..count-1``): pairs ``(first seat, second seat)`` and, for an odd
    ``count``, a bye ``(i,)`` each round."""
    n = count + count % 2
    last = n - 1
    rounds = []
    for r in range(n - 1):
        tables: list[tuple[int, ...]] = []
        opponent = r
        tables.append((last, opponent) if r % 2 else (opponent, last))
        for k in range(1, n // 2):
            a, b = (r + k) % (n - 1), (r - k) % (n - 1)
            tables.append((a, b))
        rounds.append([_bye(t, count) for t in tables])
    return rounds


def _bye(table: tuple[int, int], count: int) -> tuple[int, ...]:
    """A pair with the bye (the added player, index ``count``) as the bye's table of one."""
    a, b = table
    if count in table:
        return (b,) if a == count else (a,)
    return table


def rounds(players: Sequence[str]) -> list[list[tuple[str, ...]]]:
    """``schedule`` with the players' names (in seed order)."""
    return [[tuple(players[i] for i in t) for t in r] for r in schedule(len(players))]
