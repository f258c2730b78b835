"""Snapshots (``services/games/snapshots.py``): reading any version folds at most ``every`` events past a
snapshot, and a snapshot is never trusted blindly (issue #31: ``?version=N`` replayed the whole game each time)."""

from __future__ import annotations

import dataclasses
import json
import random

import msgspec
import pytest

from domain.base import Setup, commands
from domain.registry import GAME_NAMES
from domain.table import Resigned, TableSet, table_of
from services.games import snapshots
from services.games.states import States
from services.reads.views import all_documents
from services.store import codec
from services.store.streams import new_game_id

EVERY = 8


def random_events(name: str, seed: int, plies: int = 60) -> tuple[int, list]:
    """A game of ``name`` played at random: its seats and events (the first ``plies`` commands at most)."""
    module = table_of(name)
    rng = random.Random(seed)
    seats = module.SEATS[0]
    events = list(module.initial(Setup(seats=seats, options={}), rng))
    state = None
    for e in events:
        state = module.evolve(state, e, 0)
    for _ in range(plies):
        if module.status(state) == "finished":
            break
        seat = rng.choice(module.to_act(state))
        for e in module.decide(state, seat, module.parse(rng.choice(commands(module.legal(state, seat)))), rng):
            state = module.evolve(state, e, 0)
            events.append(e)
    return seats, events


def stored_game(runtime, name: str, seed: int) -> str:
    """A random game of ``name`` stored as the service stores one (its metadata with its first event)."""
    seats, events = random_events(name, seed)
    gid = new_game_id()
    meta = {"id": gid, "game": name, "players": [{"name": f"P{i}"} for i in range(seats)], "seed": None,
            "created": 0}
    runtime.store.append(gid, [codec.encode(events[0])], expected_version=0, meta=json.dumps(meta).encode())
    for i in range(1, len(events), 50):
        runtime.store.append(gid, [codec.encode(e) for e in events[i:i + 50]], expected_version=None)
    return gid


def fresh_fold(runtime, gid: str, version: int):
    """The game at ``version`` folded from its first event, with no snapshot (the reference)."""
    states = States(runtime.store)
    return states._fold(states._before_first_event(gid), runtime.store.entries(gid, to=version))


def same(a, b) -> bool:
    encode = msgspec.msgpack.encode
    return a.version == b.version and encode(a.state) == encode(b.state)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_version_read_from_snapshots_equals_the_fold_from_the_start(runtime, name):
    gid = stored_game(runtime, name, seed=5)
    last = runtime.store.version(gid)
    states = States(runtime.store)
    states.snapshots.every = EVERY
    for version in range(last, 0, -1):  # newest first: the first read writes every snapshot
        game = states.at_version(gid, version)
        assert same(game, fresh_fold(runtime, gid, version)), version
    written = sorted(int(v) for v in runtime.redis.hkeys(runtime.store.keys.snapshots(gid)))
    assert written == list(range(EVERY, last + 1, EVERY))
    again = States(runtime.store)  # another process: reads them back (and folds on from them the same way)
    again.snapshots.every = EVERY
    for version in range(1, last + 1):
        assert same(again.at_version(gid, version), fresh_fold(runtime, gid, version)), version


def test_a_read_folds_at_most_every_events(runtime, monkeypatch):
    gid = stored_game(runtime, "mouseguard", seed=3)
    last = runtime.store.version(gid)
    assert last > 4 * EVERY
    states = States(runtime.store)
    states.snapshots.every = EVERY
    states.at_version(gid, last)  # writes the snapshots
    folded = []
    real = states._fold

    def counting(game, stored):
        items = list(stored)
        folded.append(len(items))
        return real(game, items)

    monkeypatch.setattr(states, "_fold", counting)
    for version in (last, last - 1, 2 * EVERY + 3, EVERY):
        folded.clear()
        states.at_version(gid, version)
        assert sum(folded) <= EVERY + 1, (version, folded)  # the events past the snapshot (and its type's first)


def snapshot_of(runtime, gid: str, version: int) -> snapshots.Snapshot:
    raw = runtime.redis.hget(runtime.store.keys.snapshots(gid), version)
    return msgspec.msgpack.decode(raw, type=snapshots.Snapshot)


def put(runtime, gid: str, snap: snapshots.Snapshot) -> None:
    runtime.redis.hset(runtime.store.keys.snapshots(gid), snap.version, msgspec.msgpack.encode(snap))


@pytest.mark.parametrize("damage", ["garbage", "other code", "other event"])
def test_a_snapshot_is_never_trusted_blindly(runtime, damage):
    gid = stored_game(runtime, "murus", seed=2)
    other = stored_game(runtime, "murus", seed=9)
    states = States(runtime.store)
    states.snapshots.every = EVERY
    last = runtime.store.version(gid)
    states.at_version(gid, last)
    states.at_version(other, runtime.store.version(other))
    snap = snapshot_of(runtime, gid, EVERY)
    if damage == "garbage":
        runtime.redis.hset(runtime.store.keys.snapshots(gid), EVERY, b"\xc1 not a snapshot")
    else:  # another game's state under a fingerprint of other code, or a checksum of another event
        wrong = snapshot_of(runtime, other, EVERY).state
        put(runtime, gid, msgspec.structs.replace(snap, state=wrong, **(
            {"code": "0" * 16} if damage == "other code" else {"crc": snap.crc ^ 1})))
    for version in range(EVERY, min(2 * EVERY, last + 1)):
        game = States(runtime.store).at_version(gid, version)
        assert same(game, fresh_fold(runtime, gid, version)), version


def test_a_state_that_does_not_survive_a_round_trip_is_never_stored(runtime, caplog, monkeypatch):
    gid = stored_game(runtime, "murus", seed=4)
    states = States(runtime.store)
    states.snapshots.every = EVERY
    real = snapshots.decode_state
    monkeypatch.setattr(snapshots, "decode_state",
                        lambda blob, kind: dataclasses.replace(real(blob, kind), seats=9))  # a lossy encoding
    game = states.at_version(gid, runtime.store.version(gid))
    assert runtime.redis.hlen(runtime.store.keys.snapshots(gid)) == 0
    assert same(game, fresh_fold(runtime, gid, game.version))
    assert "cannot be snapshotted exactly" in caplog.text


def test_a_game_the_table_ended_is_never_snapshotted(runtime):
    """Its result's reason is a ``Text`` (said in every language): a snapshot would keep it as a plain string."""
    from domain.text import Text

    gid = stored_game(runtime, "murus", seed=6)
    states = States(runtime.store)
    states.snapshots.every = EVERY
    game = states.at_version(gid, runtime.store.version(gid))
    runtime.store.append(gid, [codec.encode(Resigned(seat=0))], expected_version=None)
    ended = states.at_version(gid, runtime.store.version(gid))
    assert isinstance(ended.state.ended["reason"], Text)
    states.snapshots.save(gid, "murus", ended.version, ended.state, b"")
    assert runtime.redis.hget(runtime.store.keys.snapshots(gid), ended.version) is None
    assert game.version < ended.version


def test_a_clocked_game_is_snapshotted(runtime):
    """A clock setting of whole seconds (60) comes back from msgpack as 60.0 under its type: the same value."""
    seats, events = random_events("murus", 8)
    gid = new_game_id()
    meta = {"id": gid, "game": "murus", "players": [{"name": "A"}, {"name": "B"}], "seed": None, "created": 0}
    runtime.store.append(gid, [codec.encode(events[0]), codec.encode(TableSet(clock={"initial": 60}))],
                         expected_version=0, meta=json.dumps(meta).encode())
    runtime.store.append(gid, [codec.encode(e) for e in events[1:]], expected_version=None)
    states = States(runtime.store)
    states.snapshots.every = EVERY
    last = runtime.store.version(gid)
    assert same(states.at_version(gid, last), fresh_fold(runtime, gid, last))
    assert runtime.redis.hlen(runtime.store.keys.snapshots(gid)) == last // EVERY > 0
    again = States(runtime.store)  # from the snapshots: every document the same
    again.snapshots.every = EVERY
    for version in range(EVERY, last + 1):
        assert all_documents(again.at_version(gid, version)) == all_documents(fresh_fold(runtime, gid, version))
