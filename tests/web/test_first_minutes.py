"""The first ten minutes through the API (docs/api.md "The first ten minutes"): a signed-in player's seat in
any game,
challenges both ways and invites, guests' sessions and seeks, ratings in documents and results, the leaderboard's
provisional players, clocks that start with the play, and the away line. fakeredis and a real Redis."""

from __future__ import annotations

import pytest

from tests.conftest import run_jobs
from tests.web.signin import signed_in
from web.app import create_app


@pytest.fixture
def app(runtime):
    return create_app(runtime)


def test_my_seat_in_a_game_comes_with_its_token_on_any_device(app, runtime):
    ana = signed_in(app, runtime, "Ana")
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}]}).json
    ben = signed_in(app, runtime, "Ben")
    assert ben.post(f"/api/games/{g['id']}/seats/1", json={}).status_code == 200
    phone = signed_in(app, runtime, "Ben")  # a fresh device: no lobby ran, no token kept in the browser
    mine = phone.get(f"/api/me/games/{g['id']}")
    assert mine.status_code == 200
    assert {k: mine.json[k] for k in ("id", "game", "seat", "status")} == \
        {"id": g["id"], "game": "murus", "seat": 1, "status": "playing"}
    doc = phone.get(f"/api/games/{g['id']}", headers={"Authorization": f"Bearer {mine.json['token']}"}).json
    assert doc["you"] == 1


def test_my_seat_is_404_where_i_hold_none_and_401_for_nobody(app, runtime):
    ana = signed_in(app, runtime, "Ana")
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"name": "Guest"}]}).json
    cara = signed_in(app, runtime, "Cara")
    r = cara.get(f"/api/me/games/{g['id']}")
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    assert cara.get("/api/me/games/nosuchgame").status_code == 404
    assert cara.get(f"/api/me/games/{'x' * 500}").status_code == 404
    assert app.test_client().get(f"/api/me/games/{g['id']}").status_code == 401


# -- guests, seeks and challenges -------------------------------------------------------------------------------

def test_a_guest_quick_pairs_under_a_name_and_finds_its_seat_in_that_browser(app, runtime):
    ana = signed_in(app, runtime, "Ana")
    assert ana.post("/api/seeks", json={"game": "murus", "rated": False}).json["status"] == "waiting"
    guest = app.test_client()
    r = guest.post("/api/seeks", json={"game": "murus", "name": "Zoe"})
    assert r.status_code == 201 and r.json["status"] == "paired" and r.json["name"] == "Zoe"
    assert any(h.startswith("burrow_session=") and "HttpOnly" in h for h in r.headers.getlist("Set-Cookie"))
    gid = r.json["game"]
    [mine] = guest.get("/api/me/games").json["games"]
    assert mine["id"] == gid and mine["token"]
    seat = guest.get(f"/api/me/games/{gid}").json
    assert seat["seat"] == mine["seat"] and seat["token"] == mine["token"]
    doc = guest.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {seat['token']}"}).json
    assert doc["you"] == seat["seat"] and doc["players"][seat["seat"]] == {
        "seat": seat["seat"], "name": "Zoe", "account": None, "rating": None}
    assert guest.get("/api/me").status_code == 401  # a guest is no account
    assert app.test_client().get("/api/me/games").status_code == 401  # another browser: no session


def test_a_guests_seek_pairs_only_with_unrated_ones_and_takes_no_accounts_name(app, runtime):
    signed_in(app, runtime, "Ana").post("/api/seeks", json={"game": "murus"})  # rated
    guest = app.test_client()
    assert guest.post("/api/seeks", json={"game": "murus", "name": "Zoe"}).json["status"] == "waiting"
    shown = guest.get("/api/seeks").json["seeks"]
    assert {s["username"]: s["rated"] for s in shown} == {"Ana": True, "Zoe": False}
    r = app.test_client().post("/api/seeks", json={"game": "murus", "name": "ana"})
    assert r.status_code == 422 and r.json["error"]["code"] == "name_reserved"
    assert app.test_client().post("/api/seeks", json={"game": "murus"}).status_code == 401  # no name, no session
    r = guest.post("/api/seeks", json={"game": "murus", "rated": "yes"})
    assert r.status_code == 422 and r.json["error"]["field"] == "rated"


def test_a_challenge_is_pending_for_its_challenger_until_cancelled(app, runtime):
    ana, ben = signed_in(app, runtime, "Ana"), signed_in(app, runtime, "Ben")
    made = ana.post("/api/challenges", json={"to": "ben", "game": "murus", "side": 0,
                                             "clock": {"initial": 300, "increment": 3}})
    assert made.status_code == 201
    [pending] = ana.get("/api/challenges").json["outgoing"]
    assert (pending["to"], pending["side"], pending["clock"]) == ("Ben", 0, {"initial": 300, "increment": 3})
    assert ben.get(f"/api/challenges/{made.json['id']}").json["from"] == "Ana"
    assert ben.delete(f"/api/challenges/{made.json['id']}").status_code == 404  # only its challenger cancels
    assert ana.delete(f"/api/challenges/{made.json['id']}").status_code == 204
    assert ben.get("/api/challenges").json == {"incoming": [], "outgoing": []}
    assert runtime.people.notifications.since("ben", "0-0")[-1].data == {"type": "challenge_cancelled",
                                                                         "id": made.json["id"]}


def test_an_invite_link_seats_a_guest_who_gives_a_name(app, runtime):
    ana = signed_in(app, runtime, "Ana")
    made = ana.post("/api/challenges", json={"game": "murus", "side": 1}).json
    assert made["url"] == f"/challenge/{made['id']}"
    friend = app.test_client()
    assert friend.get(f"/api/challenges/{made['id']}").json["from"] == "Ana"  # anyone sees an invite
    r = friend.post(f"/api/challenges/{made['id']}/accept", json={})
    assert r.status_code == 401 and r.json["error"]["field"] == "name"
    r = friend.post(f"/api/challenges/{made['id']}/accept", json={"name": "Zoe"})
    assert r.status_code == 201
    gid = r.json["game"]
    assert friend.get(f"/api/me/games/{gid}").json["seat"] == 0
    assert ana.get(f"/api/me/games/{gid}").json["seat"] == 1
    told = runtime.people.notifications.since("ana", "0-0")[-1].data
    assert told == {"type": "challenge_accepted", "id": made["id"], "game": gid, "by": "Zoe"}
    assert app.test_client().post(f"/api/challenges/{made['id']}/accept", json={"name": "Max"}).status_code == 404


# -- clocks start with the play -----------------------------------------------------------------------------

def test_a_clock_stands_still_until_first_moves_and_a_missed_first_move_aborts_unrated(app, runtime, monkeypatch):
    import services.games.round
    from tests.web.test_tables import Later

    ana, ben = signed_in(app, runtime, "Ana"), signed_in(app, runtime, "Ben")
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}],
                                     "clock": {"initial": 60, "increment": 0}}).json
    token = ben.post(f"/api/games/{g['id']}/seats/1", json={}).json["token"]
    r = ana.post(f"/api/games/{g['id']}/commands", headers={"Authorization": f"Bearer {g['seats'][0]['token']}"},
                 json={"move": "a1-a3"})
    assert r.status_code == 200
    clock = ana.get(f"/api/games/{g['id']}?min_version={r.json['version']}").json["clock"]
    assert clock["running"] == [] and clock["remaining"] == [60, 60] and clock["first_move_by"]
    monkeypatch.setattr(services.games.round, "time", Later(31))  # Ben's 30 s for a first move are up
    late = ben.post(f"/api/games/{g['id']}/commands", headers={"Authorization": f"Bearer {token}"},
                    json={"move": "a7-a5"})
    assert late.status_code == 403
    result = ana.get(f"/api/games/{g['id']}?min_version=100000").json["result"]
    assert result["termination"] == "aborted" and result["winners"] == []
    assert "Ben did not make a first move in time" in result["reason"] and "rating_changes" not in result
    run_jobs(runtime)
    assert runtime.ratings.of_player("Ana")[0] == {}  # unrated


def test_an_opponent_away_on_their_turn_is_said_with_the_time_of_the_claim(app, runtime):
    from datetime import datetime

    client = app.test_client()
    g = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                        "clock": {"initial": 600, "increment": 0}}).json
    ana, ben = ({"Authorization": f"Bearer {s['token']}"} for s in g["seats"])
    for headers, move in ((ana, "a1-a3"), (ben, "a7-a5")):
        r = client.post(f"/api/games/{g['id']}/commands", headers=headers, json={"move": move})
        assert r.status_code == 200
    legal = client.get(f"/api/games/{g['id']}?min_version=3", headers=ana).json["legal"][0]
    moved = client.post(f"/api/games/{g['id']}/commands", headers=ana, json={"move": legal}).json
    doc = client.get(f"/api/games/{g['id']}?min_version={moved['version']}", headers=ana).json
    assert doc["away"]["seat"] == 1  # Ben's turn, and no page of his seen
    turn_began = runtime.games.load(g["id"]).state.at
    claim_at = datetime.fromisoformat(doc["away"]["claim_at"].replace("Z", "+00:00")).timestamp() * 1000
    assert abs(claim_at - (turn_began + 60_000)) < 2
    assert client.get(f"/api/games/{g['id']}", headers=ben).json["away"] is None  # Ben's page: he is here
    assert client.get(f"/api/games/{g['id']}", headers=ana).json["away"] is None
    plain = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]}).json
    assert client.get(f"/api/games/{plain['id']}").json["away"] is None  # no clock: nothing to claim


def test_the_taken_username_error_is_in_the_readers_language(app):
    client = app.test_client()
    assert client.post("/api/accounts", json={"username": "Ana", "password": "correct horse"}).status_code == 201
    r = app.test_client().post("/api/accounts?lang=fr", json={"username": "ana", "password": "correct horse"})
    assert r.status_code == 409 and r.json["error"]["code"] == "username_taken"
    assert "est déjà pris" in r.json["error"]["message"] and r.json["error"]["field"] == "username"
