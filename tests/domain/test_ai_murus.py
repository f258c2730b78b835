"""Murus AI: legal play to the end at every level, tactics, fair play (view only, deterministic), strength."""

from __future__ import annotations

import random

import pytest

from domain import murus
from domain.ai import choose as choose_any
from domain.ai import murus as ai
from domain.murus.board import generate
from domain.murus.board import play as play_move
from domain.murus.position import load_position
from tests.domain.step_clock import StepClock
from tests.domain.test_murus_helpers import new_game, play

LEVELS = ("easy", "normal", "hard")


def ai_move(state, level, seed=0, budget=0.02, step=0.001):
    seat = murus.to_act(state)[0]
    clock = StepClock(step)
    text = ai.choose(murus.view(state, seat), seat, level, random.Random(seed), budget, clock)
    assert clock.now <= budget, "the AI answers before its budget runs out"
    return text


def random_start(seed: int, variant: str):
    """A position a few random plies from the opening."""
    rng = random.Random(seed)
    state = new_game(variant=variant, max_plies=160)
    for _ in range(rng.randrange(0, 12)):
        if murus.status(state) != "playing":
            break
        state, _ = play(state, rng.choice(murus.legal(state, murus.to_act(state)[0])))
    return state


@pytest.mark.parametrize("variant", ["basic", "advanced"])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end(level, variant):
    for seed in range(2):
        state = random_start(seed, variant)
        while murus.status(state) == "playing":
            text = ai_move(state, level, seed)
            assert text in murus.legal(state, murus.to_act(state)[0])
            state, _ = play(state, text)
        assert murus.result(state)["reason"]


def test_the_registry_entry_point_reaches_this_ai():
    state = new_game()
    assert choose_any("murus", murus.view(state, 0), 0, "easy", random.Random(0), 0.02, StepClock()) \
        in murus.legal(state, 0)


def test_no_move_when_it_is_not_the_seats_turn():
    state = new_game()
    with pytest.raises(ValueError, match="no move"):
        ai.choose(murus.view(state, 1), 1, "normal", random.Random(0), 0.02, StepClock())


# Tactics ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_takes_a_breakthrough(level):
    state = new_game({"d5": "RR", "a7": "GG", "h6": "GG", "a1": "RR"})
    state, _ = play(state, ai_move(state, level))
    assert murus.result(state) == {"winners": [0], "reason": "Romans reached row 7", "termination": "rules"}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_blocks_a_breakthrough_threat(level):
    # The Gaul tower on a3 threatens a3-a1 (the wall on c1 stops a3-c1): only c2-a2 saves the Romans.
    state = new_game({"a3": "GG", "h7": "GG", "c1": "R", "c2": "RR", "h1": "RR"})
    text = ai_move(state, level)
    assert text == "c2-a2"
    state, _ = play(state, text)
    assert murus.status(state) == "playing"
    assert not ai.breakthrough_towers(state.pos, False)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_removes_an_intruder_in_the_advanced_game(level):
    state = new_game({"d1": "G", "e2": "RR", "a1": "RR", "h7": "GG", "g6": "GG"}, variant="advanced")
    state, _ = play(state, ai_move(state, level))
    assert murus.status(state) == "playing" and "d1" not in murus.view(state, 0)["cells"]


# Fair play --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_answer_and_transpositions_look_alike(level):
    one, _ = play(new_game(), "a1-a3", "h7-h5", "b1-b3", "g7-g5")
    two, _ = play(new_game(), "b1-b3", "g7-g5", "a1-a3", "h7-h5")
    assert one.pos == two.pos and murus.view(one, 0)["last_move"] != murus.view(two, 0)["last_move"]
    answers = {ai_move(state, level, seed=3) for state in (one, two, one)}
    assert len(answers) == 1


def test_the_ai_rebuilds_exactly_the_viewed_position():
    state, _ = play(new_game(variant="advanced"), "a1-c1", "h7-h5", "b1*b4")
    view = murus.view(state, 1)
    assert load_position(view["position"], True) == state.pos


# Strength ---------------------------------------------------------------------------------------------------

@pytest.mark.slow  # a statistical match
def test_hard_beats_easy_in_a_seeded_match():
    wins = 0
    games = [(variant, hard_seat) for variant in ("basic", "advanced") for hard_seat in (0, 1)]
    for game, (variant, hard_seat) in enumerate(games):
        state = new_game(variant=variant, max_plies=200)
        while murus.status(state) == "playing":
            level = "hard" if murus.to_act(state)[0] == hard_seat else "easy"
            state, _ = play(state, ai_move(state, level, seed=game, budget=0.01, step=0.0005))
        wins += murus.result(state)["winners"] == [hard_seat]
    assert wins >= 3, f"hard won only {wins} of {len(games)} games against easy"


def test_every_threat_making_move_passes_the_quiescence_filter():
    """Hard's quiescence tries only the moves ``may_threaten`` lets through, and none where neither a wall on the
    threat row nor a tower near the goal stands: no move that makes a threat is lost."""
    rng = random.Random(5)
    threats = 0
    for _ in range(150):
        pos = new_game().pos
        for _ in range(rng.randrange(4, 50)):
            moves = generate(pos, False)
            if not moves or ai.breakthrough_towers(pos, False):
                break
            for move in moves:
                child = play_move(pos, move)
                mover_threatens = ai.breakthrough_towers((*child[3:6], *child[0:3], child[6] ^ 1), False)
                if mover_threatens:
                    threats += 1
                    side, (m1, m2, m3) = pos[6], pos[0:3]
                    walls = m1 & ~m2 & ai.THREAT_ROW[side]
                    assert walls or m2 & ~m3 & ai.CLOSE_ROWS[side], move
                    assert ai.may_threaten(move, side, walls), move
            pos = play_move(pos, rng.choice(moves))
    assert threats > 50
    opening = generate(new_game().pos, False)
    assert sum(ai.may_threaten(move, 0, ai.THREAT_ROW[0]) for move in opening) < len(opening) / 2, \
        "the filter must filter"

