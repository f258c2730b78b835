"""The paged lobby (docs/api.md): newest first, cursor pages, per status; a page costs the same with more games."""

from __future__ import annotations

import threading

import pytest

PLAYERS = [{"name": "Ana"}, {"name": "Ben"}]


def games(runtime, n: int) -> list[str]:
    gids = []
    for _ in range(n):
        gid = runtime.service.create("murus", PLAYERS)["id"]
        runtime.projector.project_lobby(gid)
        gids.append(gid)
    return gids


def all_pages(client, query: str) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        r = client.get(f"/api/games?{query}" + (f"&cursor={cursor}" if cursor else ""))
        assert r.status_code == 200
        pages.append([g["id"] for g in r.json["games"]])
        cursor = r.json["next"]
        if cursor is None:
            return pages


def test_pages_cover_every_game_once_newest_first(runtime, client):
    gids = games(runtime, 7)
    pages = all_pages(client, "limit=3")
    assert [len(p) for p in pages] == [3, 3, 1]
    seen = [gid for page in pages for gid in page]
    assert sorted(seen) == sorted(gids)
    updated = [line["updated"] for line in runtime.projector.lobby()]
    assert updated == sorted(updated, reverse=True)


def test_status_pages_follow_the_game(runtime, client):
    gid = games(runtime, 2)[0]
    game = runtime.games.load(gid)
    runtime.service.command(gid, 0, game.legal(0)[0])
    runtime.projector.project_lobby(gid)
    playing = [g for page in all_pages(client, "status=playing") for g in page]
    assert gid in playing
    runtime.service.command(gid, 1, "resign")
    runtime.projector.project_lobby(gid)
    assert gid not in [g for page in all_pages(client, "status=playing") for g in page]
    assert [g for page in all_pages(client, "status=finished") for g in page] == [gid]


@pytest.mark.parametrize("query", ["limit=0", "limit=201", "limit=x", "cursor=nonsense", "status=bogus"])
def test_bad_paging_arguments_are_400s(client, query):
    r = client.get(f"/api/games?{query}")
    assert r.status_code == 400 and r.json["error"]["message"].split(":")[0] in query


def test_a_page_costs_the_same_redis_commands_with_more_games(runtime, client):
    calls = []
    execute = runtime.redis.execute_command
    me = threading.get_ident()

    def counting(*args, **kwargs):
        if threading.get_ident() == me:  # the request's own (the test client answers in this thread), not a
            calls.append(args[0])  # background thread's, such as the command path's pokes sent 20 ms after
        return execute(*args, **kwargs)

    counts = []
    for n in (5, 40):
        games(runtime, n - (counts and 5 or 0))
        runtime.redis.execute_command = counting
        calls.clear()
        assert len(client.get("/api/games?limit=3").json["games"]) == 3
        client.get("/api/stats")
        counts.append(len(calls))
        runtime.redis.execute_command = execute
    assert counts[0] == counts[1] > 0
