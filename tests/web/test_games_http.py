"""Every game played to its end through HTTP by its seats, with the hidden parts checked on the way."""

from __future__ import annotations

import json
import random

import pytest

from domain.base import commands

GAMES = [
    ("murus", 2, {"max_plies": 80}),
    ("murus", 2, {"variant": "advanced", "max_plies": 80}),
    ("mouseguard", 2, {"max_plies": 40}),
    ("squirrels", 3, {}),
    ("commando", 4, {"max_plies": 60}),
]


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("game, seats, options", GAMES, ids=[f"{g}-{n}" for g, n, _ in GAMES])
def test_random_game_to_the_end_through_http(client, runtime, game, seats, options):
    rng = random.Random(5)
    r = client.post("/api/games", json={"game": game, "players": [{"name": f"P{i}"} for i in range(seats)],
                                        "options": options, "seed": 5})
    assert r.status_code == 201, r.json
    gid = r.json["id"]
    tokens = {s["seat"]: s["token"] for s in r.json["seats"]}
    for _ in range(3000):
        spectator = client.get(f"/api/games/{gid}").json
        if spectator["status"] == "finished":
            break
        assert spectator["legal"] == [] and spectator["you"] is None
        seat = rng.choice(spectator["to_act"])
        doc = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json
        assert doc["you"] == seat and doc["legal"]
        move = rng.choice(commands(doc["legal"]))  # a range (commit 0..N): one of its commands
        answer = client.post(f"/api/games/{gid}/commands", headers=auth(tokens[seat]),
                             json={"move": move, "expected_version": doc["version"],
                                   "command_id": f"{seat}-{doc['version']}"})
        assert answer.status_code == 200, (move, answer.json)
        assert answer.json["version"] > doc["version"]
    else:
        pytest.fail("the game did not end")
    final = client.get(f"/api/games/{gid}").json
    assert final["result"]["reason"] and final["to_act"] == []
    assert runtime.store.version(gid) == final["version"]
    feed = client.get(f"/api/games/{gid}/events").json["events"]
    assert [e["version"] for e in feed] == list(range(1, final["version"] + 1))


def test_mouseguard_hands_stay_private_through_http(client):
    r = client.post("/api/games", json={"game": "mouseguard", "players": [{"name": "A"}, {"name": "B"}],
                                        "seed": 9})
    gid, tokens = r.json["id"], {s["seat"]: s["token"] for s in r.json["seats"]}
    for seat in (0, 1):
        doc = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json
        client.post(f"/api/games/{gid}/commands", headers=auth(tokens[seat]), json={"move": doc["legal"][0]})
    mine = client.get(f"/api/games/{gid}", headers=auth(tokens[0])).json["state"]
    theirs = client.get(f"/api/games/{gid}", headers=auth(tokens[1])).json["state"]
    spectator = client.get(f"/api/games/{gid}").json["state"]
    assert len(mine["hand"]) == 3 and len(theirs["hand"]) == 3
    assert "hand" not in spectator or not spectator["hand"]
    for seat, _other in ((0, theirs), (1, mine)):
        feed = client.get(f"/api/games/{gid}/events", headers=auth(tokens[seat])).json["events"]
        drawn_by_other = [e for e in feed if e["type"] == "card_drawn" and e["data"]["seat"] != seat]
        assert drawn_by_other and all(e["data"]["card"] is None for e in drawn_by_other)
        shuffles = [e for e in feed if e["type"] == "deck_shuffled"]
        assert shuffles and all(e["data"]["order"] is None for e in shuffles)
    public = json.dumps(client.get(f"/api/games/{gid}/events").json)
    assert '"card": "sword"' not in public and '"card": "diplomacy"' not in public
