"""Foraging Squirrels AI: legal to the end at every level, fair play (the view is the only input), strength."""

from __future__ import annotations

import copy
import random
import time

import pytest

import domain.squirrels as game
from domain.ai import choose as choose_any
from domain.ai import squirrels as ai
from domain.base import Setup
from tests.domain.step_clock import StepClock


def random_position(seed: int, seats: int, packs: str = "set", plies: int | None = None):
    """A fresh deal and a few random legal turns (digs included)."""
    rng = random.Random(seed)
    state = None
    for event in game.initial(Setup(seats, {"packs": packs}), rng):
        state = game.evolve(state, event)
    for _ in range(rng.randrange(8) if plies is None else plies):
        if game.status(state) != "playing":
            break
        for event in game.decide(state, state.turn, game.parse(rng.choice(game.legal(state, state.turn))), rng):
            state = game.evolve(state, event)
    return state


def play_out(state, levels: list[str], seed: int, budget: float = 0.02, clock=None):
    rng = random.Random(seed)
    while game.status(state) == "playing":
        seat = state.turn
        text = ai.choose(game.view(state, seat), seat, levels[seat], rng, budget, clock or StepClock())
        assert text in game.legal(state, seat), text
        for event in game.decide(state, seat, game.parse(text), rng):
            state = game.evolve(state, event)
    return state


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_level_plays_legal_moves_to_the_end(level, seats):
    for seed in range(2):
        state = random_position(seed * 10 + seats, seats, packs="draft" if seed else "set")
        final = play_out(state, [level] * seats, seed)
        assert game.status(final) == "finished"


def test_real_clock_and_the_shared_entry_point():
    state = random_position(5, 3, plies=2)
    text = choose_any("squirrels", game.view(state, state.turn), state.turn, "hard", random.Random(1), 0.02,
                      time.perf_counter)
    assert text in game.legal(state, state.turn)


def test_search_actions_are_all_legal_including_digs():
    digs = 0
    for seed in range(30):
        state = random_position(seed, 2 + seed % 3, plies=1 + seed % 12)
        if game.status(state) != "playing":
            continue
        view = game.view(state, state.turn)
        rules, sim = ai.rebuild(view)
        texts = [ai.notation(a) for a in rules.actions(sim)]
        assert set(texts) <= set(game.legal(state, state.turn))
        assert len(texts) == len(set(texts))
        has_dig = any("dig" in text for text in texts)
        assert view["can_dig"][state.turn] or not has_dig
        digs += has_dig
    assert digs >= 5


def test_fair_play_the_view_is_the_only_input():
    live = random_position(21, 3, plies=4)
    # The same table reached another way: loaded from its position, with no history at all.
    loaded = None
    for event in game.initial(Setup(3, {}, game.dump_position(live)), random.Random(99)):
        loaded = game.evolve(loaded, event)
    seat = live.turn
    view_live, view_loaded = game.view(live, seat), game.view(loaded, seat)
    keys = set(game.dump_position(live)) | {"options", "opened"}
    assert {k: view_live[k] for k in keys} == {k: view_loaded[k] for k in keys}
    for level in ("normal", "hard"):
        before = copy.deepcopy(view_live)
        first = ai.choose(view_live, seat, level, random.Random(7), 0.2, StepClock())
        assert view_live == before, "the AI must not change its input"
        assert ai.choose(view_loaded, seat, level, random.Random(7), 0.2, StepClock()) == first
        assert ai.choose(copy.deepcopy(view_live), seat, level, random.Random(7), 0.2, StepClock()) == first


def test_the_ai_refuses_to_play_out_of_turn():
    state = random_position(3, 2, plies=0)
    other = 1 - state.turn
    with pytest.raises(ValueError):
        ai.choose(game.view(state, other), other, "easy", random.Random(0), 0.02, StepClock())


def test_hard_beats_easy_in_a_seeded_match():
    score = {"hard": 0.0, "easy": 0.0}
    for seed in range(8):
        levels = ["hard", "easy"] if seed % 2 == 0 else ["easy", "hard"]
        state = random_position(100 + seed, 2, plies=0)
        result = game.result(play_out(state, levels, seed, budget=0.3))
        for seat in result["winners"]:
            score[levels[seat]] += 1 / len(result["winners"])
    assert score["hard"] >= 5, score


# The exact endgame search of hard (two seats) ---------------------------------------------------------------

def _minimax(rules, sim) -> int:
    """The outcome for the seat to move (+1 win, 0 shared win, -1 loss) by plain minimax over the tree actions."""
    best = -2
    for action in rules.actions(sim):
        child = sim.copy()
        rules.play(child, action)
        if child.over:
            points = rules.points(child)
            value = (points[sim.turn] > points[1 - sim.turn]) - (points[sim.turn] < points[1 - sim.turn])
        else:
            value = -_minimax(rules, child)
        best = max(best, value)
    return best


def _endgames(count: int, max_cards: int):
    """Two-seat positions with at most ``max_cards`` food cards left, from seeded random games."""
    found = []
    for seed in range(200):
        state = random_position(300 + seed, 2, plies=0)
        rng = random.Random(seed)
        while game.status(state) == "playing":
            _, sim = ai.rebuild(game.view(state, state.turn))
            if sum(card >= 0 for card in sim.grid) <= max_cards:
                found.append(state)
                break
            text = rng.choice(game.legal(state, state.turn))
            for event in game.decide(state, state.turn, game.parse(text), rng):
                state = game.evolve(state, event)
        if len(found) == count:
            break
    return found


def test_the_solver_agrees_with_plain_minimax():
    values = set()
    for state in _endgames(12, max_cards=7):
        rules, sim = ai.rebuild(game.view(state, state.turn))
        value, action = ai.Solver(rules, StepClock(), float("inf")).best(sim)
        assert value == _minimax(rules, sim)
        child = sim.copy()
        rules.play(child, action)
        points = rules.points(child) if child.over else None
        reached = ((points[sim.turn] > points[1 - sim.turn]) - (points[sim.turn] < points[1 - sim.turn])
                   if child.over else -_minimax(rules, child))
        assert reached == value, "the solver's action reaches the value it claims"
        values.add(value)
    assert len(values) >= 2, "the sample should hold different outcomes"


def test_hard_never_gives_away_a_proven_result():
    for state in _endgames(8, max_cards=9):
        seat = state.turn
        rules, sim = ai.rebuild(game.view(state, seat))
        best = _minimax(rules, sim)
        text = ai.choose(game.view(state, seat), seat, "hard", random.Random(1), 0.2, StepClock(0.0001))
        action = next(a for a in rules.actions(sim) if ai.notation(a) == text)
        child = sim.copy()
        rules.play(child, action)
        if child.over:
            points = rules.points(child)
            value = (points[seat] > points[1 - seat]) - (points[seat] < points[1 - seat])
        else:
            value = -_minimax(rules, child)
        assert value == best, f"hard played {text!r} worth {value}, but {best} was there"
