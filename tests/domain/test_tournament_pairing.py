"""Tournament pairings (domain/tournaments/): properties checked against brute force on small fields."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments import arena, round_robin, swiss, tables
from domain.tournaments.history import History
from domain.tournaments.scoring import Played, arena_points, place_points, standings


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def matchings(nodes: list[str]):
    """Every perfect matching of ``nodes`` (an even count), as lists of pairs."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for m in matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *m]


def swiss_cost(tables_: list[tuple[str, ...]], history: History) -> tuple[int, int, int]:
    """(rematches, second byes, score spread) of a round's tables, the priorities of a Swiss pairing."""
    rematches = sum(history.met[frozenset(t)] for t in tables_ if len(t) == 2)
    byes = sum(history.byes[t[0]] for t in tables_ if len(t) == 1)
    scores = {p: round(2 * history.scores[p]) for t in tables_ for p in t}
    low = min(scores.values()) - 1
    spread = sum((scores[t[0]] - scores[t[1]]) ** 2 if len(t) == 2 else (scores[t[0]] - low) ** 2 for t in tables_)
    return rematches, byes, spread


def best_swiss(players: list[str], history: History) -> tuple[int, int, int]:
    nodes = list(players) + (["BYE"] if len(players) % 2 else [])
    best = None
    for m in matchings(nodes):
        t = [(b,) if a == "BYE" else (a,) if b == "BYE" else (a, b) for a, b in m]
        c = swiss_cost(t, history)
        best = c if best is None or c < best else best
    return best


def play_round(tables_, rng: random.Random) -> list[Played]:
    out = []
    for t in tables_:
        if len(t) == 1:
            out.append(Played(t, (1.0,), "bye"))
        else:
            out.append(Played(t, tuple(place_points(len(t), rng.choice([[0], [1], []])))))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(1, 8), st.randoms(use_true_random=False))
def test_swiss_rounds_are_optimal_pairings(n, rounds, rng):
    """Every round of a random Swiss: each player once, one bye exactly when the count is odd, and no pairing with
    fewer rematches, then fewer second byes, then a smaller score spread exists (brute force)."""
    players = names(n)
    played: list[Played] = []
    for _ in range(rounds):
        history = History.of(played)
        made = swiss.pair(players, history)
        assert sorted(p for t in made for p in t) == players
        assert sum(len(t) == 1 for t in made) == n % 2
        assert swiss_cost(made, history) == best_swiss(players, history)
        played += play_round(made, rng)


def test_swiss_never_repeats_while_a_fresh_pairing_exists():
    """Seven players over seven rounds (a round robin's worth): nobody meets twice and nobody has two byes."""
    players, played, rng = names(7), [], random.Random(3)
    for _ in range(7):
        played += play_round(swiss.pair(players, History.of(played)), rng)
    history = History.of(played)
    assert max(history.met.values()) == 1
    assert sorted(history.byes.values()) == [1] * 7


@given(st.lists(st.integers(0, 3), min_size=1, max_size=5))
def test_swiss_keeps_even_score_groups_together(group_sizes):
    """With nobody met yet and every score group even, every pair is within its group."""
    played, players, score = [], [], {}
    for g, size in enumerate(group_sizes):
        for i in range(2 * size):
            name = f"g{g}-{i}"
            players.append(name)
            score[name] = g
            played += [Played((name,), (1.0,), "bye")] * g  # scores by byes: nobody has met
    if len(players) < 2:
        return
    history = History.of(played)
    history.byes.clear()
    for a, b in swiss.pair(players, history):
        assert score[a] == score[b]


def test_swiss_seats_alternate():
    """Over a 4-player Swiss of three rounds each player has the first seat once or twice."""
    players, played, rng = names(4), [], random.Random(1)
    for _ in range(3):
        played += play_round(swiss.pair(players, History.of(played)), rng)
    history = History.of(played)
    assert all(abs(history.balance(p)) <= 1 for p in players)


@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_is_complete_and_balanced(n):
    schedule = round_robin.schedule(n)
    assert len(schedule) == n + n % 2 - 1
    pairs, first, games = Counter(), Counter(), Counter()
    for r in schedule:
        assert sorted(p for t in r for p in t) == list(range(n))
        assert sum(len(t) == 1 for t in r) == n % 2
        for t in r:
            if len(t) == 2:
                pairs[frozenset(t)] += 1
                first[t[0]] += 1
                games.update(t)
    assert all(pairs[frozenset(p)] == 1 for p in combinations(range(n), 2))
    assert all(abs(2 * first[p] - games[p]) <= 1 for p in range(n))


@given(st.integers(1, 40), st.integers(3, 8))
def test_table_sizes(count, size):
    made = tables.sizes(count, size)
    assert sum(made) == count and max(made) <= size and max(made) - min(made) <= 1
    assert len(made) == -(-count // size)
    if count >= 2:
        assert min(made) >= 2


def all_seatings(players, shape):
    """Every seating of ``players`` at tables of ``shape`` (brute force, repeats allowed)."""
    if not shape:
        yield []
        return
    for table in combinations(players, shape[0]):
        rest = [p for p in players if p not in table]
        for more in all_seatings(rest, shape[1:]):
            yield [table, *more]


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 9), st.sampled_from([3, 4]), st.integers(1, 3), st.randoms(use_true_random=False))
def test_tables_avoid_meeting_again(n, size, rounds, rng):
    """Every round of a tables-of-many Swiss seats everyone once, at tables of the sizes given, with as few
    earlier meetings, then as small a score spread, as any seating (brute force)."""
    players, played = names(n), []
    for _ in range(rounds):
        history = History.of(played)
        made = tables.seat(players, size, history, random.Random(0))
        assert sorted(p for t in made for p in t) == players
        assert sorted(map(len, made), reverse=True) == tables.sizes(n, size)
        best = min(tables.cost(s, history) for s in all_seatings(players, tables.sizes(n, size)))
        assert tables.cost(made, history) == best
        played += play_round(made, rng)


def test_tables_local_search_finds_fresh_tables():
    """Beyond brute force (16 players at tables of 4), round 2 seats nobody with a table-mate of round 1."""
    players = names(16)
    first = [tuple(players[i:i + 4]) for i in range(0, 16, 4)]
    history = History.of(Played(t, tuple(place_points(4, [0]))) for t in first)
    assert tables.seatings_count(tables.sizes(16, 4)) > tables.EXACT
    made = tables.seat(players, 4, history, random.Random(7))
    assert tables.cost(made, history)[0] == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.randoms(use_true_random=False))
def test_arena_avoids_the_last_opponent(n, rng):
    """Free players are all paired but one at most, and never with their last opponent when a pairing without
    it exists (brute force)."""
    free = names(n)
    shuffled = rng.sample(free, n)
    last = {}
    for a, b in zip(shuffled[::2], shuffled[1::2], strict=False):
        last[a], last[b] = b, a
    scores = {p: rng.randrange(0, 10) for p in free}
    pairs, waiting = arena.pair(free, scores, last, History())
    assert len(waiting) == n % 2
    assert sorted([p for t in pairs for p in t] + waiting) == sorted(free)
    repeats = sum(last.get(a) == b for a, b in pairs)
    nodes = free + (["W"] if n % 2 else [])
    best = min(sum(last.get(a) == b for a, b in m if "W" not in (a, b)) for m in matchings(nodes))
    assert repeats == best


def test_arena_streaks_double_after_two_wins():
    """lichess's arena: 2 a win, 1 a draw; after two wins in a row the next games count double until one is not
    won."""
    assert arena_points([1, 1, 1, 0.5, 1]) == 2 + 2 + 4 + 2 + 2
    assert arena_points([0, 1, 1, 1, 1]) == 0 + 2 + 2 + 4 + 4
    assert arena_points([1, 1, 0, 1]) == 2 + 2 + 0 + 2
    assert arena_points([0.5, 0.5]) == 2


@given(st.integers(2, 8), st.data())
def test_place_points_share_the_table(size, data):
    winners = data.draw(st.lists(st.integers(0, size - 1), unique=True, max_size=size))
    points = place_points(size, winners)
    assert sum(points) == size * (size - 1) / 2
    assert place_points(size, winners, played=False) == [0.0] * size
    if len(winners) == 1:
        assert points[winners[0]] == size - 1


def test_buchholz_and_sonneborn_berger():
    """A hand-worked example: a beats b, b beats c, a and c draw, d has a bye."""
    played = [Played(("a", "b"), (1.0, 0.0)), Played(("b", "c"), (1.0, 0.0)), Played(("c", "a"), (0.5, 0.5)),
              Played(("d",), (1.0,), "bye")]
    by = {s.username: s for s in standings(["a", "b", "c", "d"], played)}
    assert (by["a"].score, by["b"].score, by["c"].score, by["d"].score) == (1.5, 1.0, 0.5, 1.0)
    assert by["a"].buchholz == 1.0 + 0.5 and by["b"].buchholz == 1.5 + 0.5 and by["c"].buchholz == 1.0 + 1.5
    assert by["d"].buchholz == 0.0
    assert by["a"].sonneborn_berger == 1.0 * 1 + 0.5 * 0.5
    assert by["b"].sonneborn_berger == 0.5 * 1
    assert by["c"].sonneborn_berger == 1.5 * 0.5
    assert [s.username for s in standings(["a", "b", "c", "d"], played)] == ["a", "b", "d", "c"]
    assert [s.games for s in standings(["a", "b", "c", "d"], played)] == [2, 2, 0, 2]
