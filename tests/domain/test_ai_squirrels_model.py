"""Foraging Squirrels, three or four seats: hard learns from the game so far which seats grab (``model``), and its
tree lets them grab with that chance."""

from __future__ import annotations

import random

import pytest

import domain.squirrels as game
from domain.ai import choose as choose_any
from domain.ai import reads_history
from domain.ai import squirrels as ai
from domain.ai.squirrels import mcts, model
from domain.base import Setup
from tests.domain.step_clock import StepClock


def deal(seed: int, seats: int):
    rng = random.Random(seed)
    states = []
    for event in game.initial(Setup(seats, {}), rng):
        states.append(game.evolve(states[-1] if states else None, event))
    return states


def play(states, levels, seed, until=None):
    """Play on from ``states[-1]`` (``levels`` per seat, easy/normal at a fixed step clock), keeping every
    version."""
    rng = random.Random(seed)
    while game.status(states[-1]) == "playing" and (until is None or states[-1].plies < until):
        state = states[-1]
        text = ai.choose(game.view(state, state.turn), state.turn, levels[state.turn], rng, 0.05, StepClock())
        for event in game.decide(state, state.turn, game.parse(text), rng):
            states.append(game.evolve(states[-1], event))
    return states


def views(states, seat):
    return [game.view(state, seat) for state in states]


def test_the_squirrels_ai_reads_the_history_and_the_others_do_not():
    assert reads_history("squirrels")
    assert not any(reads_history(name) for name in ("murus", "mouseguard", "commando"))


def test_a_seat_that_always_grabs_is_told_from_one_that_thinks():
    # Seat 1 grabs (easy), seat 2 searches (normal); seat 0 (easy here) is the one asking.
    for seed in (1, 2, 3):
        states = play(deal(seed, 3), ["easy", "easy", "normal"], seed, until=12)
        chances = model.grab_chances(views(states, 0), 3, 0, random.Random(0), StepClock(), 0.2)
        assert chances[0] == model.PRIOR  # its own moves are not weighed
        assert chances[1] > 0.8 and chances[2] < 0.2, chances


def test_before_any_move_every_seat_is_at_the_prior():
    states = deal(4, 4)
    assert model.grab_chances(views(states, 2), 4, 2, random.Random(0), StepClock(), 0.1) == [model.PRIOR] * 4


def test_a_move_with_a_dig_is_not_a_grab():
    states = play(deal(5, 3), ["easy"] * 3, 5, until=2)
    before = game.view(states[-1], 0)
    mover = states[-1].turn
    assert before["can_dig"][mover]
    rules, sim = ai.rebuild(before)
    plain = next(m for m in rules.moves(sim) if rules.gain(sim, m[2]) == max(rules.gain(sim, c) for _, _, c in
                                                                              rules.moves(sim)))
    grab = ai.notation((None, *plain, None))
    empty = next(cell for cell in ai.CELLS if cell not in before["grid"])
    source = next(cell for cell, content in before["grid"].items() if content != "squirrel"
                  and cell not in {ai.CELLS[i] for i in plain[2]})
    for text, grabbed in ((grab, True), (f"{grab}; dig {source} {empty}", False)):
        after = states[-1]
        for event in game.decide(after, mover, game.parse(text), random.Random(0)):
            after = game.evolve(after, event)
        assert model.grabbed(rules, sim, before, game.view(after, 0)) is grabbed, text


def test_the_tree_lets_a_certain_grabber_only_grab():
    states = play(deal(6, 3), ["easy"] * 3, 6, until=1)
    rules, sim = ai.rebuild(game.view(states[-1], states[-1].turn))
    me = sim.turn
    grab = [1.0] * 3
    root, iterations = mcts.grow(rules, sim, random.Random(0), 0.3, StepClock(), 0.3, grab=grab)
    assert iterations > 50
    checked, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.seat != me and node.actions is not None:
            assert node.grabs >= 1 and len(node.children) <= node.grabs  # never another move
            checked += 1
        stack.extend(node.children)
    assert checked > 5


@pytest.mark.parametrize("seats", [3, 4])
def test_hard_with_a_history_plays_legal_moves_and_leaves_its_inputs_alone(seats):
    states = play(deal(7 + seats, seats), ["easy"] * seats, 7, until=2 * seats)
    state = states[-1]
    history = views(states, state.turn)
    kept = [dict(v) for v in history]
    text = choose_any("squirrels", history[-1], state.turn, "hard", random.Random(1), 0.2, StepClock(),
                      history=history)
    assert text in game.legal(state, state.turn)
    assert history == kept
    # The same call again: the same move (the history is the only extra input, and it is read, not kept).
    assert choose_any("squirrels", history[-1], state.turn, "hard", random.Random(1), 0.2, StepClock(),
                      history=history) == text
