"""Statistics and Elo ratings: finished games counted once, by player name, rebuildable."""

from __future__ import annotations

from services.reads.ratings import rated
from workers import jobs

WIN_IN_ONE = {"turn": "romans", "cells": {"a5": "RR", "h7": "G", "h3": "G"}}


def finish(runtime, players):
    """A game both seats moved in, won by seat 0 (seat 1 resigns)."""
    g = runtime.service.create("murus", players)
    for seat in (0, 1):
        game = runtime.games.load(g["id"])
        runtime.service.command(g["id"], seat, game.module.legal(game.state, seat)[0])
    runtime.service.command(g["id"], 1, "resign")
    return g["id"]


def rated_games(runtime) -> int:
    return runtime.ratings.read()["games"]["murus"].get("rated", 0)


def test_a_game_one_side_never_moved_in_is_counted_but_unrated(runtime):
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], position=WIN_IN_ONE)
    runtime.service.command(g["id"], 0, "a5-a7")  # Bob never moved
    assert runtime.ratings.project(g["id"]) is True
    assert rated_games(runtime) == 0 and runtime.ratings.read()["ratings"] == {}


def test_a_game_nobody_moved_in_would_be_unrated(runtime):
    # A game finished at birth (a position leaving a side no move) has this state: nobody has moved.
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])
    assert rated(runtime.games.load(g["id"])) is False


def test_a_person_never_shares_a_rating_with_an_ai(runtime):
    finish(runtime, [{"name": "H0"}, {"name": "H0", "ai": "hard"}])
    gid = finish(runtime, [{"name": "Eve"}, {"name": "H0"}])
    runtime.ratings.project(gid)
    for gid in runtime.store.game_ids():
        runtime.ratings.project(gid)
    names = {r["name"]: r["games"] for r in runtime.ratings.read()["ratings"]["murus"]}
    assert names == {"H0": 2, "H0 (hard AI)": 1, "Eve": 1}


def test_stats_show_the_best_ratings_only(runtime):
    for i in range(3):
        finish(runtime, [{"name": f"P{i}"}, {"name": f"Q{i}"}])
    for gid in runtime.store.game_ids():
        runtime.ratings.project(gid)
    best = runtime.ratings.read(top=2)["ratings"]["murus"]
    assert len(best) == 2 and all(r["name"].startswith("P") for r in best)


def test_a_finished_game_is_counted_once(runtime, client):
    gid = finish(runtime, [{"name": "Ana"}, {"name": "Bob"}])
    assert runtime.ratings.project(gid) is True
    assert runtime.ratings.project(gid) is False  # a retried job
    jobs.project(gid)
    stats = client.get("/api/stats").json
    assert stats["games"]["murus"]["finished"] == 1 and stats["games"]["murus"]["wins_by_seat"] == {"0": 1}
    table = {r["name"]: r for r in stats["ratings"]["murus"]}
    assert table["Ana"]["rating"] > 1500 > table["Bob"]["rating"] and table["Ana"]["games"] == 1


def test_unfinished_games_are_not_rated_and_rebuild_recounts(runtime):
    running = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])["id"]
    assert runtime.ratings.project(running) is False
    for _ in range(2):
        finish(runtime, [{"name": "Ana"}, {"name": "Bot", "ai": "easy"}])
    assert runtime.ratings.rebuild() == 3
    ratings = runtime.ratings.read()
    assert ratings["games"]["murus"]["finished"] == 2
    names = [r["name"] for r in ratings["ratings"]["murus"]]
    assert names == ["Ana", "Bot (easy AI)"]


def test_stats_count_finished_games_by_termination(runtime):
    """A turn-limit draw is told from a resignation by ``result.termination``, not by its reason's words."""
    finish(runtime, [{"name": "Ana"}, {"name": "Bob"}])  # Bob resigns
    capped = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], options={"max_plies": 2})["id"]
    for seat in (0, 1):
        game = runtime.games.load(capped)
        runtime.service.command(capped, seat, game.module.legal(game.state, seat)[0])
    for gid in runtime.store.game_ids():
        runtime.ratings.project(gid)
    murus = runtime.ratings.read()["games"]["murus"]
    assert murus["terminations"] == {"resigned": 1, "max_plies": 1}
    assert murus["draws"] == 1 and murus["finished"] == 2
