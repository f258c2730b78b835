"""Bounds through the API, as a property: no request body gives a 5xx, and a refused one leaves no key behind."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from burrow.runtime import build
from services.config import Limits, Settings
from web.app import create_app

GAMES = ["murus", "mouseguard", "squirrels", "commando", "chess"]
OPTION_NAMES = ["variant", "max_plies", "board", "start_money", "card_pool", "packs", "edge_points", "fine",
                "diplomacy_metric", "x"]
POSITION_KEYS = ["turn", "cells", "mice", "hands", "deck", "agents", "caution_deck", "board", "captured"]

numbers = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([0, 1, 2**53, 2**64 + 1]),
                    st.floats(allow_nan=True, allow_infinity=True))
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=12))
json_keys = st.sampled_from(POSITION_KEYS + OPTION_NAMES)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(json_keys, inner, max_size=4)), max_leaves=20)
names = st.one_of(st.text(max_size=50), st.sampled_from(["H0 (hard AI)", "a\u202eb", "zero\u200bwidth", "nul\x00",
                                                         "  ", "Ana"]))
players = st.lists(st.fixed_dictionaries({"name": names}, optional={"ai": st.sampled_from(["easy", "godlike"])}),
                   max_size=6)
bodies = st.fixed_dictionaries({"game": st.sampled_from(GAMES), "players": players}, optional={
    "options": st.dictionaries(st.sampled_from(OPTION_NAMES), json_values, max_size=3),
    "seed": numbers, "position": st.dictionaries(st.sampled_from(POSITION_KEYS), json_values, max_size=3)})


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    limits = Limits(open_games_per_client=None, games_per_minute_per_client=None)
    runtime = build(Settings(prefix="prop", data_dir=str(tmp_path_factory.mktemp("d")), limits=limits),
                    journal=False)
    return runtime, create_app(runtime).test_client()


def keys(runtime) -> tuple[set[bytes], dict[bytes, int]]:
    """What a request writes: the event store's keys (all under its prefix) and each partition log's length. Not
    the queues' keys: a thread of their own sends an earlier creation's projection poke whenever it likes, and
    RQ's markers expire on their own (neither is anything a refused request wrote)."""
    found = set(runtime.redis.keys(f"{runtime.store.keys.prefix}:*"))
    return found, {key: runtime.redis.xlen(key) for key in found if key.endswith(b":log")}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
@example(body={"game": "commando", "players": [{"name": "A"}, {"name": "B"}], "position": {"caution_deck": [{}]}})
@example(body={"game": "murus", "players": [{"name": "A"}, {"name": "B"}], "options": {"max_plies": 2**65}})
def test_no_create_body_gives_a_5xx_or_leaves_a_key(app, body):
    runtime, client = app
    before = keys(runtime)
    try:
        raw = json.dumps(body)
    except ValueError:
        return
    r = client.post("/api/games", data=raw, content_type="application/json")
    assert r.status_code < 500, (body, r.get_json())
    if r.status_code != 201:
        assert r.get_json()["error"]["message"]
        assert keys(runtime) == before, body


def test_deep_nesting_and_huge_numbers_are_refused_naming_the_field(app):
    _, client = app
    two = [{"name": "Ana"}, {"name": "Ben"}]
    for extra, field in [({"options": {"max_plies": 2**65}}, "options.max_plies"),
                         ({"options": {"max_plies": 10**6}}, "options.max_plies"),
                         ({"seed": 2**60}, "seed"),
                         ({"position": {"cells": {"a": [[[[[[[[[[[[[1]]]]]]]]]]]]]}}}, "position.cells.a")]:
        r = client.post("/api/games", json={"game": "murus", "players": two, **extra})
        assert r.status_code == 422 and field in r.get_json()["error"]["message"], (field, r.get_json())
    deep = '{"game": "murus", "players": [], "options": ' + '{"a":' * 5000 + "1" + "}" * 5000 + "}"
    r = client.post("/api/games", data=deep, content_type="application/json")
    assert r.status_code == 400 and "nested too deep" in r.get_json()["error"]["message"]
    board = {"length": 10**6, "districts": [{"first": 0, "last": 10**6 - 1, "green": {"from": 0, "to": 5,
                                                                                        "length": 4}}]}
    r = client.post("/api/games", json={"game": "commando", "players": two, "options": {"board": board}})
    assert r.status_code == 422 and "options.board.length" in r.get_json()["error"]["message"]


@pytest.mark.parametrize("name", ["H0 (hard AI)", "Eve (easy ai)", "a\u202eb", "zero\u200bwidth", "nul\x00x",
                                  "tab\tx", "two  spaces", "x" * 41])
def test_names_that_could_deceive_are_refused(app, name):
    _, client = app
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": name}, {"name": "Ben"}]})
    assert r.status_code == 422 and "players[0].name" in r.get_json()["error"]["message"]


@pytest.mark.parametrize("name", ["Ana-María", "李小龙", "O'Brien Jr.", "R2-D2 (the droid)", "Zoë 🦊"])
def test_ordinary_names_are_accepted(app, name):
    _, client = app
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": name}, {"name": "Ben"}]})
    assert r.status_code == 201, r.get_json()


command_bodies = st.fixed_dictionaries({}, optional={
    "move": st.one_of(st.text(max_size=300), numbers, st.none()),
    "expected_version": st.one_of(numbers, st.text(max_size=5)),
    "command_id": st.one_of(st.text(max_size=200), numbers)})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=command_bodies)
def test_no_command_body_gives_a_5xx_or_leaves_a_key(app, body):
    runtime, client = app
    two = [{"name": "A"}, {"name": "B"}]
    created = client.post("/api/games", json={"game": "murus", "players": two}).get_json()
    gid, token = created["id"], created["seats"][0]["token"]
    before, version = keys(runtime), runtime.store.version(gid)
    try:
        raw = json.dumps(body)
    except ValueError:
        return
    r = client.post(f"/api/games/{gid}/commands", data=raw, content_type="application/json",
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code < 500, (body, r.get_json())
    if r.status_code != 200:
        assert keys(runtime) == before and runtime.store.version(gid) == version, body
