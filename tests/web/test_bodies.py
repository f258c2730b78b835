"""The one request body parser (``web/schemas.py``, ``decode``): every route that reads a JSON body refuses one
nested too deep with a 400 naming the problem (not a 500), and writes nothing (fakeredis and a real Redis)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.web.signin import signed_in
from web import schemas
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
        assert "nested too deep" in r.get_json()["error"]["message"], (path, r.get_json())
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


class Node(msgspec.Struct):
    label: str
    children: list[Node] = []


@pytest.mark.parametrize("kind, depth", [
    (schemas.Command, 1),  # its fields are scalars: never walked
    (schemas.ChatMessage, 1),
    (list[int], 1),
    (dict[str, list[int]], 2),
    (tuple[int, list[int]], 2),
    (schemas.CreateGame, None),  # its options are any JSON object: walked
    (dict[str, Any], None),
    (Node, None),  # a type inside itself nests as deep as a client likes
])
def test_the_depth_a_declared_body_can_reach_is_known_from_its_type(kind, depth):
    assert schemas.nesting(kind) == depth


@pytest.mark.parametrize("player, status, field, message", [
    ({"name": 5}, 400, "players[1].name", "players[1].name: must be a text, not 5"),
    ({"name": "Ben", "colour": "red"}, 400, "players[1].colour",
     "players[1].colour: unknown field (known: name, ai, open, me)"),
    ({"name": "Ben", "ai": 3}, 400, "players[1].ai", "players[1].ai: must be a text, not 3"),
    ({"name": "Ben", "ai": "godlike"}, 400, "players[1].ai", "players[1].ai: must be one of easy, normal, hard"),
    ({"open": True, "name": "Ben"}, 422, "players[1]", 'players[1]: an open seat is exactly {"open": true}'),
    ({"open": False}, 422, "players[1]", 'players[1]: an open seat is exactly {"open": true}'),
    ({"me": False}, 422, "players[1]", 'players[1]: a seat of your own is exactly {"me": true}'),
    ({"me": True, "name": "Ben"}, 422, "players[1]", 'players[1]: a seat of your own is exactly {"me": true}'),
    ({}, 422, "players[1].name", "players[1].name: a non-empty name is required"),
    (7, 400, "players[1]", "players[1]: must be an object, not 7"),
])
def test_a_player_is_refused_naming_its_field(site, player, status, field, message):
    runtime, client, _ = site
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, player]})
    assert (r.status_code, r.json["error"]["field"]) == (status, field), r.json
    assert r.json["error"]["message"] == message


def test_a_refused_body_is_said_from_its_type_in_the_reader_language(site):
    _, client, created = site
    token = created["seats"][0]["token"]
    r = client.post(f"/api/games/{created['id']}/commands", json={"command_id": "c1"},
                    headers={"Authorization": f"Bearer {token}", "Accept-Language": "fr"})
    assert r.status_code == 400 and r.json["error"] == {"code": "bad_request", "message": "le champ move manque",
                                                        "field": "move"}
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": 5}]},
                    headers={"Accept-Language": "zh"})
    assert r.json["error"]["message"] == "players[1].name：必须是文本，而不是 5"


@pytest.mark.parametrize("path, body, status, field, message", [
    # The accounts' routes: 422 naming the field, for a field they do not take as for a value.
    ("/api/accounts", {"username": "Zed", "password": "long enough", "email": "z@x"}, 422, "email",
     "email: unknown field (known: username, password)"),
    ("/api/accounts", {"username": 5, "password": "long enough"}, 422, "username",
     "username: must be a text, not 5"),
    ("/api/session", {"password": "long enough"}, 422, "username", "the field username is missing"),
    ("/api/me/language", {"lang": "de"}, 422, "lang", 'lang: must be one of en, fr, zh, not "de"'),
    ("/api/me/vacation", {"on": "yes"}, 422, "on", 'on: must be true or false, not "yes"'),
    # The meeting routes: 400 for a field they do not take, 422 for a value.
    ("/api/seeks", {"game": "murus", "colour": "white"}, 400, "colour",
     "colour: unknown field (known: game, options, clock, seats, rating_range, rated, name)"),
    ("/api/seeks", {"game": "murus", "seats": "two"}, 422, "seats", 'seats: must be an integer, not "two"'),
    ("/api/challenges", {"game": 5}, 422, "game", "game: must be a text, not 5"),
])
def test_the_other_bodies_are_refused_from_their_types(site, path, body, status, field, message):
    _, client, _ = site
    method = client.put if path == "/api/me/vacation" else client.post
    r = method(path, json=body, headers={"Origin": "http://localhost"})
    assert (r.status_code, r.json["error"].get("field"), r.json["error"]["message"]) == (status, field, message)


def test_a_chat_message_of_another_kind_is_a_422_naming_it(site):
    _, client, created = site
    r = client.post(f"/api/games/{created['id']}/chat", json={"text": ["hi"]},
                    headers={"Authorization": f"Bearer {created['seats'][0]['token']}"})
    assert (r.status_code, r.json["error"]["field"], r.json["error"]["message"]) == (
        422, "text", 'text: must be a text, not ["hi"]')
