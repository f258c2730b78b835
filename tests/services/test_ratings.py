"""Statistics and Elo ratings: finished games counted once, by player name, rebuildable."""

from __future__ import annotations

from workers import jobs

WIN_IN_ONE = {"turn": "romans", "cells": {"a5": "RR", "h7": "G", "h3": "G"}}


def finish(runtime, players):
    g = runtime.service.create("murus", players, position=WIN_IN_ONE)
    runtime.service.command(g["id"], 0, "a5-a7")
    return g["id"]


def test_a_finished_game_is_counted_once(runtime, client):
    gid = finish(runtime, [{"name": "Ana"}, {"name": "Bob"}])
    assert runtime.ratings.project(gid) is True
    assert runtime.ratings.project(gid) is False  # a retried job
    jobs.project_lobby(gid)
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
