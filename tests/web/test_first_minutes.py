"""The first ten minutes through the API (CONTRACT "The first ten minutes"): a signed-in player's seat in any game,
challenges both ways and invites, guests' sessions and seeks, ratings in documents and results, the leaderboard's
provisional players, clocks that start with the play, and the away line. fakeredis and a real Redis."""

from __future__ import annotations

import pytest

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
