"""The Mouse Guard AI: legal play at every level, fair play (view only), budget, strength against easy."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain import mouseguard as mg
from domain.ai import mouseguard as ai
from domain.base import Setup
from domain.mouseguard.state import board_from_mice
from tests.domain.step_clock import StepClock
from tests.domain.test_mouseguard_helpers import fold

LEVELS = ("easy", "normal", "hard")


def random_position(seed: int, plies: int) -> dict:
    """The position after a random setup and ``plies`` random turns."""
    rng = random.Random(seed)
    state = fold(mg.initial(Setup(seats=2), rng))
    while mg.status(state) == "setup" or (state.plies < plies and mg.status(state) == "playing"):
        seat = mg.to_act(state)[0]
        state = fold(mg.decide(state, seat, mg.parse(rng.choice(mg.legal(state, seat))), rng), state)
    return mg.dump_position(state) if mg.status(state) == "playing" else random_position(seed + 1000, plies)


def play_out(state, levels, seed: int, budget: float = 0.02):
    """Play ``state`` to its end with the AI ``levels`` (by seat), checking every answer is legal."""
    rng = random.Random(seed)
    while mg.status(state) != "finished":
        for seat in mg.to_act(state):
            view = mg.view(state, seat)
            text = ai.choose(view, seat, levels[seat], random.Random(rng.random()), budget, StepClock())
            assert text in mg.legal(state, seat)
            state = fold(mg.decide(state, seat, mg.parse(text), rng), state)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_from_the_setup(level):
    state = fold(mg.initial(Setup(seats=2, options={"max_plies": 16}), random.Random(4)))
    assert mg.status(play_out(state, (level, level), seed=4)) == "finished"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_places_without_a_hand(level):
    """MG-4 deals after the setup: the placement is chosen from a view with an empty hand."""
    state = fold(mg.initial(Setup(seats=2), random.Random(9)))
    for seat in mg.to_act(state):
        view = mg.view(state, seat)
        assert view["hand"] == [] and view["hand_counts"] == {"black": 0, "white": 0}
        text = ai.choose(view, seat, level, random.Random(seat), 0.02, StepClock())
        assert text in mg.legal(state, seat)
        state = fold(mg.decide(state, seat, mg.parse(text), random.Random(0)), state)
    assert mg.status(state) == "playing" and [len(hand) for hand in state.hands] == [3, 3]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed, options", [
    (1, {}), (2, {"edge_points": True, "exit_extra_step": True, "diplomacy_metric": "chebyshev"})])
def test_every_level_plays_legal_moves_from_random_positions(level, seed, options):
    position = random_position(seed, plies=6 + seed * 5)
    state = fold(mg.initial(Setup(seats=2, options={**options, "max_plies": 20}, position=position),
                            random.Random(seed)))
    assert mg.status(play_out(state, (level, "easy"), seed)) == "finished"


def _twin_worlds(seed: int):
    """Two games that differ only in the opponent's hand and the deck order, and the seat that cannot tell."""
    position = random_position(seed, plies=8)
    mine = position["turn"]
    theirs = "white" if mine == "black" else "black"
    rng = random.Random(seed)
    twin = msgspec.json.decode(msgspec.json.encode(position))
    pool = twin["hands"][theirs] + twin["deck"]
    while pool[:3] == twin["hands"][theirs] or sorted(pool[:3]) == sorted(twin["hands"][theirs]):
        rng.shuffle(pool)
    twin["hands"][theirs], twin["deck"] = pool[:3], pool[3:]
    worlds = [fold(mg.initial(Setup(seats=2, position=p), random.Random(seed))) for p in (position, twin)]
    return worlds, worlds[0].seat_of(0 if mine == "black" else 1)


@pytest.mark.parametrize("seed", [3, 8])
def test_fair_play_identical_views_give_identical_answers(seed):
    worlds, me = _twin_worlds(seed)
    assert worlds[0].hands != worlds[1].hands
    views = [mg.view(world, me) for world in worlds]
    assert msgspec.json.encode(views[0]) == msgspec.json.encode(views[1])
    for level in LEVELS:
        answers = {ai.choose(view, me, level, random.Random(seed), 0.05, StepClock()) for view in views}
        assert len(answers) == 1


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_answers_within_the_budget(level):
    state = fold(mg.initial(Setup(seats=2, position=random_position(5, plies=4)), random.Random(5)))
    seat = mg.to_act(state)[0]
    clock = StepClock(0.001)
    text, iterations = ai.search(mg.view(state, seat), seat, level, random.Random(0), 0.05, clock)
    assert text in mg.legal(state, seat)
    assert iterations > 10 and clock.readings[-1] - clock.readings[0] <= 0.05


def test_only_the_seat_to_act_may_ask():
    state = fold(mg.initial(Setup(seats=2, position=random_position(6, plies=2)), random.Random(6)))
    idle = 1 - mg.to_act(state)[0]
    with pytest.raises(ValueError):
        ai.choose(mg.view(state, idle), idle, "hard", random.Random(0), 0.02, StepClock())


def test_hard_beats_easy_in_a_small_seeded_match():
    wins = {"hard": 0, "easy": 0}
    for game in range(4):
        levels = ("hard", "easy") if game % 2 == 0 else ("easy", "hard")
        state = fold(mg.initial(Setup(seats=2, options={"max_plies": 80}), random.Random(100 + game)))
        state = play_out(state, levels, seed=100 + game, budget=0.05)
        for seat in mg.result(state)["winners"]:
            wins[levels[seat]] += 1
    assert wins["hard"] > wins["easy"], wins


def test_hard_leaf_values_are_complementary_and_prefer_the_side_a_mouse_up():
    """``_fitted`` is one winning chance seen from both sides, and a captured mouse lowers its side's value."""
    game = ai.GameRules({"edge_points": False, "diplomacy_metric": "squares", "exit_extra_step": False,
                         "max_plies": None})
    position = random_position(11, plies=6)
    board = board_from_mice(position["mice"])
    for mover in (0, 1):
        even = ai.Sim(board, [[1, 1, 1], [1, 1, 1]], [], [], [0, 0], mover, 6)
        down = ai.Sim(board, [[1, 1, 1], [1, 1, 1]], [], [], [1, 0], mover, 6)  # Black lost a mouse
        for sim in (even, down):
            assert 0.0 < ai.evaluate(game, sim, 0, True) < 1.0
            assert abs(ai.evaluate(game, sim, 0, True) + ai.evaluate(game, sim, 1, True) - 1.0) < 1e-9
        if not ai.threatens(game, board, mover):
            assert ai.evaluate(game, down, 0, True) < ai.evaluate(game, even, 0, True)
