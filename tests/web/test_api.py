"""The HTTP API of docs/api.md, end to end through Flask, on fakeredis and a real Redis."""

from __future__ import annotations

import random

import pytest

from domain.base import commands
from tests.conftest import run_jobs


def create(client, game="murus", players=None, **extra):
    players = players or [{"name": "Ana"}, {"name": "Bob"}]
    r = client.post("/api/games", json={"game": game, "players": players, **extra})
    assert r.status_code == 201, r.json
    return r.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def stream_len(runtime, gid):
    return runtime.store.version(gid)


def test_health(client):
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json["ok"] is True and r.json["redis"] in ("embedded",) or r.json["redis"].startswith("redis://")


def test_create_returns_tokens_for_humans_only(client):
    g = create(client, players=[{"name": "Ana"}, {"name": "Bot", "ai": "easy"}])
    assert g["version"] >= 1
    assert set(g["seats"][0]) == {"seat", "name", "token"}
    assert g["seats"][1] == {"seat": 1, "name": "Bot", "ai": "easy"}


@pytest.mark.parametrize("body, status, field", [
    ({"game": "chess", "players": [{"name": "a"}, {"name": "b"}]}, 422, "game"),
    ({"game": "murus", "players": [{"name": "a"}]}, 422, "players"),
    ({"game": "murus", "players": [{"name": "a"}, {"name": ""}]}, 422, "players[1].name"),
    ({"game": "murus", "players": [{"name": "a"}, {"name": "b", "ai": "godlike"}]}, 400, "players[1].ai"),
    ({"game": "murus", "players": [{"name": "a"}, {"name": "b"}], "options": {"variant": "x"}}, 422, "variant"),
    ({"game": "murus", "players": [{"name": "a"}, {"name": "b"}], "options": {"colour": 1}}, 422, "colour"),
    ({"game": "murus", "players": [{"name": "a"}, {"name": "b"}], "position": {"cells": {"d4": "RRRR"}}},
     422, "position"),
    ({"players": []}, 400, "game"),
])
def test_bad_create_names_the_field(client, body, status, field):
    r = client.post("/api/games", json=body)
    assert r.status_code == status, r.json
    assert field in r.json["error"]["message"]


def test_malformed_body_is_400(client):
    r = client.post("/api/games", data="{not json", content_type="application/json")
    assert r.status_code == 400 and "JSON" in r.json["error"]["message"]


def test_every_command_error_of_the_contract_appends_nothing(client, runtime):
    g = create(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    before = stream_len(runtime, gid)
    cases = [
        ({"data": "nope", "content_type": "application/json", "headers": auth(t0)}, 400, "bad_request"),
        ({"json": {"move": 3}, "headers": auth(t0)}, 400, "bad_request"),
        ({"json": {"move": "a1-a3"}}, 401, "unauthorized"),
        ({"json": {"move": "a1-a3"}, "headers": auth("forged")}, 401, "unauthorized"),
        ({"json": {"move": "a7-a5"}, "headers": auth(t1)}, 403, "not_your_turn"),
        ({"json": {"move": "hello"}, "headers": auth(t0)}, 400, "bad_notation"),
        ({"json": {"move": "a1-a2"}, "headers": auth(t0)}, 422, "illegal_move"),
        ({"json": {"move": "a1-a3", "expected_version": before + 5}, "headers": auth(t0)}, 409, "conflict"),
    ]
    for kwargs, status, code in cases:
        r = client.post(f"/api/games/{gid}/commands", **kwargs)
        assert r.status_code == status, (kwargs, r.json)
        assert r.json["error"]["code"] == code
        assert r.json["error"]["message"]
        assert stream_len(runtime, gid) == before
    r = client.post("/api/games/nosuchgame/commands", json={"move": "a1-a3"}, headers=auth(t0))
    assert r.status_code == 404


def test_conflict_body_gives_current_version(client):
    g = create(client)
    r = client.post(f"/api/games/{g['id']}/commands", json={"move": "a1-a3", "expected_version": 0},
                    headers=auth(g["seats"][0]["token"]))
    assert r.status_code == 409 and r.json["error"]["version"] == g["version"]


def test_stale_version_is_judged_before_turn(client):
    g = create(client)
    r = client.post(f"/api/games/{g['id']}/commands", json={"move": "zzz", "expected_version": 0},
                    headers=auth(g["seats"][1]["token"]))
    assert r.status_code == 409


def test_retried_command_id_applies_once(client, runtime):
    g = create(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    body = {"move": "a1-a3", "command_id": "c-1"}
    first = client.post(f"/api/games/{gid}/commands", json=body, headers=auth(t0))
    again = client.post(f"/api/games/{gid}/commands", json=body, headers=auth(t0))
    assert first.status_code == again.status_code == 200
    assert first.json == again.json
    assert stream_len(runtime, gid) == g["version"] + 1


def test_token_of_one_game_is_useless_in_another(client):
    a, b = create(client), create(client)
    r = client.post(f"/api/games/{b['id']}/commands", json={"move": "a1-a3"}, headers=auth(a["seats"][0]["token"]))
    assert r.status_code == 401


def test_views_time_travel_and_min_version(client, runtime):
    g = create(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers=auth(t0))
    v = r.json["version"]
    doc = client.get(f"/api/games/{gid}?min_version={v}", headers=auth(t0)).json
    assert doc["version"] == v and doc["you"] == 0 and doc["to_act"] == [1] and doc["legal"] == []
    assert doc["status"] == "playing" and doc["result"] is None
    spectator = client.get(f"/api/games/{gid}?min_version={v}").json
    assert spectator["you"] is None and spectator["legal"] == []
    old = client.get(f"/api/games/{gid}?version=1").json
    assert old["version"] == 1 and old["state"]["cells"]["a1"] == "RR"
    assert client.get(f"/api/games/{gid}?version=999").status_code == 404
    assert client.get(f"/api/games/{gid}?version=abc").status_code == 400
    assert client.get("/api/games/nope").status_code == 404


def test_projection_serves_reads_after_jobs_run(client, runtime):
    g = create(client)
    run_jobs(runtime)
    assert runtime.projector.checkpoint(g["id"]) == g["version"]
    lobby = client.get("/api/games").json["games"]
    assert [e["id"] for e in lobby] == [g["id"]]
    assert client.get("/api/games?status=finished").json == {"games": [], "next": None}


def test_events_feed_shape(client):
    g = create(client)
    client.post(f"/api/games/{g['id']}/commands", json={"move": "a1-a3"}, headers=auth(g["seats"][0]["token"]))
    events = client.get(f"/api/games/{g['id']}/events").json["events"]
    assert [e["type"] for e in events][:1] == ["game_created"]
    assert all({"version", "type", "data", "at", "text"} <= set(e) for e in events)
    after = client.get(f"/api/games/{g['id']}/events?after=1").json["events"]
    assert [e["version"] for e in after] == [2]


def test_full_random_games_through_http(client, runtime):
    rng = random.Random(7)
    for game_no in range(2):
        g = create(client, options={"max_plies": 60} if game_no else {})
        gid = g["id"]
        tokens = {s["seat"]: s["token"] for s in g["seats"]}
        for _ in range(400):
            doc = client.get(f"/api/games/{gid}?min_version=0", headers=auth(tokens[0])).json
            if doc["status"] == "finished":
                break
            seat = doc["to_act"][0]
            mine = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json
            r = client.post(f"/api/games/{gid}/commands", headers=auth(tokens[seat]),
                            json={"move": rng.choice(commands(mine["legal"])),
                                  "expected_version": mine["version"]})
            assert r.status_code == 200, r.json
        doc = client.get(f"/api/games/{gid}").json
        assert doc["status"] == "finished" and doc["result"]["reason"]
        r = client.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers=auth(tokens[0]))
        assert r.status_code == 403 and "over" in r.json["error"]["message"]


def test_sse_stream_ids_are_versions(client, runtime):
    from tests.web.site import Site

    g = create(client)
    client.post(f"/api/games/{g['id']}/commands", json={"move": "a1-a3"}, headers=auth(g["seats"][0]["token"]))
    site = Site(runtime)
    try:
        r = site.get(f"/api/games/{g['id']}/stream", headers={"Last-Event-ID": "1"})
    finally:
        site.close()
    assert r.mimetype == "text/event-stream"
    text = r.get_data(as_text=True)
    assert "id: 2\n" in text and "id: 1\n" not in text
