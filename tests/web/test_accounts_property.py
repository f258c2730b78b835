"""Bad input to the account routes, as a property: no body gives a 5xx, and every refusal is a sentence."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from burrow.runtime import build
from services.config import Limits, Settings
from tests.web.signin import signed_in
from web.app import create_app

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True), st.text(max_size=30),
                    st.sampled_from(["Ana", "ana", "Ben_1", "correct horse", "x" * 300, "é" * 5, "a\u202eb"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=10), inner, max_size=3)),
                      max_leaves=10)
fields = st.sampled_from(["username", "password", "current_password", "id", "rawId", "response", "type",
                          "clientDataJSON", "name", "me"])
bodies = st.one_of(values, st.dictionaries(fields, values, max_size=4))
PATHS = ["/api/accounts", "/api/session", "/api/passkeys/register/options", "/api/passkeys/register",
         "/api/passkeys/login/options", "/api/passkeys/login", "/api/me/password"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    limits = Limits(open_games_per_client=None, games_per_minute_per_client=None,
                    accounts_per_hour_per_client=None)
    runtime = build(Settings(prefix="accprop", data_dir=str(tmp_path_factory.mktemp("d")), limits=limits),
                    journal=False)
    flask = create_app(runtime)
    guest = flask.test_client()
    member = signed_in(flask, runtime, "Member")
    game = member.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}]}).json
    return guest, member, game["id"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(PATHS), body=bodies, signed=st.booleans())
@example(path="/api/session", body={"username": "Ana", "password": None}, signed=False)
@example(path="/api/passkeys/login", body={"response": {"clientDataJSON": "e30"}}, signed=False)
@example(path="/api/passkeys/register/options", body={"username": ["x"]}, signed=False)
def test_no_account_body_gives_a_5xx(app, path, body, signed):
    guest, member, _ = app
    client = member if signed else guest
    try:
        raw = json.dumps(body)
    except ValueError:
        return
    r = client.post(path, data=raw, content_type="application/json", base_url="http://localhost")
    assert r.status_code < 500, (path, body, r.get_json())
    if r.status_code >= 400:
        assert r.get_json()["error"]["message"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.lists(st.one_of(st.fixed_dictionaries({"me": values}), st.fixed_dictionaries({"name": values}),
                                  st.just({"me": True})), min_size=0, max_size=3),
       claim=st.one_of(st.just({}), st.dictionaries(st.sampled_from(["name", "me"]), values, max_size=2)),
       signed=st.booleans())
def test_no_seat_body_gives_a_5xx(app, players, claim, signed):
    guest, member, gid = app
    client = member if signed else guest
    r = client.post("/api/games", data=json.dumps({"game": "murus", "players": players}),
                    content_type="application/json")
    assert r.status_code < 500, (players, r.get_json())
    r = client.post(f"/api/games/{gid}/seats/1", data=json.dumps(claim), content_type="application/json")
    assert r.status_code < 500, (claim, r.get_json())
