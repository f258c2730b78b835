"""Bad input: the OpenAPI document, property-based fuzzing of every endpoint, and the limits.

Fuzzing is driven by ``GET /api/openapi.json``: for every operation it lists, hypothesis generates bodies (from the
operation's schema, arbitrary JSON, raw bytes), path ids, query strings and headers, and the answer must never be a
5xx, every error must be the JSON error shape, and a rejected request must append nothing to the store.
"""

from __future__ import annotations

import json
import re
import string
from urllib.parse import quote, urlencode

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domain.registry import GAME_NAMES
from services.clients import client_id
from web import openapi, schemas

CONTRACT_PATHS = {  # docs/api.md
    ("get", "/api/health"), ("post", "/api/games"), ("get", "/api/games"), ("get", "/api/games/{gid}"),
    ("post", "/api/games/{gid}/commands"), ("get", "/api/games/{gid}/events"), ("get", "/api/games/{gid}/stream"),
}
TWO = [{"name": "Ana"}, {"name": "Bob"}]


def create(api, game="murus", players=None, **extra):
    r = api.post("/api/games", json={"game": game, "players": players or TWO, **extra})
    assert r.status_code == 201, r.json
    return r.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def log_length(rt) -> int:
    return sum(rt.redis.xlen(rt.store.keys.log(p)) for p in range(rt.store.keys.partitions))


# -- the document ------------------------------------------------------------------------------------------------

def test_openapi_document_lists_the_contract_and_its_refs_resolve(api):
    r = api.get("/api/openapi.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    doc = r.json
    assert doc["openapi"].startswith("3.1")
    operations = {(method, path) for path, item in doc["paths"].items() for method in item}
    assert operations >= CONTRACT_PATHS
    components = doc["components"]["schemas"]
    refs = []

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert refs and all(ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in components
                        for ref in refs)
    for kind in (schemas.CreateGame, schemas.Command):  # generated from the very types the API decodes with
        own = msgspec.json.schema(kind, ref_template="#/components/schemas/{name}")
        assert components[kind.__name__] == own["$defs"][kind.__name__]
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            assert operation["responses"], (method, path)
            if method == "post":
                assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]


def test_every_api_route_is_documented(api):
    """So that no endpoint escapes the fuzzing below, which walks the document."""
    documented = {(method, path) for path, item in openapi.document()["paths"].items() for method in item}
    routes = [(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), rule.methods)  # <int:seat>: {seat}
              for rule in api.flask.url_map.iter_rules()]
    routes += [(route.path, route.methods) for route in api.front.routes if hasattr(route, "methods")]
    assert ("/api/games/{gid}/stream", {"GET", "HEAD"}) in routes
    for path, methods in routes:
        if path.startswith("/api/"):
            for method in methods - {"HEAD", "OPTIONS"}:
                assert (method.lower(), path) in documented, (method, path)


def test_real_answers_conform_to_the_documented_types(api):
    g = create(api)
    msgspec.convert(g, openapi.Created)
    gid, t0 = g["id"], g["seats"][0]["token"]
    answer = api.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers=auth(t0))
    msgspec.convert(answer.json, openapi.CommandResult)
    msgspec.convert(api.get(f"/api/games/{gid}", headers=auth(t0)).json, openapi.GameDocument)
    msgspec.convert(api.get(f"/api/games/{gid}?version=1").json, openapi.GameDocument)
    msgspec.convert(api.get(f"/api/games/{gid}/events").json, openapi.Events)
    msgspec.convert(api.get("/api/games").json, openapi.Lobby)
    msgspec.convert(api.get("/api/health").json, openapi.Health)
    conflict = api.post(f"/api/games/{gid}/commands", json={"move": "a7-a5", "expected_version": 1},
                        headers=auth(g["seats"][1]["token"]))
    assert msgspec.convert(conflict.json, openapi.Error).error.version == answer.json["version"]
    for bad in (api.get("/api/games/nope"), api.post("/api/games", data=b"{"), api.get("/api/nowhere")):
        msgspec.convert(bad.json, openapi.Error)


# -- fuzzing -----------------------------------------------------------------------------------------------------

PRINTABLE = st.text(alphabet=string.printable.strip() + " ", max_size=40)
TRICKY = st.sampled_from([*GAME_NAMES, "a1-a3", "roll", "place b7 b8 c7 c8", "", " ", "<script>alert(1)</script>",
                          "\x00", "🐿" * 30, "x" * 5000, "-1", "1e309", "NaN", "../../etc/passwd", "%00", "{}"])
STRINGS = st.one_of(st.text(max_size=40), TRICKY)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | STRINGS,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(STRINGS, inner, max_size=4),
                    max_leaves=15)


def from_schema(schema: dict, components: dict) -> st.SearchStrategy:
    """Values that mostly fit a msgspec-generated JSON schema (and sometimes do not)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return st.deferred(lambda: from_schema(components[name], components))
    if "anyOf" in schema:
        return st.one_of([from_schema(s, components) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"]) | STRINGS
    kind = schema.get("type")
    if kind == "object" and not schema.get("properties"):
        return st.just({}) | st.dictionaries(STRINGS, JSON, max_size=3)
    if kind == "object":
        props = schema["properties"]
        required = schema.get("required", [])
        return st.fixed_dictionaries({k: from_schema(props[k], components) for k in required},
                                     optional={k: from_schema(v, components) for k, v in props.items()
                                               if k not in required})
    if kind == "array":
        return st.lists(from_schema(schema["items"], components), max_size=10)
    simple = {"string": st.one_of(TRICKY, TRICKY, st.text(max_size=40)),
              "integer": st.integers(-3, 200) | st.integers(-(2**70), 2**70), "null": st.none(),
              "boolean": st.booleans(), "number": st.floats(allow_nan=False)}
    return st.one_of(*[simple[kind]] * 4, JSON) if kind in simple else JSON


def bodies(operation: dict, components: dict) -> st.SearchStrategy:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    shaped = [from_schema(content["schema"], components).map(lambda v: json.dumps(v).encode())] if content else []
    others = [JSON.map(lambda v: json.dumps(v).encode()), st.binary(max_size=200), st.just(b"")]
    return st.one_of(*(shaped * 4), *others)


def queries(operation: dict) -> st.SearchStrategy:
    names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"] + ["x"]
    value = st.one_of(st.integers(-5, 10**20).map(str), PRINTABLE, TRICKY)
    return st.dictionaries(st.sampled_from(names), value, max_size=3)


def fuzz_world(rt, api, monkeypatch):
    rt.service.open_games.limit = None  # the fuzzer creates many games from one address

    class Inline:  # projections written at once, so that reads go through them too
        def project(self, gid):
            rt.projector.project_game(gid)
            rt.projector.project_lobby(gid)

    rt.service.jobs = Inline()
    if rt.away is not None:  # a site that sends mail: its mail routes answer (the mail itself waits for a job)
        from services.away.mail import Smtp

        monkeypatch.setattr(rt.away, "smtp", Smtp.parse("smtp://127.0.0.1:9"))
    mine, other = create(api), create(api, game="mouseguard")
    return mine, other


OPERATIONS = sorted((method, path) for path, item in openapi.document()["paths"].items() for method in item)


@pytest.mark.slow  # a fuzzing campaign: 150 examples on each of 30-odd routes, a minute in all
@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_fuzz_never_5xx_and_a_rejection_appends_nothing(rt, api, monkeypatch, method, path):
    doc = openapi.document()
    components = doc["components"]["schemas"]
    operation = doc["paths"][path][method]
    mine, other = fuzz_world(rt, api, monkeypatch)
    tokens = [mine["seats"][0]["token"], mine["seats"][1]["token"], other["seats"][0]["token"]]
    gids = st.one_of(st.sampled_from([mine["id"], other["id"]]), PRINTABLE.filter(bool), TRICKY.filter(bool))
    authorization = st.one_of(st.none(), st.sampled_from(tokens).map(lambda t: f"Bearer {t}"),
                              PRINTABLE, PRINTABLE.map(lambda t: f"Bearer {t}"))
    content_types = st.sampled_from([None, "application/json", "text/plain", "application/x-www-form-urlencoded",
                                     "multipart/form-data; boundary=x"])
    methods = st.sampled_from([method.upper()] * 12 + ["PUT", "DELETE", "PATCH", "POST", "GET"])

    valid = {"/api/games": {"game": "squirrels", "players": TWO}, "/api/games/{gid}/commands": {"move": "a1-a3"}}

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @example(method=method.upper(), gid=mine["id"], body=json.dumps(valid.get(path, {})).encode(), query={},
             authorization=f"Bearer {tokens[0]}", content_type="application/json", last_event=None)
    @given(method=methods, gid=gids, body=bodies(operation, components), query=queries(operation),
           authorization=authorization, content_type=content_types, last_event=st.none() | PRINTABLE)
    def one_request(method, gid, body, query, authorization, content_type, last_event):
        url = path.replace("{gid}", quote(gid, safe=""))
        if query:
            url += "?" + urlencode(query)
        headers = {}
        if authorization is not None:
            headers["Authorization"] = authorization
        if content_type is not None:
            headers["Content-Type"] = content_type
        if last_event is not None:
            headers["Last-Event-ID"] = last_event
        before = log_length(rt)
        r = api.open(url, method=method, data=body, headers=headers)
        assert r.status_code < 500, (method, url, r.status_code, r.get_data(as_text=True)[:300])
        r.get_data()  # an event stream runs to its end here
        if r.status_code >= 400:
            error = r.json["error"]
            assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]
        if r.status_code not in (200, 201) or method in ("GET", "HEAD"):
            assert log_length(rt) == before, (method, url, r.status_code)

    one_request()


@pytest.mark.parametrize("url, headers", [
    ("/api/games/{gid}/stream?after=18446744073709551616", {}),  # found by the fuzzer: a 500 from Redis
    ("/api/games/{gid}/stream", {"Last-Event-ID": "-5"}),
    ("/api/games/{gid}?version=18446744073709551616", {}),
    ("/api/games/{gid}?min_version=18446744073709551616", {}),
    ("/api/games/{gid}/events?after=18446744073709551616", {}),
])
def test_out_of_range_versions_are_400(api, monkeypatch, url, headers):
    g = create(api)
    r = api.get(url.format(gid=g["id"]), headers=headers)
    assert r.status_code == 400 and r.json["error"]["message"], r.get_data(as_text=True)[:200]


# -- limits ------------------------------------------------------------------------------------------------------

def test_limits_answer_clear_4xx_and_append_nothing(rt, api):
    before = log_length(rt)
    limit = rt.settings.limits
    huge = api.post("/api/games", data=b'{"game": "murus", "players": [' + b" " * limit.body_bytes + b"]}",
                    content_type="application/json")
    assert huge.status_code == 413 and str(limit.body_bytes) in huge.json["error"]["message"]
    too_long = {"name": "x" * (limit.name_length + 1)}
    long_name = api.post("/api/games", json={"game": "murus", "players": [too_long, {"name": "b"}]})
    assert long_name.status_code == 422 and "players[0].name" in long_name.json["error"]["message"]
    crowd = api.post("/api/games", json={"game": "commando", "players": [{"name": f"p{i}"} for i in range(40)]})
    assert crowd.status_code == 422 and "players" in crowd.json["error"]["message"]
    g = create(api)
    after_create = log_length(rt)
    long_move = api.post(f"/api/games/{g['id']}/commands", json={"move": "a" * 60_000},
                         headers=auth(g["seats"][0]["token"]))
    assert 400 <= long_move.status_code < 500 and long_move.json["error"]["message"]
    assert before + 1 <= after_create == log_length(rt)


def test_open_games_per_client_limit_is_429_per_address_and_frees_when_games_finish(rt, api):
    rt.service.open_games.limit = 3
    here = {"REMOTE_ADDR": "10.0.0.1"}
    games = []
    for _ in range(3):
        r = api.post("/api/games", json={"game": "murus", "players": TWO, "options": {"max_plies": 1}},
                     environ_base=here)
        assert r.status_code == 201, r.json
        games.append(r.json)
    before = log_length(rt)
    refused = api.post("/api/games", json={"game": "murus", "players": TWO}, environ_base=here)
    assert refused.status_code == 429
    assert refused.json["error"]["code"] == "too_many" and "at most 3" in refused.json["error"]["message"]
    assert log_length(rt) == before  # nothing appended
    elsewhere = api.post("/api/games", json={"game": "murus", "players": TWO},
                         environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert elsewhere.status_code == 201
    key = rt.service.open_games.key(client_id("10.0.0.1"))  # counted by the address's hash
    assert 0 < rt.redis.pttl(key) <= 24 * 3600 * 1000  # counted in Redis, with an expiry
    g = games[0]  # one ply and the game is over: it no longer counts
    done = api.post(f"/api/games/{g['id']}/commands", json={"move": "a1-a3"}, headers=auth(g["seats"][0]["token"]))
    assert done.status_code == 200
    assert api.get(f"/api/games/{g['id']}?min_version={done.json['version']}").json["status"] == "finished"
    again = api.post("/api/games", json={"game": "murus", "players": TWO}, environ_base=here)
    assert again.status_code == 201, again.json
    assert api.post("/api/games", json={"game": "murus", "players": TWO}, environ_base=here).status_code == 429
