"""The pure analysis of positions (domain/ai/analysis.py): chances, best moves and blunders."""

from __future__ import annotations

import random

import pytest

import domain.murus as murus
from domain import ai
from domain.ai import analysis
from domain.base import Setup
from domain.registry import game_module
from tests.domain.step_clock import StepClock

# Romans to move. The Gaul tower on d3 is kept from row 1 only by the Roman stones on c2, d2 and e2: moving the
# Roman tower away from e2 (e2-e4, e2-c2, e2-g2, e2-g4) lets the Gauls break through at once with d3-f1.
BLUNDER_POSITION = {"turn": "romans", "cells": {
    "d3": "GG", "c2": "R", "d2": "R", "e2": "RR", "a1": "RR", "b1": "R", "g1": "RR", "h1": "RR",
    "a7": "GG", "h7": "GG", "c7": "G", "f6": "G"}}


def start(module, seats: int = 2, position: dict | None = None, seed: int = 0):
    state = None
    for event in module.initial(Setup(seats=seats, options={}, position=position), random.Random(seed)):
        state = module.evolve(state, event)
    return state


def play(module, state, seat: int, move: str):
    for event in module.decide(state, seat, module.parse(move), random.Random(0)):
        state = module.evolve(state, event)
    return state


def analyse(module, state, seats: int, seat: int, step: float = 0.0005):
    return analysis.evaluate(module, state, seats, seat, 0.25, random.Random(1), StepClock(step))


def test_a_move_allowing_an_immediate_breakthrough_is_a_blunder_and_the_winner_is_sure_before_the_last_move():
    state = start(murus, position=BLUNDER_POSITION)
    plies = []
    for seat, move in ((0, "e2-e4"), (1, "d3-f1")):
        evaluation = analyse(murus, state, 2, seat)
        plies.append({"seat": seat, "move": move, "win": evaluation.win, "best": evaluation.best})
        state = play(murus, state, seat, move)
    assert murus.result(state)["winners"] == [1]
    end = analysis.final(murus, state, 2)
    assert end == (0.0, 1.0)
    assert plies[0]["best"] not in ("e2-e4", "e2-c2", "e2-g2", "e2-g4")
    assert plies[0]["win"][0] >= 0.5  # the Romans stand well before the blunder (two stones up)
    assert plies[1]["win"][1] >= 0.9  # the winner's chance before the last move
    assert plies[1]["best"] == "d3-f1"
    assert analysis.blunders(plies, end) == [True, False]


def test_a_good_move_is_no_blunder_and_unknown_chances_flag_nothing():
    state = start(murus, position=BLUNDER_POSITION)
    evaluation = analyse(murus, state, 2, 0)
    after = analyse(murus, play(murus, state, 0, evaluation.best), 2, 1)
    plies = [{"seat": 0, "move": evaluation.best, "win": evaluation.win, "best": evaluation.best},
             {"seat": 1, "move": after.best, "win": after.win, "best": after.best}]
    assert analysis.blunders(plies, None) == [False, False]
    plies[0]["move"] = "e2-e4"  # judged against the position after it, still unknown: nothing flagged yet
    plies[1]["win"] = None
    assert analysis.blunders(plies, (0.0, 1.0)) == [False, False]


def test_murus_scores_map_to_chances_monotonically_with_proven_results_certain():
    chances = [analysis.murus_chance(score) for score in (-900, -300, 0, 300, 900)]
    assert chances == sorted(chances) and 0.3 < chances[2] < 0.7
    assert analysis.murus_chance(-analysis.MURUS_OFFSET) == 0.5  # the offset cancels the side to move's tempo
    assert analysis.murus_chance(ai.murus.WIN - 5) == 1.0 and analysis.murus_chance(-ai.murus.WIN + 5) == 0.0


@pytest.mark.parametrize("game, seats", [("murus", 2), ("mouseguard", 2), ("squirrels", 2), ("squirrels", 3),
                                         ("commando", 3)])
def test_every_game_gives_chances_summing_to_one_and_a_legal_best_move(game, seats):
    module = game_module(game)
    rng = random.Random(5)
    state = start(module, seats, seed=5)
    for ply in range(12):  # into the middle game, past Mouse Guard's secret placements
        if module.status(state) == "finished":
            break
        seat = module.to_act(state)[0]
        move = ai.choose(game, module.view(state, seat), seat, "easy", rng, 0.01, StepClock())
        if ply >= 4:
            evaluation = analyse(module, state, seats, seat, step=0.002)
            assert len(evaluation.win) == seats
            assert sum(evaluation.win) == pytest.approx(1.0)
            assert all(0.0 <= w <= 1.0 for w in evaluation.win)
            assert evaluation.best is None or evaluation.best in module.legal(state, seat)
        for event in module.decide(state, seat, module.parse(move), rng):
            state = module.evolve(state, event)


def test_a_finished_game_is_its_result_shared_among_winners():
    state = play(murus, start(murus, position=BLUNDER_POSITION), 0, "e2-e4")
    state = play(murus, state, 1, "d3-f1")
    assert analyse(murus, state, 2, 0).win == (0.0, 1.0)
