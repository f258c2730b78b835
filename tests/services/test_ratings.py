"""Statistics of every finished game, and ratings of accounts from rated games only: Glicko-2 for two seats,
OpenSkill's Plackett–Luce for more, in the order games finished whatever order they are counted in, rebuildable."""

from __future__ import annotations

import pytest

from services.reads import glicko2
from services.reads.glicko2 import Skill
from services.reads.ratings import PAIR_CAP, rated
from workers import jobs

WIN_IN_ONE = {"turn": "romans", "cells": {"a5": "RR", "h7": "G", "h3": "G"}}


def account(runtime, name: str) -> str:
    runtime.accounts.store.create(name, [])
    return name


def finish(runtime, players, accounts_at=None, game="murus", resigner=1, **kwargs):
    """A game every seat moved in, then ``resigner`` resigns (with two seats: the other wins)."""
    g = runtime.service.create(game, players, accounts=accounts_at, **kwargs)
    for _ in range(50):
        state = runtime.games.load(g["id"])
        if len(state.state.moved) == len(players):
            break
        seat = state.to_act[0]
        runtime.service.command(g["id"], seat, state.legal(seat)[0])
    runtime.service.command(g["id"], resigner, "resign")
    return g["id"]


def duel(runtime, a="Ana", b="Bob", resigner=1, **kwargs):
    return finish(runtime, [{"name": a}, {"name": b}], {0: a, 1: b}, resigner=resigner, **kwargs)


def standing(runtime, name, game="murus"):
    return runtime.ratings.of_player(name)[0].get(game)


# -- the algorithms -------------------------------------------------------------------------------------------

def test_glicko2_matches_the_papers_worked_example():
    """Glickman's example: 1500/200/0.06 against 1400/30 (win), 1550/100 (loss), 1700/300 (loss)."""
    games = [(Skill(1400, 30), 1), (Skill(1550, 100), 0), (Skill(1700, 300), 0)]
    after = glicko2.rate(Skill(1500, 200, 0.06), games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_first_game_between_new_accounts_moves_them_to_about_1662_and_1338():
    winner, loser = glicko2.two_seats(Skill(), Skill(), 1)
    assert (round(winner.rating), round(loser.rating), round(winner.rd)) == (1662, 1338, 290)


def test_three_seats_move_on_the_same_scale():
    after = glicko2.many_seats([Skill(), Skill(), Skill()], [1, 2, 2])
    assert after[0].rating > 1500 > after[1].rating == after[2].rating
    assert all(s.rd < 350 for s in after)


# -- what is rated --------------------------------------------------------------------------------------------

def test_a_rated_game_between_accounts(runtime):
    account(runtime, "Ana"), account(runtime, "Bob")
    gid = duel(runtime)
    assert runtime.ratings.project(gid) is True
    assert runtime.ratings.project(gid) is False  # a retried job
    ana, bob = standing(runtime, "ana"), standing(runtime, "Bob")
    assert (ana["rating"], bob["rating"], ana["rd"], bob["rd"]) == (1662, 1338, 290, 290)
    assert ana["provisional"] and (ana["wins"], ana["losses"], bob["losses"], ana["games"]) == (1, 0, 1, 1)
    assert runtime.ratings.read()["games"]["murus"]["rated"] == 1
    history = runtime.ratings.of_player("Ana")[1]["murus"]
    assert len(history) == 1 and history[0][1] == 1662


@pytest.mark.parametrize("kind", ["guest", "ai", "seed", "unmoved", "aborted", "position", "max_plies"])
def test_games_that_are_not_all_accounts_or_not_played_are_counted_but_unrated(runtime, kind):
    account(runtime, "Ana"), account(runtime, "Bob")
    if kind == "guest":
        gid = finish(runtime, [{"name": "Ana"}, {"name": "Guest"}], {0: "Ana"})
    elif kind == "ai":
        gid = finish(runtime, [{"name": "Ana"}, {"name": "Bot", "ai": "easy"}], {0: "Ana"}, resigner=0)
    elif kind == "seed":
        gid = duel(runtime, seed=7)
    elif kind == "unmoved":  # Bob never moves: Ana wins at once from a position (which Murus counts as fair)
        g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], position=WIN_IN_ONE,
                                   accounts={0: "Ana", 1: "Bob"})
        runtime.service.command(g["id"], 0, "a5-a7")
        gid = g["id"]
    elif kind == "position":  # any position its creator chose (#31), hidden parts or not
        gid = duel(runtime, position={"turn": "romans", "cells": {"a1": "RR", "h1": "RR", "a7": "GG", "h7": "GG"}})
    elif kind == "max_plies":  # the turn limit's draw (#31): nobody drew it by playing
        g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], {"max_plies": 2},
                                   accounts={0: "Ana", 1: "Bob"})
        for seat, move in ((0, "a1-a3"), (1, "a7-a5")):
            runtime.service.command(g["id"], seat, move)
        gid = g["id"]
        assert runtime.games.load(gid).result["termination"] == "max_plies"
    else:
        g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], accounts={0: "Ana", 1: "Bob"})
        runtime.service.command(g["id"], 0, "abort")
        gid = g["id"]
    game = runtime.games.load(gid)
    assert rated(game) is False
    runtime.ratings.project(gid)
    stats = runtime.ratings.read()
    assert standing(runtime, "Ana") is None and stats["ratings"] == {}
    if kind != "aborted":
        assert stats["games"]["murus"]["finished"] == 1 and stats["games"]["murus"]["rated"] == 0


def test_one_pair_of_accounts_rates_only_a_few_games_a_day(runtime):
    account(runtime, "Ana"), account(runtime, "Bob")
    for _ in range(PAIR_CAP + 1):
        runtime.ratings.project(duel(runtime))
    assert standing(runtime, "Ana")["games"] == PAIR_CAP
    assert runtime.ratings.read()["games"]["murus"] == {**runtime.ratings.read()["games"]["murus"],
                                                         "finished": PAIR_CAP + 1, "rated": PAIR_CAP}


def test_guest_games_keep_their_statistics(runtime):
    gid = finish(runtime, [{"name": "Ana"}, {"name": "Ben"}])
    jobs.project(gid)
    murus = runtime.ratings.read()["games"]["murus"]
    assert murus["finished"] == 1 and murus["wins_by_seat"] == {"0": 1}
    assert murus["terminations"] == {"resigned": 1}


def test_three_accounts_at_squirrels_are_rated_by_openskill(runtime):
    for name in ("Ana", "Bob", "Cid"):
        account(runtime, name)
    gid = finish(runtime, [{"name": n} for n in ("Ana", "Bob", "Cid")], {0: "Ana", 1: "Bob", 2: "Cid"},
                 game="squirrels")
    game = runtime.games.load(gid)
    assert game.status != "finished"  # one resigned: two seats play on
    for seat in (2,):
        runtime.service.command(gid, seat, "resign")
    runtime.ratings.project(gid)
    ana, bob, cid = (standing(runtime, n, "squirrels") for n in ("Ana", "Bob", "Cid"))
    assert ana["rating"] > 1500 > bob["rating"] and ana["wins"] == 1 and bob["losses"] == cid["losses"] == 1


# -- order and rebuilds ---------------------------------------------------------------------------------------

def ratings_of(runtime, names):
    return {n: standing(runtime, n) for n in names}


def test_games_counted_out_of_order_rate_as_in_the_order_they_finished(runtime):
    names = ["Ana", "Bob", "Cid"]
    for name in names:
        account(runtime, name)
    gids = [duel(runtime, "Ana", "Bob"), duel(runtime, "Bob", "Cid"), duel(runtime, "Cid", "Ana", resigner=0),
            duel(runtime, "Ana", "Bob", resigner=0)]
    for gid in reversed(gids):  # the latest first: every game after it is redone as each earlier one comes
        runtime.ratings.project(gid)
    backwards = ratings_of(runtime, names)
    histories = {n: runtime.ratings.of_player(n)[1] for n in names}
    assert runtime.ratings.rebuild() == 4
    assert ratings_of(runtime, names) == backwards
    assert {n: runtime.ratings.of_player(n)[1] for n in names} == histories
    assert [len(histories[n]["murus"]) for n in names] == [3, 3, 2]


def test_rebuild_recounts_and_leaves_no_stale_ratings(runtime):
    account(runtime, "Ana"), account(runtime, "Bob")
    runtime.ratings.project(duel(runtime))
    runtime.redis.hset(runtime.store.keys.ratings("murus"), "ghost", b'{"username": "Ghost"}')
    assert runtime.ratings.rebuild() == 1
    assert runtime.redis.hget(runtime.store.keys.ratings("murus"), "ghost") is None
    assert standing(runtime, "Ana")["rating"] == 1662


def test_settled_ratings_are_ranked_first_and_provisional_ones_listed_below(runtime):
    account(runtime, "Ana"), account(runtime, "Bob"), account(runtime, "Cy")
    runtime.ratings.project(duel(runtime))
    board = runtime.ratings.leaderboard("murus")
    assert [(r["rank"], r["username"], r["rating"], r["provisional"]) for r in board] == \
        [(None, "Ana", 1662, True), (None, "Bob", 1338, True)]  # a new site's board is not empty
    assert runtime.ratings.leaderboard("murus", provisional=False) == []
    assert runtime.ratings.read()["ratings"] == {}  # the statistics rank the settled only
    settled = (b'{"username": "Cy", "rating": 1200, "rd": 80, "vol": 0.06, "games": 30, "wins": 20, "draws": 0, '
               b'"losses": 10, "at": 0, "gid": ""}')
    runtime.redis.hset(runtime.store.keys.ratings("murus"), "cy", settled)
    runtime.redis.zadd(runtime.store.keys.ranking("murus"), {"cy": 1200})
    board = runtime.ratings.leaderboard("murus")
    assert board[0] == {"rank": 1, "username": "Cy", "rating": 1200, "rd": 80, "provisional": False, "games": 30,
                        "wins": 20, "draws": 0, "losses": 10}  # settled, though below both provisional ratings
    assert [r["username"] for r in board[1:]] == ["Ana", "Bob"]


def test_a_rated_game_keeps_each_seats_rating_change(runtime):
    account(runtime, "Ana"), account(runtime, "Bob")
    first = duel(runtime)
    runtime.ratings.project(first)
    assert runtime.ratings.changes("murus", first) == [162, -162]
    second = duel(runtime, resigner=0)
    runtime.ratings.project(second)
    ana, bob = standing(runtime, "Ana")["rating"], standing(runtime, "Bob")["rating"]
    assert runtime.ratings.changes("murus", second) == [ana - 1662, bob - 1338]
    assert runtime.ratings.changes("murus", "nosuchgame") is None
    guest = finish(runtime, [{"name": "Ana"}, {"name": "Guest"}], {0: "Ana"})
    runtime.ratings.project(guest)
    assert runtime.ratings.changes("murus", guest) is None


def test_an_account_seat_shows_its_rating_as_the_game_started(runtime):
    account(runtime, "Ana"), account(runtime, "Bob")
    runtime.ratings.project(duel(runtime))
    later = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}, ], accounts={0: "Ana", 1: "Bob"})
    game = runtime.games.load(later["id"])
    assert game.ratings == [{"rating": 1662, "rd": 290, "provisional": True},
                            {"rating": 1338, "rd": 290, "provisional": True}]
    runtime.ratings.project(duel(runtime, resigner=0))  # ratings move on; the game keeps those it started with
    assert runtime.games.load(later["id"]).ratings[0]["rating"] == 1662
    newcomer = runtime.service.create("murus", [{"name": "Cy"}, {"name": "Guest"}], accounts={0: "Cy"})
    assert runtime.games.load(newcomer["id"]).ratings == [{"rating": 1500, "rd": 350, "provisional": True}, None]
