"""AI seats and the table: they answer draw offers from their own evaluation (easy declines) and think within
their clock."""

from __future__ import annotations

from services import ai_turns
from services.ai_turns import clock_budget
from tests.conftest import run_jobs

# Gauls (seat 1) hold one tower against a full Roman line: hopeless for them.
HOPELESS_FOR_GAULS = {"cells": {c + "1": "RR" for c in "abcdefgh"} | {"h7": "G"}, "turn": "romans"}


def offer_draw(runtime, level, position=None):
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bot", "ai": level}], position=position)
    runtime.service.command(g["id"], 0, "offer draw")
    game = runtime.service.load(g["id"])
    assert ai_turns.ai_seats_now(game) == [1]  # not its turn, but an offer to answer
    return g["id"], game.version


def test_easy_declines_a_draw(runtime):
    gid, version = offer_draw(runtime, "easy", HOPELESS_FOR_GAULS)
    assert ai_turns.play(runtime.service, gid, 1, version, budget=0.05) == "answered"
    game = runtime.service.load(gid)
    assert game.state.offer is None and game.module.result(game.state) is None


def test_normal_accepts_a_draw_in_a_lost_position_and_declines_at_the_start(runtime):
    gid, version = offer_draw(runtime, "normal", HOPELESS_FOR_GAULS)
    assert ai_turns.play(runtime.service, gid, 1, version, budget=0.1) == "answered"
    game = runtime.service.load(gid)
    assert game.module.result(game.state)["termination"] == "draw_agreed"

    gid, version = offer_draw(runtime, "normal")
    ai_turns.play(runtime.service, gid, 1, version, budget=0.1)
    game = runtime.service.load(gid)
    assert game.module.result(game.state) is None and game.state.offer is None


def test_the_dispatcher_asks_the_ai_to_answer(runtime):
    gid, _ = offer_draw(runtime, "normal", HOPELESS_FOR_GAULS)
    run_jobs(runtime)
    game = runtime.service.load(gid)
    assert game.module.result(game.state)["termination"] == "draw_agreed"


def test_thinking_time_within_a_clock():
    assert clock_budget(1.0, remaining=600) == 1.0  # plenty of time: the configured budget
    assert clock_budget(1.0, remaining=6) == 0.2  # a thirtieth of what is left
    assert clock_budget(1.0, remaining=0.9, increment=2) == 0.3  # never more than a third of what is left
    assert clock_budget(1.0, remaining=0) == 0.01
