"""The whole service as it is deployed past one Redis, started here: a Redis Cluster of 3 masters + 3 replicas, RQ
on a plain redis-server, two web processes (``burrow serve --web-only``), two workers (every queue) and two
dispatchers sharing 8 partitions — all separate processes on loopback ports, killed by this module when it ends.

Commands are acknowledged only once a replica has them (``BURROW_ACK_REPLICAS=1``). The tests play every game with
AI seats to its end through HTTP and verify each replay, SIGKILL a dispatcher under load (the other takes its
partitions' pending entries over), and SIGKILL a master under load (its replica takes over; nothing acknowledged is
lost). ``bench/cluster.py --drill`` measures the same failover's times, and the window without the WAIT.
"""

from __future__ import annotations

import os

import pytest
import redis
from redis.cluster import RedisCluster

from burrow.cli import main as burrow
from services.store.streams import Keys
from tests.reliability.deployment import Cluster, Deployment, have_cluster_tools, lost_acknowledged
from tests.reliability.live import Players, assert_acknowledged_present, wait_until
from tests.reliability.test_process_crashes import settled

pytestmark = pytest.mark.slow  # the whole deployment started here, about a minute: the full run's

PARTITIONS = 8
CONVERGE_SECONDS = 90
# Every game, a person against AI seats; short games (max_plies) so that the module stays within CI's budget.
GAMES = [
    {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bot", "ai": "easy"}], "options": {"max_plies": 40}},
    {"game": "mouseguard", "players": [{"name": "Bot", "ai": "easy"}, {"name": "Ben"}],
     "options": {"max_plies": 40}},
    {"game": "squirrels", "players": [{"name": "Cy"}, {"name": "Bot", "ai": "easy"},
                                      {"name": "Bea", "ai": "easy"}], "options": {"max_plies": 30}},
    {"game": "commando", "players": [{"name": "Dee"}, {"name": "Bot", "ai": "easy"}],
     "options": {"max_plies": 40}},
]
# Load: Mouse Guard between two people playing at random lasts hundreds of commands (Murus about 30).
LOAD = [{"game": "mouseguard", "players": [{"name": "Ana"}, {"name": "Bob"}]}]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    if not have_cluster_tools():
        if os.environ.get("CI"):
            pytest.fail("redis-server and redis-cli are required in CI")
        pytest.skip("no redis-server/redis-cli on this machine: the deployment tests start a Redis Cluster")
    cluster = Cluster(masters=3, replicas=1).start()
    try:
        deployment = Deployment(tmp_path_factory.mktemp("deployment"), cluster, PARTITIONS,
                                env={"BURROW_ACK_REPLICAS": "1", "BURROW_ACK_TIMEOUT_MS": "500"})
        deployment.start(webs=2, workers=2, dispatchers=2)
        try:
            yield deployment
        finally:
            deployment.stop()
    finally:
        cluster.stop()


def create(deployment: Deployment, specs: list[dict], copies: int = 1) -> list[tuple[int, dict]]:
    """Create the games, alternating between the web processes: (web index, created game)."""
    made = []
    for i, spec in enumerate(specs * copies):
        web = i % len(deployment.webs)
        status, game = deployment.webs[web].http().request("POST", "/api/games", spec)[:2]
        assert status == 201, game
        made.append((web, game))
    return made


def play(deployment: Deployment, made: list[tuple[int, dict]], seed: int, resend: bool = False) -> list[Players]:
    """One ``Players`` per web process, each playing the games created there."""
    return [Players(web.port, [g for w, g in made if w == i], seed=seed * 10 + i, resend=resend).start()
            for i, web in enumerate(deployment.webs) if any(w == i for w, _ in made)]


def acked(players: list[Players]) -> int:
    return sum(p.count() for p in players)


def store_client(deployment: Deployment) -> RedisCluster:
    return RedisCluster.from_url("redis://" + deployment.cluster.url.removeprefix("redis+cluster://"))


def converge_and_verify(deployment: Deployment, gids: list[str], monkeypatch, capsys) -> None:
    """Projections reach every game's version by themselves; ``burrow replay --verify`` agrees for each game."""
    keys = Keys(deployment.prefix, PARTITIONS)
    client = store_client(deployment)
    try:
        wait_until(lambda: all(settled(client, keys, gid) for gid in gids), CONVERGE_SECONDS,
                   what="projections to converge")
    finally:
        client.close()
    monkeypatch.setenv("BURROW_PREFIX", deployment.prefix)
    monkeypatch.setenv("BURROW_PARTITIONS", str(PARTITIONS))
    monkeypatch.setenv("RQ_URL", deployment.queues.url)
    monkeypatch.setenv("BURROW_QUEUES", deployment.prefix)
    for gid in gids:
        assert burrow(["replay", gid, "--verify", "--redis", deployment.cluster.url]) == 0, capsys.readouterr().out
        assert "verify: OK" in capsys.readouterr().out


def test_every_game_with_ai_seats_played_to_the_end_on_the_cluster(deployment, monkeypatch, capsys):
    made = create(deployment, GAMES, copies=2)
    players = play(deployment, made, seed=1)
    try:
        wait_until(lambda: not any(p.playing() for p in players), 150, step=0.5, what="every game to end")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; still played (status, version, to act): "
                             f"{[p.unfinished() for p in players]}") from None
    for p in players:
        p.finish()
    http = deployment.webs[0].http()
    for _, game in made:  # (a projection may trail the game's end by a moment: reads are eventually consistent)
        wait_until(lambda gid=game["id"]: http.get(f"/api/games/{gid}")[1].get("status") == "finished", 30,
                   what=f"game {game['id']} to be seen finished")
    keys = Keys(deployment.prefix, PARTITIONS)
    # Spread over masters, without counting on random ids to land apart: the partitions' logs span the masters,
    # and every game lives on the master of its partition's log.
    node = deployment.cluster.node_of
    assert len({node(keys.log(p)).port for p in range(PARTITIONS)}) >= 2
    assert all(node(keys.game(g["id"])).port == node(keys.log(keys.partition(g["id"]))).port for _, g in made)
    converge_and_verify(deployment, [g["id"] for _, g in made], monkeypatch, capsys)
    for p in players:
        assert_acknowledged_present(http, p.acked)
    # burrow doctor sees the whole deployment: every partition on the cluster, both dispatchers, both workers
    assert burrow(["doctor", "--redis", deployment.cluster.url]) == 0, capsys.readouterr().out


def pending(client: RedisCluster, keys: Keys) -> dict[str, int]:
    """Consumer → log entries pending for it, over every partition."""
    counts: dict[str, int] = {}
    for p in range(keys.partitions):
        try:
            consumers = client.xinfo_consumers(keys.log(p), "dispatch")
        except redis.ResponseError:
            continue
        for consumer in consumers:
            name = consumer["name"].decode() if isinstance(consumer["name"], bytes) else consumer["name"]
            counts[name] = counts.get(name, 0) + consumer["pending"]
    return counts


def test_a_dispatcher_killed_under_load_its_partitions_are_taken_over(deployment, monkeypatch, capsys):
    keys = Keys(deployment.prefix, PARTITIONS)
    made = create(deployment, [*LOAD * 6, GAMES[0]])
    players = play(deployment, made, seed=2)
    client = store_client(deployment)
    try:
        wait_until(lambda: acked(players) >= 40, 120, what="load")
        victim = next(d for d in deployment.dispatchers if d.alive())
        consumer_prefix = f"-{victim.proc.pid}-"
        names = list(pending(client, keys))
        assert sum(consumer_prefix in n for n in names) == 1 and len(names) >= 2  # both consume every log
        victim.kill()
        before = acked(players)
        wait_until(lambda: acked(players) >= before + 40, 120, what="play to go on")
        for p in players:
            p.finish()
        converge_and_verify(deployment, [g["id"] for _, g in made], monkeypatch, capsys)
        def taken_over() -> bool:  # the dead consumer's pending entries claimed by the other (XAUTOCLAIM)
            left = {n: c for n, c in pending(client, keys).items() if consumer_prefix in n}
            return bool(left) and all(c == 0 for c in left.values())

        wait_until(taken_over, 30, what="the dead dispatcher's pending entries to be claimed")
    finally:
        client.close()
    deployment.add_dispatcher()  # back to two for the next test


def test_a_master_killed_under_load_loses_no_acknowledged_command(deployment, monkeypatch, capsys):
    keys = Keys(deployment.prefix, PARTITIONS)
    cluster = deployment.cluster
    made = create(deployment, [*LOAD * 8, GAMES[0]])
    gids = [g["id"] for _, g in made]
    by_master: dict[int, list[str]] = {}
    for gid in gids:
        by_master.setdefault(cluster.node_of(keys.game(gid)).port, []).append(gid)
    victim_port = max(by_master, key=lambda port: len(by_master[port]))
    victim = next(n for n in cluster.nodes if n.port == victim_port)
    on_victim = set(by_master[victim_port])
    players = play(deployment, made, seed=3, resend=True)
    wait_until(lambda: acked(players) >= 60, 120, what="load")
    victim.kill()
    before = dict.fromkeys(on_victim, 0)
    for p in players:
        for gid, _, _ in list(p.acked):
            if gid in on_victim:
                before[gid] += 1
    # its replica is promoted; with ACK_REPLICAS=1 that shard answers 503 until it has a replica again, so the
    # killed node comes back (as a supervisor would restart it) and rejoins as the new master's replica
    wait_until(lambda: victim_port not in cluster.masters() and len(cluster.masters()) == 3, 60,
               what="the replica to take over")
    victim.start()
    cluster.wait_healthy()

    def shard_moves_again() -> bool:
        after = sum(1 for p in players for gid, _, _ in list(p.acked) if gid in on_victim)
        return after >= sum(before.values()) + 10

    wait_until(shard_moves_again, 120, what="the failed shard's games to be played again")
    for p in players:
        p.finish()
    http = deployment.webs[1].http()
    for p in players:
        assert lost_acknowledged(http, p.acked) == []
    converge_and_verify(deployment, gids, monkeypatch, capsys)
    outcomes = sum((p.outcomes for p in players), start=type(players[0].outcomes)())
    print(f"\nfailover drill: {acked(players)} acknowledged, outcomes {dict(outcomes)}")
    assert not outcomes.get(500)


def test_without_ack_replicas_a_failed_shard_recovers_by_itself(deployment):
    """Without the WAIT, the promoted replica takes writes at once: the service recovers with no restart at all
    (what it may lose meanwhile is measured by ``bench/cluster.py``, docs/scaling.md)."""
    keys = Keys(deployment.prefix, PARTITIONS)
    cluster = deployment.cluster
    web = deployment.add_web(BURROW_ACK_REPLICAS="0")
    made = []
    for _ in range(8):
        status, game = web.http().post("/api/games", LOAD[0])
        assert status == 201, game
        made.append(game)
    by_master: dict[int, set[str]] = {}
    for game in made:
        by_master.setdefault(cluster.node_of(keys.game(game["id"])).port, set()).add(game["id"])
    victim_port = max(by_master, key=lambda port: len(by_master[port]))
    shard = by_master[victim_port]
    players = Players(web.port, made, seed=4, resend=True).start()
    try:
        wait_until(lambda: players.count() >= 40, 120, what="load")
        next(n for n in cluster.nodes if n.port == victim_port).kill()
        killed = players.count()
        shard_acks = sum(1 for gid, _, _ in list(players.acked) if gid in shard)
        wait_until(lambda: sum(1 for gid, _, _ in list(players.acked) if gid in shard) >= shard_acks + 10, 120,
                   what="the failed shard's games to be played again, nothing restarted")
        assert players.count() > killed
        assert victim_port not in cluster.masters()
    finally:
        players.finish()
    assert not players.outcomes.get(500), players.samples.get(500)
