"""AI seats and the table: they answer draw offers from their own evaluation (easy declines) and think within
their clock."""

from __future__ import annotations

from services.jobs import ai_turns
from services.jobs.ai_turns import clock_budget
from tests.conftest import run_jobs

# Gauls (seat 1) hold one tower against a full Roman line: hopeless for them.
HOPELESS_FOR_GAULS = {"cells": {c + "1": "RR" for c in "abcdefgh"} | {"h7": "G"}, "turn": "romans"}


def offer_draw(runtime, level, position=None):
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bot", "ai": level}], position=position)
    runtime.service.command(g["id"], 0, "offer draw")
    game = runtime.games.load(g["id"])
    assert ai_turns.ai_seats_now(game) == [1]  # not its turn, but an offer to answer
    return g["id"], game.version


def test_easy_declines_a_draw(runtime):
    gid, version = offer_draw(runtime, "easy", HOPELESS_FOR_GAULS)
    assert ai_turns.play(runtime.service, gid, 1, version, budget=0.05) == "answered"
    game = runtime.games.load(gid)
    assert game.state.offer is None and game.result is None


def test_normal_accepts_a_draw_in_a_lost_position_and_declines_at_the_start(runtime):
    gid, version = offer_draw(runtime, "normal", HOPELESS_FOR_GAULS)
    assert ai_turns.play(runtime.service, gid, 1, version, budget=0.1) == "answered"
    game = runtime.games.load(gid)
    assert game.result["termination"] == "draw_agreed"

    gid, version = offer_draw(runtime, "normal")
    ai_turns.play(runtime.service, gid, 1, version, budget=0.1)
    game = runtime.games.load(gid)
    assert game.result is None and game.state.offer is None


def test_the_dispatcher_asks_the_ai_to_answer(runtime):
    gid, _ = offer_draw(runtime, "normal", HOPELESS_FOR_GAULS)
    run_jobs(runtime)
    game = runtime.games.load(gid)
    assert game.result["termination"] == "draw_agreed"


def test_thinking_time_within_a_clock():
    assert clock_budget(1.0, remaining=600) == 1.0  # plenty of time: the configured budget
    assert clock_budget(1.0, remaining=6) == 0.2  # a thirtieth of what is left
    assert clock_budget(1.0, remaining=0.9, increment=2) == 0.3  # never more than a third of what is left
    assert clock_budget(1.0, remaining=0) == 0.01


def played_view(game: str, seat: int, plies: int = 12):
    """A view of ``seat`` after a few random commands (past Mouse Guard's placement)."""
    import random

    from domain.base import Setup, commands
    from domain.registry import game_module

    module, rng = game_module(game), random.Random(5)
    state = None
    for event in module.initial(Setup(seats=2), rng):
        state = module.evolve(state, event)
    for _ in range(plies):
        mover = module.to_act(state)[0]
        text = rng.choice(commands(module.legal(state, mover)))
        for event in module.decide(state, mover, module.parse(text), rng):
            state = module.evolve(state, event)
    return module.view(state, seat)


def test_hidden_information_games_evaluate_from_sampled_worlds():
    import random
    import time

    from domain.ai.draws import answer_draw, own_chance

    for game in ("mouseguard", "commando", "squirrels"):  # (Squirrels: face up, the analysis engine's chances)
        view = played_view(game, 1, plies=4 if game == "squirrels" else 12)
        chance = own_chance(game, view, 1, random.Random(1), 0.05, time.monotonic)
        assert 0.0 <= chance <= 1.0
    view = played_view("commando", 1, plies=0)
    assert answer_draw("commando", view, 1, "normal", random.Random(1), 0.05, time.monotonic) == "decline draw"
    view["agents"][0]["square"] = view["board"]["base"] - 1  # the opponent at the base's gates: a draw is good
    assert answer_draw("commando", view, 1, "normal", random.Random(1), 0.05, time.monotonic) == "accept draw"
    assert answer_draw("mouseguard", played_view("mouseguard", 1), 1, "easy", random.Random(1), 0.05,
                       time.monotonic) == "decline draw"
