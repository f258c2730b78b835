"""No 5xx from any position or option: hypothesis mutates real positions (one value replaced, removed or added
anywhere in the document) and options of every game and sends them through the API. The answer is a game (201)
or a 4xx whose error names the field; a refusal leaves no key behind in the event store and appends nothing to
a partition log."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burrow.runtime import build
from domain.base import Setup, commands
from domain.registry import GAME_NAMES, game_module
from services.config import Limits, Settings
from web.app import create_app

SEATS = {"murus": 2, "mouseguard": 2, "squirrels": 3, "commando": 4}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6),
                    st.sampled_from(["a1", "A1", "e5", "c3", "default", "trap", "sword", "squirrel", "R", "GG",
                                     "W", "black", "romans", "", "0", "-1"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=3)), max_leaves=8)


def positions() -> dict[str, dict]:
    """A real position of every game, a few random turns into it."""
    out = {}
    for name in GAME_NAMES:
        module, rng = game_module(name), random.Random(5)
        state = None
        for event in module.initial(Setup(seats=SEATS[name]), rng):
            state = module.evolve(state, event)
        for _ in range(6):
            if module.status(state) != "playing":
                break
            seat = module.to_act(state)[0]
            text = rng.choice(commands(module.legal(state, seat)))
            for event in module.decide(state, seat, module.parse(text), rng):
                state = module.evolve(state, event)
        out[name] = module.dump_position(state)
    return out


POSITIONS = positions()


def paths(doc, prefix=()):
    """Every path into a JSON document (dict keys and list indexes), the root excluded."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        yield (*prefix, key)
        yield from paths(value, (*prefix, key))


def mutated(doc, path, action: str, value):
    doc = json.loads(json.dumps(doc))
    *parents, last = path
    holder = doc
    for key in parents:
        holder = holder[key]
    if action == "replace":
        holder[last] = value
    elif action == "remove":
        del holder[last]
    elif isinstance(holder, list):
        holder.insert(last, value)
    else:
        holder[f"{last}_extra"] = value
    return doc


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    limits = Limits(open_games_per_client=None, games_per_minute_per_client=None)
    runtime = build(Settings(prefix="fuzz", data_dir=str(tmp_path_factory.mktemp("d")), limits=limits),
                    journal=False)
    return runtime, create_app(runtime).test_client()


def written(runtime) -> tuple[set[bytes], dict[bytes, int]]:
    """What a creation writes: the event store's keys (games, seats, command ids, partition logs: all under the
    store's prefix) and each partition log's length. The queues' keys are left out: a thread of their own sends
    an earlier creation's projection poke whenever it likes, and RQ's markers expire on their own (a comparison of
    the whole keyspace failed on them, not on anything a refused request wrote)."""
    keys = set(runtime.redis.keys(f"{runtime.store.keys.prefix}:*"))
    logs = {key: runtime.redis.xlen(key) for key in keys if key.endswith(b":log")}
    return keys, logs


def check(app, body: dict) -> None:
    runtime, client = app
    before = written(runtime)
    answer = client.post("/api/games", json=body)
    assert answer.status_code < 500, (body, answer.get_json())
    if answer.status_code != 201:
        error = answer.get_json()["error"]
        named = error.get("field") or error["message"].split(":", 1)[0]
        assert named and error["message"], (body, error)
        assert written(runtime) == before, body


def players(game: str) -> list[dict]:
    return [{"name": f"P{i}"} for i in range(SEATS[game])]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), game=st.sampled_from(GAME_NAMES), action=st.sampled_from(["replace", "remove", "insert"]),
       value=values)
def test_a_mutated_position_is_a_game_or_a_4xx_naming_the_field(app, data, game, action, value):
    position = POSITIONS[game]
    path = data.draw(st.sampled_from(list(paths(position))))
    check(app, {"game": game, "players": players(game), "position": mutated(position, path, action, value)})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), game=st.sampled_from(GAME_NAMES), value=values)
def test_any_option_value_is_a_game_or_a_4xx_naming_the_field(app, data, game, value):
    names = [option.name for option in game_module(game).CATALOG.options] + ["nonsense"]
    name = data.draw(st.sampled_from(names))
    check(app, {"game": game, "players": players(game), "options": {name: value}})
