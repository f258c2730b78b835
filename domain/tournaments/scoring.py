"""Points, arena streaks and tie-breaks.

**Points by finishing place** (every system but arena): a table's result gives each player one point for every
opponent at the table who finished below them and half a point for every opponent who finished level. At two seats
that is the usual 1 / ½ / 0; at a table of n the winner gets n − 1 and the places below get less. A game's result
names its winners only, so the winners share first place and everyone else shares the place below; a game that
ended with no winner (a draw, or an abort where nobody moved) is a draw only if someone played: a table whose game
was aborted gives nobody a point. A bye is worth ``BYE_POINTS``; a game the opponent forfeits (a round robin's
game against a player who withdrew) is worth a win.

**Arena** (lichess's ``arena.ScoringSystem``): a win is 2, a draw 1, a loss 0; a player whose two previous games
were both wins is *on fire* and their next game counts double (a win 4, a draw 2) — the streak goes on while they
win and ends with the first game they do not.

**Tie-breaks** (FIDE's definitions, with every table-mate counted as an opponent):
``buchholz`` — the sum of the final scores of every opponent met (a bye or a forfeit adds nothing);
``sonneborn_berger`` — the sum, over every opponent met, of that opponent's final score times the points scored
against them (1 for finishing above them, ½ level, 0 below).
Ranking: score, then Buchholz, then Sonneborn–Berger; players equal in all three share a rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BYE_POINTS = 1.0  # a bye is worth a win (FIDE's full-point bye; lichess Swiss gives the same)
ARENA_WIN, ARENA_DRAW = 2, 1


def place_points(size: int, winners: Sequence[int], played: bool = True) -> list[float]:
    """Each seat's points at a table of ``size`` whose game's winners are the seats ``winners``: one per opponent
    finishing below, half per opponent level. ``played`` False (aborted, nobody moved): nobody scores."""
    if not played:
        return [0.0] * size
    won = set(winners)
    out = []
    for seat in range(size):
        if not won:
            out.append(0.5 * (size - 1))
        elif seat in won:
            out.append((size - len(won)) + 0.5 * (len(won) - 1))
        else:
            out.append(0.5 * (size - len(won) - 1))
    return out


def pairwise(points_a: float, points_b: float) -> float:
    """What ``a`` scored against table-mate ``b`` by their places: 1 above, ½ level, 0 below."""
    return 1.0 if points_a > points_b else 0.5 if points_a == points_b else 0.0


@dataclass(frozen=True)
class Played:
    """One finished table as the standings read it: the players (by seat), their points and how it ended."""

    players: tuple[str, ...]
    points: tuple[float, ...]
    kind: str = "game"  # "game" | "bye" | "forfeit" (a table not played: no game, no opponents met)


def arena_points(results: Iterable[float]) -> int:
    """A player's arena score from their games' outcomes in order (1 win, ½ draw, 0 loss; ``Played`` points at two
    seats): 2 / 1 / 0, doubled while on fire (the two games before were wins)."""
    total, streak = 0, 0
    for result in results:
        on_fire = streak >= 2
        value = ARENA_WIN if result == 1.0 else ARENA_DRAW if result == 0.5 else 0
        total += value * (2 if on_fire else 1)
        streak = streak + 1 if result == 1.0 else 0
    return total


@dataclass
class Standing:
    username: str
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    rank: int = 0


def standings(players: Sequence[str], tables: Iterable[Played], arena: bool = False) -> list[Standing]:
    """Every player's standing after ``tables`` (in the order they finished), best first, with ranks."""
    tables = list(tables)
    score: dict[str, float] = dict.fromkeys(players, 0.0)
    games: dict[str, int] = dict.fromkeys(players, 0)
    outcomes: dict[str, list[float]] = {p: [] for p in players}
    for table in tables:
        for name, points in zip(table.players, table.points, strict=True):
            score[name] = score.get(name, 0.0) + points
            if table.kind == "game":
                games[name] = games.get(name, 0) + 1
                outcomes.setdefault(name, []).append(points)
    if arena:
        score = {p: float(arena_points(outcomes.get(p, []))) for p in score}
    buchholz = dict.fromkeys(score, 0.0)
    sb = dict.fromkeys(score, 0.0)
    for table in tables:
        if table.kind != "game":
            continue
        for a, pa in zip(table.players, table.points, strict=True):
            for b, pb in zip(table.players, table.points, strict=True):
                if a != b:
                    buchholz[a] += score[b]
                    sb[a] += score[b] * pairwise(pa, pb)
    order = sorted(score, key=lambda p: (-score[p], -buchholz[p], -sb[p], p.lower()))
    out, last, rank = [], None, 0
    for i, name in enumerate(order, 1):
        key = (score[name], buchholz[name], sb[name])
        if key != last:
            rank, last = i, key
        out.append(Standing(name, score[name], buchholz[name], sb[name], games.get(name, 0), rank))
    return out
