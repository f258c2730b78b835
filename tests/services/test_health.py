"""``services/health.py``: ``GET /api/health``'s check says what is wrong with each Redis, and never waits on a
stalled one past its deadline (the fault drills check it against real, stalled servers:
``tests/reliability/test_faults.py``)."""

from __future__ import annotations

import threading

import redis

from services.health import Health
from tests.reliability.live import wait_until


class Stub:
    """A Redis client whose PING blocks until ``release`` is set, or fails, and whose memory is as given."""

    def __init__(self, used: int = 10, maxmemory: int = 0, fail: Exception | None = None):
        self.release = threading.Event()
        self.release.set()
        self.pings = 0
        self.memory = {"used_memory": used, "maxmemory": maxmemory}
        self.fail = fail

    def ping(self) -> bool:
        self.pings += 1
        self.release.wait()
        if self.fail:
            raise self.fail
        return True

    def info(self, section: str) -> dict:
        return self.memory

    def pipeline(self, transaction: bool = True) -> Stub:
        self.queued = []
        return self

    def execute(self, raise_on_error: bool = True) -> list:
        try:
            return [self.ping(), self.info("memory")]
        except Exception as exc:  # noqa: BLE001 - as redis-py's pipeline raises the first error
            raise exc


def test_healthy():
    assert Health({"events": Stub()}, {"events": "redis://h:1/0"}).check() == \
        {"ok": True, "problems": [], "redis": {"events": "redis://h:1/0"}}


def test_unreachable_and_full_are_named():
    found = Health({"events": Stub(fail=redis.ConnectionError("refused")),
                    "queues": Stub(used=97, maxmemory=100)}).check()
    assert not found["ok"]
    assert found["problems"] == ["redis (events) is unreachable: ConnectionError",
                                 "redis (queues) is nearly full: 97% of its maxmemory; writes will be refused"]


def test_a_stalled_redis_is_too_slow_and_its_check_is_not_started_twice():
    stalled = Stub()
    stalled.release.clear()
    health = Health({"events": Stub(), "queues": stalled})
    for _ in range(3):
        found = health.check(deadline=0.05)
        assert found["problems"] == ["redis (queues) did not answer within 0.05 s"]
    assert stalled.pings == 1  # one check in flight at a time: a stalled Redis piles up no threads
    stalled.release.set()
    wait_until(lambda: health.check()["ok"], 5, what="the stalled Redis's check to end")
