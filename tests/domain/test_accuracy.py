"""Accuracy and move classes from an analysis's chances (domain/ai/accuracy.py)."""

from __future__ import annotations

import math

import pytest

from domain.ai import accuracy


def ply(seat, win, move="a", best="b"):
    return {"seat": seat, "move": move, "best": best, "win": win}


def test_move_accuracy_follows_lichess_formula_and_stays_within_0_and_100():
    assert accuracy.move_accuracy(0.0) == 100.0
    # lila: 103.1668 * exp(-0.04354 * 10) - 3.1669 + 1 for a loss of 10 points
    assert accuracy.move_accuracy(0.10) == pytest.approx(103.1668 * math.exp(-0.4354) - 2.1669)
    assert 60 < accuracy.move_accuracy(0.10) < 70
    assert accuracy.move_accuracy(1.0) == 0.0
    values = [accuracy.move_accuracy(x / 20) for x in range(21)]
    assert values == sorted(values, reverse=True) and all(0 <= v <= 100 for v in values)


@pytest.mark.parametrize("loss, expected", [
    (0.0, None), (0.049, None), (0.05, "inaccuracy"), (0.099, "inaccuracy"), (0.1, "mistake"), (0.199, "mistake"),
    (0.2, "blunder"), (0.9, "blunder"), (None, None)])
def test_classes_by_the_mover_chance_lost(loss, expected):
    assert accuracy.classify(loss, "b", "a") == expected


def test_the_engine_best_move_is_never_classed_nor_a_move_without_best():
    assert accuracy.classify(0.5, "a", "a") is None
    assert accuracy.classify(0.5, None, "a") is None
    plies = [ply(0, [0.8, 0.2], move="x", best="x"), ply(1, [0.3, 0.7])]
    assert accuracy.losses(plies, [0.5, 0.5])[0] == 0.0


def test_players_count_classes_and_rank_the_careless_player_below_the_careful_one():
    # Seat 0 plays the engine's moves; seat 1 drops 0.06, then 0.12, then 0.3 of its chance.
    wins = [[0.5, 0.5], [0.5, 0.5], [0.56, 0.44], [0.56, 0.44], [0.68, 0.32], [0.68, 0.32], [0.98, 0.02]]
    plies = []
    for i, win in enumerate(wins):
        seat = i % 2
        plies.append(ply(seat, win, move="m", best="m" if seat == 0 else "better"))
    end = [1.0, 0.0]
    players = accuracy.players(plies, end, 2)
    assert [p["seat"] for p in players] == [0, 1]
    assert players[0] == {"seat": 0, "accuracy": 100.0, "inaccuracies": 0, "mistakes": 0, "blunders": 0}
    assert (players[1]["inaccuracies"], players[1]["mistakes"], players[1]["blunders"]) == (1, 1, 1)
    assert 0 < players[1]["accuracy"] < 70
    lost = accuracy.losses(plies, end)
    classes = [accuracy.classify(loss, p["best"], p["move"]) for p, loss in zip(plies, lost)]
    assert classes == [None, "inaccuracy", None, "mistake", None, "blunder", None]


def test_a_seat_without_moves_has_no_accuracy_and_unknown_after_positions_count_nothing():
    plies = [ply(0, [0.6, 0.4, 0.0]), ply(1, None)]
    players = accuracy.players(plies, None, 3)
    assert players[0]["accuracy"] is None and players[2]["accuracy"] is None  # ply 0's after is unknown
    assert accuracy.players([ply(0, [0.6, 0.4, 0.0])], [0.0, 1.0, 0.0], 3)[0]["blunders"] == 1


def test_one_total_collapse_does_not_zero_the_harmonic_mean():
    plies = [ply(0, [1.0, 0.0]), ply(1, [0.0, 1.0], move="m", best="m")]
    players = accuracy.players(plies, [0.0, 1.0], 2)
    assert players[0]["accuracy"] == pytest.approx(0.5, abs=0.01)  # (0 weighted + 1 harmonic floor) / 2
