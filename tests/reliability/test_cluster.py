"""Scale-out: the event store's contract on a three-node Redis Cluster (loopback ports, started here), with several
partitions spread over the nodes, and the dispatcher serving every partition of a cluster-backed runtime.

Every append touches one hash slot (``{pN}``), so Redis Cluster runs each Lua script on one node; a script that
touched two slots would fail there with CROSSSLOT.
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest
import redis
from redis.cluster import RedisCluster

from burrow.runtime import build, install
from services.config import Settings
from services.store.log import LOG_GROUP as GROUP
from services.store.streams import EventStore, Keys, StoreUnavailable
from tests.conftest import RedisProcess, run_jobs
from tests.reliability.conftest import require_redis_server
from tests.reliability.deployment import cluster_ports
from tests.store import test_store_contract as contract
from workers.dispatcher import Dispatcher

pytestmark = pytest.mark.slow  # Redis Clusters started here: the full run's (pytest -m 'not slow' skips it)

NODES = 3


@pytest.fixture(scope="module")
def cluster():
    """Three cluster-enabled redis-servers on loopback ports, joined with ``redis-cli --cluster create``."""
    require_redis_server()
    if shutil.which("redis-cli") is None:
        pytest.skip("no redis-cli on this machine")
    nodes = [RedisProcess("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                          "--cluster-node-timeout", "5000", "--appendonly", "no") for _ in range(NODES)]
    for node, port in zip(nodes, cluster_ports(NODES)):
        node.port = port
    try:
        for node in nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in nodes]
        subprocess.run(["redis-cli", "--cluster", "create", *addresses, "--cluster-replicas", "0",
                        "--cluster-yes"], check=True, capture_output=True, timeout=60)
        for node in nodes:
            client = redis.Redis(port=node.port)
            for _ in range(300):
                if b"cluster_state:ok" in client.execute_command("CLUSTER", "INFO"):
                    break
                time.sleep(0.05)
            else:
                pytest.fail("the cluster did not come up")
        yield nodes
    finally:
        for node in nodes:
            node.stop()


@pytest.fixture
def cluster_client(cluster):
    client = RedisCluster(host="127.0.0.1", port=cluster[0].port)
    yield client
    client.close()


# The contract tests of tests/store, collected here once more, on the cluster.
for _name in dir(contract):
    if _name.startswith("test_"):
        globals()[_name] = getattr(contract, _name)


@pytest.fixture(params=[4, 8], ids=["p4", "p8"])
def store(cluster_client, prefix, request):
    store = EventStore(cluster_client, Keys(prefix, partitions=request.param))
    yield store
    for gid in list(store.game_ids()):
        cluster_client.delete(store.keys.game(gid), store.keys.cmds(gid))
    for p in range(store.keys.partitions):
        cluster_client.delete(store.keys.log(p))


def test_partitions_spread_over_the_nodes(cluster_client, prefix):
    keys = Keys(prefix, partitions=8)
    nodes = {cluster_client.get_node_from_key(keys.log(p)).name for p in range(keys.partitions)}
    assert len(nodes) >= 2


def test_game_ids_finds_games_on_every_node(cluster_client, prefix):
    store = EventStore(cluster_client, Keys(prefix, partitions=8))
    gids = [f"g{i}" for i in range(24)]
    for gid in gids:
        store.append(gid, [("moved", b"x")], expected_version=0, meta=b"{}")
    assert len({cluster_client.get_node_from_key(store.keys.game(g)).name for g in gids}) >= 2
    assert sorted(store.game_ids()) == sorted(gids)


@pytest.fixture
def cluster_runtime(cluster, prefix):
    """A runtime on ``redis+cluster://`` (8 partitions); RQ's queues on a plain private redis-server, as RQ needs
    (``RQ_URL``)."""
    queues = RedisProcess().start()
    settings = Settings(redis_url=f"redis+cluster://127.0.0.1:{cluster[1].port}/0", rq_url=queues.url,
                        prefix=prefix, partitions=8, claim_idle_ms=0)
    runtime = build(settings, journal=False)
    assert isinstance(runtime.redis, RedisCluster)
    install(runtime)
    yield runtime
    queues.stop()


def test_dispatcher_serves_every_partition_of_a_cluster(cluster_runtime):
    rt = cluster_runtime
    rt.service.jobs = None  # only the dispatcher pokes the workers
    games = [rt.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}]) for _ in range(16)]
    while len({rt.store.keys.partition(g["id"]) for g in games}) < 4:  # ids are random: no counting on luck
        games.append(rt.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}]))
    games.append(rt.service.create("murus", [{"name": "Bot", "ai": "easy"}, {"name": "Ana"}], seed=3))
    for g in games[:8]:
        rt.service.command(g["id"], 0, "a1-a3")
    dispatcher = Dispatcher(rt, consumer="c1")
    for _ in range(20):  # bounded: dispatch, run the jobs, until every entry is acknowledged
        dispatcher.run_once(block_ms=10)
        run_jobs(rt)
        if all(rt.redis.xpending(rt.store.keys.log(p), GROUP)["pending"] == 0 for p in range(8)) and \
                rt.store.version(games[-1]["id"]) >= 2:
            break
    for g in games:
        assert rt.projector.projected(g["id"]) == rt.store.version(g["id"])
    assert rt.store.version(games[-1]["id"]) >= 2  # the AI seat played, through an ai_turn job
    assert {line["id"] for line in rt.projector.lobby()} == {g["id"] for g in games}
    assert rt.projector.rebuild() == len(games)


def test_the_api_on_a_cluster(cluster_runtime):
    from web.app import create_app

    api = create_app(cluster_runtime).test_client()
    assert api.get("/api/health").json["redis"].startswith("redis+cluster://")
    created = api.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}).json
    token = created["seats"][0]["token"]
    moved = api.post(f"/api/games/{created['id']}/commands", json={"move": "a1-a3", "command_id": "c"},
                     headers={"Authorization": f"Bearer {token}"})
    assert moved.status_code == 200
    doc = api.get(f"/api/games/{created['id']}?min_version={moved.json['version']}").json
    assert doc["version"] == moved.json["version"]
    assert [e["version"] for e in api.get(f"/api/games/{created['id']}/events").json["events"]] == \
        list(range(1, doc["version"] + 1))


@pytest.mark.parametrize("error", [redis.exceptions.ClusterDownError("CLUSTERDOWN The cluster is down"),
                                   redis.exceptions.SlotNotCoveredError("Slot 9 is not covered by the cluster."),
                                   redis.exceptions.TryAgainError("TRYAGAIN"),
                                   redis.exceptions.MovedError("3999 127.0.0.1:6381")])
def test_a_cluster_failing_over_is_a_503_not_a_500(api, rt, monkeypatch, error):
    """What a failover raises in redis-py's cluster client (a slot without a master for a moment, a slot map gone
    stale) is 'unavailable, try again', like a Redis that does not answer; the client refreshes its map itself."""
    created = api.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}).json

    def failing(*args, **kwargs):
        raise error

    monkeypatch.setattr(rt.store, "read", failing)
    monkeypatch.setattr(rt.store, "entries", failing)
    monkeypatch.setattr(rt.games, "_cache", type(rt.games._cache)())
    answer = api.post(f"/api/games/{created['id']}/commands", json={"move": "a1-a3"},
                      headers={"Authorization": f"Bearer {created['seats'][0]['token']}"})
    assert answer.status_code == 503, answer.json
    assert answer.json["error"]["code"] == "store_unavailable"


def test_an_append_follows_a_slot_being_resharded(cluster, cluster_client, prefix):
    """Resharding (``redis-cli --cluster rebalance``) moves a partition's slot key by key. A game whose keys are
    all still on the old node is served there; one whose keys have all moved gets ASK, and the append asks the new
    node (ASKING) and lands there; a game split between the two, or a new one, gets TRYAGAIN (an append's keys
    must be together): 503, nothing appended, until the slot has moved. Then MOVED: the slot map is read again."""
    keys = Keys(prefix, partitions=16)  # partitions 8-15: slots no other test of this module uses
    gids = [g for g in (f"g{i}" for i in range(5000)) if keys.partition(g) == 12][:2]
    moved, new = gids
    slot = cluster_client.keyslot(keys.game(moved))
    source = cluster_client.get_node_from_key(keys.game(moved))
    target = next(n for n in cluster_client.get_primaries() if n.name != source.name)

    def node_id(node) -> str:
        return redis.Redis(host=node.host, port=node.port).execute_command("CLUSTER", "MYID").decode()

    src, dst = redis.Redis(host=source.host, port=source.port), redis.Redis(host=target.host, port=target.port)
    store = EventStore(cluster_client, keys)
    store.set_seat_hashes(moved, {0: "h"})
    store.append(moved, [("moved", b"a")], expected_version=0, meta=b"{}")
    store.append(moved, [("moved", b"b")], expected_version=1, command_id="0:c1", result=b"2-2")
    dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", node_id(source))
    src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", node_id(target))
    try:
        assert store.append(moved, [("moved", b"c")], expected_version=2).version == 3  # all still on the source
        own = [keys.game(moved), keys.cmds(moved), keys.seats(moved), keys.log_of(moved)]
        src.execute_command("MIGRATE", target.host, target.port, "", 0, 5000, "KEYS", *own)
        assert store.append(moved, [("moved", b"d")], expected_version=3).version == 4  # ASK: on the target
        assert dst.execute_command("ASKING") and dst.xlen(keys.game(moved)) == 4
        with pytest.raises(StoreUnavailable):  # its keys neither here nor there: TRYAGAIN until the slot moved
            store.append(new, [("moved", b"x")], expected_version=0, meta=b"{}")
    finally:  # the migration finished: the slot belongs to the target now, on every node
        for node in cluster_client.get_primaries():
            redis.Redis(host=node.host, port=node.port).execute_command("CLUSTER", "SETSLOT", slot, "NODE",
                                                                        node_id(target))
    assert store.append(new, [("moved", b"x")], expected_version=0, meta=b"{}").version == 1  # MOVED, followed
    assert [e.data for e in store.read(moved)] == [b"a", b"b", b"c", b"d"] and store.version(new) == 1
