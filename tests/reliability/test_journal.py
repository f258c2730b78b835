"""The embedded mode's journal under crashes and concurrency: it always loads back, every appended event in order.

(The journal belongs to the embedded store, an in-process fakeredis; the end-to-end kill test of ``burrow serve``
in embedded mode is in ``test_process_crashes.py``.)
"""

from __future__ import annotations

import json
import threading
import time

import fakeredis
import msgspec

from services.store.journal import JournaledEventStore
from services.store.streams import EventStore, Keys

KEYS = Keys("j")
META = json.dumps({"id": "g1", "game": "murus", "players": []}).encode()


def journaled(directory) -> JournaledEventStore:
    return JournaledEventStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), KEYS, directory)


def ev(n: int) -> tuple[str, bytes]:
    return ("moved", msgspec.msgpack.encode({"n": n}))


def reloaded(directory) -> JournaledEventStore:
    store = journaled(directory)
    assert store.load() == 1
    return store


def test_racing_appends_reach_the_journal_in_version_order(tmp_path, monkeypatch):
    """Two appends to one game from two threads: the later version may not overtake the earlier one on disk."""
    store = journaled(tmp_path)
    store.append("g1", [ev(1)], expected_version=0, meta=META)
    real_append = EventStore.append
    in_redis = threading.Event()

    def slow_after_redis(self, *args, **kwargs):
        outcome = real_append(self, *args, **kwargs)
        if threading.current_thread().name == "slow":
            in_redis.set()
            time.sleep(0.3)  # descheduled between the store and the journal
        return outcome

    monkeypatch.setattr(EventStore, "append", slow_after_redis)
    slow = threading.Thread(target=store.append, args=("g1", [ev(2)]), kwargs={"expected_version": 1},
                            name="slow")
    slow.start()
    assert in_redis.wait(10)
    store.append("g1", [ev(3)], expected_version=2)
    slow.join(10)
    monkeypatch.undo()
    again = reloaded(tmp_path)
    assert [(e.version, msgspec.msgpack.decode(e.data)) for e in again.read("g1")] == \
        [(1, {"n": 1}), (2, {"n": 2}), (3, {"n": 3})]


def test_a_line_cut_short_by_a_crash_does_not_spoil_later_appends(tmp_path):
    store = journaled(tmp_path)
    store.append("g1", [ev(1)], expected_version=0, meta=META)
    store.append("g1", [ev(2)], expected_version=1)
    with open(tmp_path / "g1.jsonl", "a", encoding="utf-8") as f:
        f.write('{"version": 3, "type": "mov')  # the process died in the middle of this write
    after_crash = reloaded(tmp_path)
    assert after_crash.version("g1") == 2  # the unacknowledged half event is dropped
    after_crash.append("g1", [ev(3)], expected_version=2)
    assert [e.version for e in reloaded(tmp_path).read("g1")] == [1, 2, 3]
