"""Private answers are never kept by a cache (issue #31: a seat's document had no ``Cache-Control: no-store`` and
no ``Vary: Authorization``): anything read with a bearer token or a session cookie, every answer to a POST."""

from __future__ import annotations


def created(client) -> dict:
    r = client.post("/api/games", json={"game": "mouseguard", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    assert r.status_code == 201
    assert r.headers["Cache-Control"] == "no-store"  # it hands out the seats' tokens
    return r.get_json()


def varies(r) -> set[str]:
    return {v.strip() for v in r.headers.get("Vary", "").split(",")}


def test_a_seats_reads_are_no_store_and_vary_with_the_token_and_the_cookie(client):
    g = created(client)
    gid, token = g["id"], g["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for path in (f"/api/games/{gid}", f"/api/games/{gid}?version=1", f"/api/games/{gid}/events?after=0"):
        mine = client.get(path, headers=auth)
        assert mine.status_code == 200 and mine.headers["Cache-Control"] == "no-store", path
        assert {"Authorization", "Cookie"} <= varies(mine), path
        public = client.get(path)
        assert "no-store" not in public.headers.get("Cache-Control", ""), path
        assert {"Authorization", "Cookie"} <= varies(public), path  # a cache keeps it apart from a seat's
    refused = client.get(f"/api/games/{gid}", headers={"Authorization": "Bearer not-a-token"})
    assert refused.headers["Cache-Control"] == "no-store"


def test_a_read_with_a_session_cookie_is_no_store(client):
    gid = created(client)["id"]
    client.set_cookie("burrow_session", "some-session-id")
    assert client.get(f"/api/games/{gid}").headers["Cache-Control"] == "no-store"


def test_every_post_answer_is_no_store(client):
    g = created(client)
    r = client.post(f"/api/games/{g['id']}/commands", json={"move": "place b2 c3 d2 e3"},
                    headers={"Authorization": f"Bearer {g['seats'][0]['token']}"})
    assert r.headers["Cache-Control"] == "no-store"
