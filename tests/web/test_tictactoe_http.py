"""The shape proved through HTTP: tic-tac-toe, a game that lives only in the tests (``tests/games/tictactoe``),
registered by the ``tictactoe`` fixture alone, is created, played to its end, listed and described by the API
with no change anywhere else."""

from __future__ import annotations

import pytest

from tests.conftest import run_jobs


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def api(tictactoe, client):
    return client


def test_tictactoe_is_in_the_catalog_only_while_registered(api):
    names = [game["name"] for game in api.get("/api/catalog").json["games"]]
    assert names[-1] == "tictactoe" and "murus" in names


def test_tictactoe_played_to_a_win_through_http(api, runtime):
    created = api.post("/api/games", json={"game": "tictactoe", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    assert created.status_code == 201, created.json
    gid = created.json["id"]
    tokens = {s["seat"]: s["token"] for s in created.json["seats"]}
    refused = api.post(f"/api/games/{gid}/commands", headers=auth(tokens[1]), json={"move": "a1"})
    assert refused.status_code == 403
    bad = api.post(f"/api/games/{gid}/commands", headers=auth(tokens[0]), json={"move": "d4"})
    assert bad.status_code == 400 and "not a cell" in bad.json["error"]["message"]
    for seat, move in [(0, "a1"), (1, "a2"), (0, "b1"), (1, "b2"), (0, "c1")]:
        doc = api.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json
        assert doc["you"] == seat and move in doc["legal"]
        if move == "a2":
            taken = api.post(f"/api/games/{gid}/commands", headers=auth(tokens[seat]), json={"move": "a1"})
            assert taken.status_code == 422 and "already marked" in taken.json["error"]["message"]
        answer = api.post(f"/api/games/{gid}/commands", headers=auth(tokens[seat]),
                          json={"move": move, "expected_version": doc["version"]})
        assert answer.status_code == 200, answer.json
    final = api.get(f"/api/games/{gid}").json
    assert final["status"] == "finished" and final["to_act"] == []
    said = final["result"].pop("say")  # the reason as its message id, said in the reader's language (#30)
    assert final["result"] == {"winners": [0], "reason": "X has three in a row", "termination": "rules"}
    assert said == {"id": "{text}", "args": {"text": "X has three in a row"}}
    feed = api.get(f"/api/games/{gid}/events").json["events"]
    assert [e["text"] for e in feed][1:3] == ["X: a1", "O: a2"] and feed[-1]["type"] == "game_ended"
    run_jobs(runtime)
    lobby = api.get("/api/games?status=finished").json
    assert gid in str(lobby)


def test_tictactoe_against_its_registered_ai_and_its_page(api, runtime):
    """The AI its registration names plays its seat through the queues; its page draws the generic board (its
    registration names no board script)."""
    position = {"turn": 0, "cells": {"a1": "X", "a2": "O"}}
    created = api.post("/api/games", json={"game": "tictactoe", "position": position,
                                           "players": [{"name": "Ana"}, {"name": "Bot", "ai": "easy"}]})
    assert created.status_code == 201, created.json
    gid, token = created.json["id"], created.json["seats"][0]["token"]
    for move in ("b1", "b2"):  # each makes a line of two: the AI blocks it
        assert api.post(f"/api/games/{gid}/commands", headers=auth(token), json={"move": move}).status_code == 200
        run_jobs(runtime)  # the AI's turn
        after = api.get(f"/api/games/{gid}").json
        assert after["status"] == "playing" and after["to_act"] == [0], after
    feed = [e["text"] for e in api.get(f"/api/games/{gid}/events").json["events"]]
    assert [t for t in feed if t.startswith("O: ")] == ["O: c1", "O: b3"], feed
    page = api.get(f"/games/{gid}")
    assert page.status_code == 200 and "Tic-tac-toe" in page.text
    assert 'id="board-module"' not in page.text  # no board script: the generic board
