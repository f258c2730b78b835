"""Golden payloads: stored games of every game (export format) must still decode and replay to the same end.

Schema evolution may only add fields with defaults; a breaking change needs a new tag or an upcaster, and these
files — written once and never regenerated — are what shows that old events still load.
"""

from __future__ import annotations

from pathlib import Path

import fakeredis
import msgspec
import pytest

from domain.registry import game_module
from services.games.states import States
from services.store import codec
from services.store.streams import EventStore, Keys
from services.store.transfer import append_exported, parse_lines

GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*.jsonl"))


def recorded_result(header: dict) -> dict:
    """The recorded result; these games were stored before ``result.termination`` existed, and all of them ended
    by the rules, which is what replaying them must infer."""
    return {"termination": "rules", **header["expect"]["result"]}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_to_its_recorded_end(path):
    header, events = parse_lines(path.read_text().splitlines())
    module = game_module(header["meta"]["game"])
    state = None
    for item in events:
        state = module.evolve(state, codec.decode(module, msgspec.msgpack.encode(item["data"])))
    expect = header["expect"]
    assert module.status(state) == expect["status"]
    assert module.result(state) == recorded_result(header)
    assert module.dump_position(state) == expect["position"]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_imports_and_replays_through_the_store(path):
    header, events = parse_lines(path.read_text().splitlines())
    store = EventStore(fakeredis.FakeRedis(), Keys("golden"))
    gid = header["id"]
    assert append_exported(store, gid, header["meta"], events) == len(events)
    game = States(store).load(gid)
    assert game.result == recorded_result(header)
