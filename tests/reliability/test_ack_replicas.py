"""``BURROW_ACK_REPLICAS``: an append is acknowledged only once a replica has it (WAIT on the connection that ran
the append script). Not confirmed in time, it answers 503 (``NotReplicated``); the same command id sent again
never appends twice, and answers the first result once a replica confirms it.

Against a private master and a replica started here (the deployment test does the same on a Redis Cluster).
"""

from __future__ import annotations

import pytest
import redis

from services import errors
from services.games.commands import GameService
from services.games.states import States
from services.store.streams import EventStore, Keys, NotReplicated
from tests.conftest import RedisProcess
from tests.reliability.conftest import require_redis_server
from tests.reliability.live import wait_until

pytestmark = pytest.mark.slow  # replicated redis-servers started here: the full run's


@pytest.fixture
def master():
    require_redis_server()
    server = RedisProcess().start()
    yield server
    server.stop()


def test_an_append_no_replica_confirmed_is_refused_and_its_retry_never_appends_twice(master, prefix):
    store = EventStore(redis.Redis(port=master.port), Keys(prefix), ack_replicas=1, ack_timeout_ms=50)
    plain = EventStore(redis.Redis(port=master.port), Keys(prefix))
    plain.append("g1", [("moved", b"a")], expected_version=0, meta=b"{}")
    with pytest.raises(NotReplicated, match="same command_id"):
        store.append("g1", [("moved", b"b")], expected_version=1, command_id="0:c1", result=b"2-2")
    assert store.version("g1") == 2  # on the master, not acknowledged
    for _ in range(2):  # the client sends it again: nothing appended twice
        with pytest.raises(NotReplicated):
            store.append("g1", [("moved", b"b")], expected_version=1, command_id="0:c1", result=b"2-2")
    assert store.version("g1") == 2

    replica = RedisProcess("--replicaof", "127.0.0.1", str(master.port)).start()
    try:
        mirror = redis.Redis(port=replica.port)
        wait_until(lambda: mirror.info("replication").get("master_link_status") == "up", 30, what="replica")
        # a generous timeout now that a replica answers (the machine may be loaded): this is no timing test
        store = EventStore(redis.Redis(port=master.port), Keys(prefix), ack_replicas=1, ack_timeout_ms=5000)
        again = store.append("g1", [("moved", b"b")], expected_version=1, command_id="0:c1", result=b"2-2")
        assert again.duplicate and again.stored == b"2-2" and store.version("g1") == 2  # the first result
        result = store.append("g1", [("moved", b"c")], expected_version=2, command_id="0:c2", result=b"3-3")
        assert result.version == 3
        assert mirror.xlen(store.keys.game("g1")) == 3  # acknowledged: the replica already has it
    finally:
        replica.stop()


def test_the_service_answers_503_with_the_reason(master, prefix):
    store = EventStore(redis.Redis(port=master.port), Keys(prefix), ack_replicas=1, ack_timeout_ms=50)
    with pytest.raises(errors.Unavailable, match="replica"):
        GameService(States(store)).create("murus", [{"name": "Ana"}, {"name": "Bob"}])
