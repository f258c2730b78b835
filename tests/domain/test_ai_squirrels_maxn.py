"""Hard's max-n endgame solving with three or more seats (domain/ai/squirrels/maxn.py)."""

from __future__ import annotations

import random

import domain.squirrels as game
from domain.ai import squirrels as ai
from domain.base import Setup
from tests.domain.step_clock import StepClock


def endgame(seed: int, seats: int, max_cards: int):
    """Random turns from a seeded deal until at most ``max_cards`` food cards are left (None if it ended)."""
    rng = random.Random(seed)
    state = None
    for event in game.initial(Setup(seats, {}), rng):
        state = game.evolve(state, event)
    while game.status(state) == "playing":
        if sum(cell != "squirrel" for cell in game.view(state, state.turn)["grid"].values()) <= max_cards:
            return state
        for event in game.decide(state, state.turn, game.parse(rng.choice(game.legal(state, state.turn))), rng):
            state = game.evolve(state, event)
    return None


def plain_maxn(rules, sim) -> tuple[float, ...]:
    """Max-n by plain recursion, without a table: each seat takes the first action best for itself."""
    best = None
    for action in sorted(rules.actions(sim), key=lambda a: -rules.gain(sim, a[ai.ACTION_CELLS])):
        child = sim.copy()
        rules.play(child, action)
        value = tuple(rules.reward(child)) if child.over else plain_maxn(rules, child)
        if best is None or value[sim.turn] > best[sim.turn]:
            best = value
    return best


def test_maxn_agrees_with_plain_recursion_and_its_action_reaches_its_value():
    found = 0
    for seed in range(60):
        state = endgame(900 + seed, 3 + seed % 2, max_cards=6)
        if state is None:
            continue
        rules, sim = ai.rebuild(game.view(state, state.turn))
        value, action = ai.MaxN(rules, StepClock(), float("inf")).best(sim)
        assert value == plain_maxn(rules, sim)
        child = sim.copy()
        rules.play(child, action)
        reached = tuple(rules.reward(child)) if child.over else ai.MaxN(rules, StepClock(), float("inf")).best(
            child)[0]
        assert reached == value
        found += 1
    assert found >= 10


def test_hard_with_three_seats_plays_the_solved_endgame_move_and_gives_up_when_out_of_time():
    for seed in range(40):
        state = endgame(950 + seed, 3, max_cards=ai.MAXN_CARDS - 4)
        if state is not None:
            break
    rules, sim = ai.rebuild(game.view(state, state.turn))
    value, action = ai.MaxN(rules, StepClock(), float("inf")).best(sim)
    played = ai.choose(game.view(state, state.turn), state.turn, "hard", random.Random(1), 1.0, StepClock(1e-6))
    child = sim.copy()
    rules.play(child, next(a for a in rules.actions(sim) if ai.notation(a) == played))
    mine = (tuple(rules.reward(child)) if child.over else ai.MaxN(rules, StepClock(), float("inf")).best(child)[0])
    assert mine[state.turn] == value[state.turn]
    assert ai.endgame(rules, sim, StepClock(1.0), 0.0, 0.01) is None  # no time: the tree search decides
