"""The event store's contract, run against fakeredis and a real redis-server alike."""

from __future__ import annotations

import threading

import pytest

from services.store.streams import ConcurrencyError, EventStore, Keys


@pytest.fixture(params=[1, 4], ids=["p1", "p4"])
def store(redis_client, prefix, request):
    return EventStore(redis_client, Keys(prefix, partitions=request.param))


def ev(n: int) -> tuple[str, bytes]:
    return ("moved", f"payload-{n}".encode())


def test_append_assigns_versions_from_one(store):
    r = store.append("g1", [ev(1), ev(2)], expected_version=0, meta=b'{"game": "murus", "players": []}')
    assert r.version == 2
    assert [e.version for e in store.read("g1")] == [1, 2]
    assert store.meta("g1") == {"game": "murus", "players": []}
    assert store.version("g1") == 2


def test_stale_version_conflicts_and_writes_nothing(store):
    store.append("g1", [ev(1)], expected_version=0, meta=b"{}")
    with pytest.raises(ConcurrencyError) as info:
        store.append("g1", [ev(2)], expected_version=0, command_id="c1", result=b"r")
    assert info.value.current == 1
    assert store.version("g1") == 1
    assert store.command_result("g1", "c1") is None
    assert store.redis.xlen(store.keys.log_of("g1")) == 1


def test_retry_with_same_command_id_returns_first_result(store):
    store.append("g1", [ev(1)], expected_version=0, meta=b"{}")
    first = store.append("g1", [ev(2)], expected_version=1, command_id="c1", result=b"first")
    again = store.append("g1", [ev(3)], expected_version=1, command_id="c1", result=b"second")
    assert first.version == 2 and not first.duplicate
    assert again.duplicate and again.stored == b"first"
    assert store.version("g1") == 2


def test_racing_writers_one_winner_no_gaps(store):
    store.append("g1", [ev(0)], expected_version=0, meta=b"{}")
    barrier = threading.Barrier(8)
    outcomes = []

    def writer(i):
        barrier.wait()
        try:
            store.append("g1", [ev(i), ev(i + 100)], expected_version=1)
            outcomes.append("won")
        except ConcurrencyError:
            outcomes.append("lost")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["lost"] * 7 + ["won"]
    assert [e.version for e in store.read("g1")] == [1, 2, 3]


def test_partition_log_order_equals_per_game_order(store):
    games = [f"g{i}" for i in range(6)]
    for g in games:
        store.append(g, [ev(0)], expected_version=0, meta=b"{}")
    for round_ in range(1, 5):
        for g in games:
            store.append(g, [ev(round_)], expected_version=round_)
    seen: dict[str, list[int]] = {}
    for p in range(store.keys.partitions):
        for _, fields in store.redis.xrange(store.keys.log(p)):
            seen.setdefault(fields[b"gid"].decode(), []).append(int(fields[b"v"]))
    assert seen == {g: [1, 2, 3, 4, 5] for g in games}


def test_every_key_of_one_append_shares_a_hash_slot(store):
    keys = [store.keys.game("abc"), store.keys.cmds("abc"), store.keys.log_of("abc"), store.keys.seats("abc"),
            store.keys.view("abc"), store.keys.ckpt("abc"), store.keys.lobby_of("abc")]
    tags = {k[k.index("{"): k.index("}") + 1] for k in keys}
    assert len(tags) == 1


def test_streams_are_never_trimmed(store):
    store.append("g1", [ev(0)], expected_version=0, meta=b"{}")
    for v in range(1, 1200):
        store.append("g1", [ev(v)], expected_version=v)
    assert store.version("g1") == 1200
    assert len(list(store.read("g1"))) == 1200
    assert [e.version for e in store.read("g1", after=1100, to=1105)] == [1101, 1102, 1103, 1104, 1105]
    assert store.redis.xlen(store.keys.log_of("g1")) == 1200


def test_meta_only_with_the_first_event(store):
    store.append("g1", [ev(0)], expected_version=0, meta=b'{"a": 1}')
    with pytest.raises(ConcurrencyError):
        store.append("g1", [ev(1)], expected_version=None, meta=b'{"a": 2}')
    assert store.meta("g1") == {"a": 1}
    assert store.meta("nope") is None
