"""The Squirrels AI's simulator against the decider, move for move (as the Mouse Guard move generator is checked
against ``rules.turn_options``): every legal command played by both leads to the same table, the simulator's
moves are exactly the decider's distinct outcomes, and its scores are the game's (FS-4, FS-5, FS-7, FS-8, FS-9)."""

from __future__ import annotations

import random

import pytest

import domain.squirrels as game
from domain.ai import squirrels as ai
from domain.base import Setup

DIG_SAMPLE = 6  # dig commands checked per position (there are hundreds), besides every plain one


def table(sim) -> tuple:
    """What the simulator knows of a table, comparable (``over`` apart: a rebuilt table is never over)."""
    return (tuple(sim.grid), sim.sq, tuple(sim.dug), sim.opened, sim.plies, tuple(map(tuple, sim.tally)))


def after_decider(state, text: str, rng: random.Random):
    for event in game.decide(state, state.turn, game.parse(text), rng):
        state = game.evolve(state, event)
    return state


def rebuilt(state):
    """The simulator's table of ``state``, as a seat's view shows it (the turn apart when the game is over)."""
    return ai.rebuild(game.view(state, state.turn))[1]


def after_simulator(rules, sim, text: str):
    """``text`` played by the simulator: its dig and collect steps, the run computed here by FS-4/FS-5."""
    turn = game.parse(text)
    sim = sim.copy()
    dig = (ai.CELL_INDEX[turn.dig[0]], ai.CELL_INDEX[turn.dig[1]]) if turn.dig else None
    if dig and turn.dig_first:
        rules.dig(sim, *dig)
    d = ai.DIRECTIONS.index(turn.direction)
    run = []
    for i in ai.RAYS[sim.sq][d]:
        if sim.grid[i] < 0:
            continue
        if not rules.cards.mask[sim.grid[i]] & ai.BITS[turn.color]:
            break
        run.append(i)
    rules.collect(sim, tuple(run))
    if dig and not turn.dig_first:
        rules.dig(sim, *dig)
    rules.finish_turn(sim)
    return sim


def positions(seed: int, seats: int):
    """Every position of a random game (digs included)."""
    rng = random.Random(seed)
    state = None
    for event in game.initial(Setup(seats, {"packs": "draft" if seed % 2 else "set"}), rng):
        state = game.evolve(state, event)
    while game.status(state) == "playing":
        yield state
        state = after_decider(state, rng.choice(game.legal(state, state.turn)), rng)
    yield state


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_simulator_follows_the_decider_move_for_move(seats):
    checked = digs = 0
    for seed in range(3):
        for state in positions(100 * seats + seed, seats):
            view = game.view(state, state.turn)
            rules, sim = ai.rebuild(view)
            points = rules.points(sim)
            assert points == [score["points"] for score in view["scores"]]
            if game.status(state) != "playing":
                best = max(points)
                assert [s for s, p in enumerate(points) if p == best] == game.result(state)["winners"]
                continue
            legal = game.legal(state, state.turn)
            plain = [t for t in legal if "dig" not in t]
            dug = [t for t in legal if "dig" in t]
            for text in plain + random.Random(seed).sample(dug, min(DIG_SAMPLE, len(dug))):
                expected = after_decider(state, text, random.Random(0))
                ours = after_simulator(rules, sim, text)
                assert table(ours) == table(rebuilt(expected)), text
                assert ours.over == (game.status(expected) == "finished"), text
                if not ours.over:
                    assert ours.turn == expected.turn, text
                checked += 1
                digs += "dig" in text
            # The simulator's plain moves: one per distinct outcome of the decider's plain commands.
            outcomes = {table(rebuilt(after_decider(state, text, random.Random(0)))) for text in plain}
            generated = []
            for action in rules.plain_actions(sim):
                child = sim.copy()
                rules.play(child, action)
                generated.append(table(child))
            assert len(generated) == len(set(generated)) and set(generated) == outcomes
    assert checked > 100 and digs > 10


def test_the_tree_actions_are_the_decider_commands_they_name():
    """Every tree action (plain, dig before, dig after) leads where its command leads the decider."""
    for seed in range(6):
        for state in positions(900 + seed, 2 + seed % 3):
            if game.status(state) != "playing":
                break
            rules, sim = ai.rebuild(game.view(state, state.turn))
            for action in rules.actions(sim):
                text = ai.notation(action)
                child = sim.copy()
                rules.play(child, action)
                assert table(child) == table(rebuilt(after_decider(state, text, random.Random(0)))), text


def test_the_simulator_scores_a_game_stopped_by_max_plies_as_a_draw():
    """FS-12: the turn limit ends the game in a draw, for the AI's playouts as for the decider."""
    rng = random.Random(3)
    state = None
    for event in game.initial(Setup(3, {"max_plies": 2}), rng):
        state = game.evolve(state, event)
    rules, sim = ai.rebuild(game.view(state, state.turn))
    for _ in range(2):
        rules.collect(sim, rules.moves(sim)[0][ai.MOVE_CELLS])
        rules.finish_turn(sim)
    assert sim.over and rules.reward(sim) == [1 / 3] * 3 and rules.reward_of(sim, 1) == 1 / 3
