"""The one request body parser (``web/schemas.py``, ``decode``): every route that reads a JSON body refuses one
nested too deep with a 400 naming the problem (not a 500), and writes nothing (fakeredis and a real Redis)."""

from __future__ import annotations

import pytest

from tests.web.signin import signed_in
from web.app import create_app
from web.schemas import MAX_DEPTH

PLAYERS = [{"name": "Ana"}, {"name": "Ben"}]


def nested(depth: int) -> bytes:
    """A JSON object whose one field holds ``depth`` - 1 more levels of objects."""
    return b'{"a":' * depth + b"1" + b"}" * depth


def written(runtime) -> list[bytes]:
    """The keys in Redis, but the sessions' (a signed-in request notes when its session was last seen)."""
    return sorted(k for k in runtime.redis.keys("*") if b"session" not in k)


@pytest.fixture
def site(runtime):
    app = create_app(runtime)
    client = signed_in(app, runtime, "Deepa")
    created = client.post("/api/games", json={"game": "murus", "players": PLAYERS}).get_json()
    return runtime, client, created


def routes(created: dict) -> list[str]:
    gid = created["id"]
    return ["/api/games", f"/api/games/{gid}/commands", f"/api/games/{gid}/seats/1", "/api/seeks",
            "/api/challenges", f"/api/games/{gid}/chat", f"/api/games/{gid}/chat/report", "/api/accounts",
            "/api/session", "/api/me/password", "/api/tournaments"]


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000])
def test_a_body_nested_too_deep_is_a_400_on_every_route_and_writes_nothing(site, depth):
    runtime, client, created = site
    token = created["seats"][0]["token"]
    runtime.service.jobs.flush()  # the creation's poke, sent
    before = written(runtime)
    for path in routes(created):
        r = client.post(path, data=nested(depth), content_type="application/json",
                        headers={"Authorization": f"Bearer {token}", "Origin": "http://localhost"})
        assert r.status_code == 400, (path, r.status_code, r.get_json())
        message = r.get_json()["error"]["message"]
        # A typed body (a game, a command, a seat) names the field it does not know before its depth matters.
        assert "nested too deep" in message or message == "unknown field a", (path, message)
    assert written(runtime) == before


def test_an_open_object_nested_too_deep_inside_a_typed_body_is_refused(site):
    _, client, _ = site
    body = b'{"game": "murus", "players": [], "options": ' + nested(MAX_DEPTH) + b"}"
    r = client.post("/api/games", data=body, content_type="application/json")
    assert r.status_code == 400 and "nested too deep" in r.get_json()["error"]["message"]


def test_a_body_just_within_the_depth_is_read(site):
    """MAX_DEPTH levels are read (and then refused for what they say, not for their depth)."""
    _, client, created = site
    r = client.post(f"/api/games/{created['id']}/chat", data=nested(MAX_DEPTH), content_type="application/json",
                    headers={"Authorization": f"Bearer {created['seats'][0]['token']}"})
    assert r.status_code in (400, 422) and "nested too deep" not in r.get_json()["error"]["message"], r.get_json()
