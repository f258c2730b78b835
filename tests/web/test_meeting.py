"""Meeting people through the API, signed in (docs/api.md "Meeting people"): quick pairing, challenges, the
spectators' chat room, and an account's notification stream through the front. fakeredis and a real Redis."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from services.people.person import Person
from tests.web.signin import make_account, signed_in
from tests.web.site import Site
from web.app import create_app
from web.session import COOKIE


@pytest.fixture
def app(runtime):
    return create_app(runtime)


def test_two_seeks_pair_into_a_game_of_their_accounts(app, runtime):
    ann, ben = (signed_in(app, runtime, n) for n in ("Ann", "Ben"))
    waiting = ann.post("/api/seeks", json={"game": "murus", "clock": {"initial": 300, "increment": 3}})
    assert waiting.status_code == 201 and waiting.json["status"] == "waiting"
    assert [s["username"] for s in ann.get("/api/seeks?game=murus").json["seeks"]] == ["Ann"]
    paired = ben.post("/api/seeks", json={"game": "murus", "clock": {"initial": 300, "increment": 3}})
    assert paired.status_code == 201 and paired.json["status"] == "paired"
    gid = paired.json["game"]
    mine = {c: {g["id"]: g for g in c.get("/api/me/games").json["games"]} for c in (ann, ben)}
    assert all(gid in games and games[gid]["token"] for games in mine.values())  # each seat on any device
    doc = ann.get(f"/api/games/{gid}").json
    assert sorted(p["account"] for p in doc["players"]) == ["Ann", "Ben"] and doc["clock"] is not None
    assert ann.get("/api/seeks").json["seeks"] == []


def test_six_racing_seeks_make_three_games(app, runtime):
    clients = [signed_in(app, runtime, f"Player{i}") for i in range(6)]
    barrier, answers = threading.Barrier(6), []

    def go(client):
        barrier.wait()
        answers.append(client.post("/api/seeks", json={"game": "murus"}).json)

    threads = [threading.Thread(target=go, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    games = {a["game"] for a in answers if a.get("status") == "paired"}
    assert len(games) == 3
    seated = sorted(p["account"] for gid in games for p in clients[0].get(f"/api/games/{gid}").json["players"])
    assert seated == sorted(f"Player{i}" for i in range(6))


@pytest.mark.parametrize("body, status, field", [
    ({"game": "chess"}, 422, "game"),
    ({"game": "murus", "seats": 3}, 422, "seats"),
    ({"game": "murus", "clock": {"initial": -1}}, 422, "clock.initial"),
    ({"game": "murus", "options": {"variant": "x"}}, 422, "options.variant"),
    ({"game": "murus", "rating_range": [2000, 1000]}, 422, "rating_range"),
    ({"game": "murus", "colour": "white"}, 400, "colour"),
])
def test_bad_seeks_name_the_field(app, runtime, body, status, field):
    r = signed_in(app, runtime, "Ann").post("/api/seeks", json=body)
    assert r.status_code == status and r.json["error"].get("field") == field, r.json


def test_seeking_needs_an_account_and_three_seeks_at_most(app, runtime):
    assert app.test_client().post("/api/seeks", json={"game": "murus"}).status_code == 401
    ann = signed_in(app, runtime, "Ann")
    assert [ann.post("/api/seeks", json={"game": g}).status_code
            for g in ("murus", "mouseguard", "squirrels", "commando")] == [201, 201, 201, 429]
    seek = ann.get("/api/seeks?game=murus").json["seeks"][0]
    assert ann.delete(f"/api/seeks/{seek['id']}").status_code == 204
    assert ann.delete(f"/api/seeks/{seek['id']}").status_code == 404


def test_a_challenge_is_accepted_and_a_decline_is_told(app, runtime):
    ann, ben = (signed_in(app, runtime, n) for n in ("Ann", "Ben"))
    made = ann.post("/api/challenges", json={"to": "ben", "game": "murus"})
    assert made.status_code == 201
    assert ben.get("/api/challenges").json["incoming"][0]["from"] == "Ann"
    assert ann.post(f"/api/challenges/{made.json['id']}/accept").status_code == 404  # not hers
    accepted = ben.post(f"/api/challenges/{made.json['id']}/accept")
    assert accepted.status_code == 201
    players = ann.get(f"/api/games/{accepted.json['game']}").json["players"]
    assert sorted(p["account"] for p in players) == ["Ann", "Ben"]
    again = ann.post("/api/challenges", json={"to": "Ben", "game": "murus"}).json["id"]
    assert ben.post(f"/api/challenges/{again}/decline").status_code == 204
    told = runtime.people.notifications.since("ann", "0-0")[-1].data  # the decline reaches the challenger
    assert told == {"type": "challenge_declined", "id": again, "by": "Ben"}
    assert ann.post("/api/challenges", json={"to": "nobody", "game": "murus"}).status_code == 404


def test_the_spectators_room_is_for_signed_in_players(app, runtime, client):
    g = client.post("/api/games", json={"game": "murus", "players": [{"name": "X"}, {"name": "Y"}]}).json
    url = f"/api/games/{g['id']}/chat"
    ann = signed_in(app, runtime, "Ann")
    assert ann.post(url, json={"text": "nice move", "room": "spectators"}).status_code == 201
    assert client.get(f"{url}?room=spectators").status_code == 401
    assert [m["from"] for m in ann.get(f"{url}?room=spectators").json["messages"]] == ["Ann"]
    assert ann.get(f"{url}?room=players").status_code == 401  # not a seat of this game


def test_an_accounts_stream_through_the_front_gets_its_challenge(runtime):
    site = Site(runtime, stream_seconds=1.0)
    try:
        assert site.get("/api/me/stream").status_code == 401
        session_id = runtime.accounts.open_session(make_account(runtime, "Ben"), "pytest")
        make_account(runtime, "Ann")
        sent = []

        async def main():
            stream = site.open_stream("/api/me/stream", headers={"cookie": f"{COOKIE}={session_id}"},
                                      address="10.1.1.1")
            for _ in range(200):
                if site.front.state.hub.open_streams():
                    break
                await asyncio.sleep(0.02)
            await asyncio.to_thread(runtime.people.challenges.create, Person.of_account("Ann"), "Ben", "murus",
                                    {}, None)
            for _ in range(500):
                if b"challenge" in stream.body():
                    break
                await asyncio.sleep(0.02)
            await stream.hang_up()
            sent.extend(stream.sent)

        asyncio.run(main())
        assert sent[0]["status"] == 200
        text = b"".join(m.get("body", b"") for m in sent).decode()
        block = next(b for b in text.split("\n\n") if "event: notification" in b)
        data = json.loads(block.split("data: ", 1)[1])
        assert data["type"] == "challenge" and data["from"] == "Ann" and "id: " in block
    finally:
        site.close()
