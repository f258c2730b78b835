"""What a game's new events tell its players' accounts (services/people/game_notices.py), and the dispatcher
sending them once, for entries it reads the first time."""

from __future__ import annotations

from dataclasses import replace

from services.people.game_notices import notices
from workers.dispatcher import Dispatcher

PLAYERS = [{"name": "Ann"}, {"name": "Ben"}]


def with_accounts(game, names=("Ann", "Ben")):
    players = [{**p, "account": n} for p, n in zip(game.meta["players"], names)]
    return replace(game, meta={**game.meta, "players": players})


def test_your_turn_draws_and_the_end_are_told_to_the_accounts(runtime):
    gid = runtime.service.create("murus", PLAYERS)["id"]
    runtime.service.command(gid, 0, "a1-a3")
    game = with_accounts(runtime.games.load(gid))
    assert notices(game, [(game.version, "moved")], lambda v: None) == [
        ("ben", "your_turn", {"game": gid, "version": game.version})]
    runtime.service.command(gid, 1, "offer draw")
    game = with_accounts(runtime.games.load(gid))
    told = notices(game, [(game.version, "draw_offered")], lambda v: None)
    assert ("ann", "draw_offered", {"game": gid, "by": 1}) in told
    runtime.service.command(gid, 0, "decline draw")
    game = with_accounts(runtime.games.load(gid))
    assert ("ben", "draw_declined", {"game": gid, "by": 0}) in notices(game, [(game.version, "draw_declined")],
                                                                       lambda v: 0)
    runtime.service.command(gid, 0, "resign")
    game = with_accounts(runtime.games.load(gid))
    over = notices(game, [(game.version, "resigned")], lambda v: None)
    assert {(a, k) for a, k, _ in over} == {("ann", "game_over"), ("ben", "game_over")}
    assert over[0][2]["result"]["winners"] == [1]


def test_guests_are_told_nothing(runtime):
    gid = runtime.service.create("murus", PLAYERS)["id"]
    game = runtime.games.load(gid)
    assert notices(game, [(game.version, "game_created")], lambda v: None) == []


def test_the_dispatcher_tells_the_accounts_once(runtime, monkeypatch):
    gid = runtime.service.create("murus", PLAYERS)["id"]
    real_load = runtime.games.load
    monkeypatch.setattr(runtime.games, "load", lambda g: with_accounts(real_load(g)))
    dispatcher = Dispatcher(runtime, consumer="tests", claim_idle_ms=0)
    dispatcher.run_once(block_ms=1)
    runtime.service.command(gid, 0, "a1-a3")
    dispatcher.run_once(block_ms=1)
    dispatcher.run_once(block_ms=1)  # the same entries claimed and looked at again: not told twice
    told = [n.data for n in runtime.people.notifications.since("ben", "0-0")]
    assert [n["type"] for n in told].count("your_turn") == 1 and told[-1]["game"] == gid


def test_a_rematch_request_is_told_to_the_other_seat_with_who_asked(runtime):
    """docs/api.md "The first ten minutes": a rematch reaches the other seats' streams as ``rematch_offered``."""
    from services.games.tables import Tables

    gid = runtime.service.create("murus", PLAYERS)["id"]
    runtime.service.command(gid, 0, "resign")
    new = Tables(runtime.service).rematch(gid, 1)["id"]
    game = with_accounts(runtime.games.load(gid))
    told = notices(game, [(game.version, "rematched")], lambda v: 1)
    assert told == [("ann", "rematch_offered", {"game": gid, "rematch": new, "by": "Ben"})]
