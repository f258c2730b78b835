"""Commands per second on one Redis master and on a Redis Cluster of three, per core; the cost of WAIT; a failover
drill with and without ``BURROW_ACK_REPLICAS``.

    python bench/cluster.py [--quick] [--seconds 4] [--clients 4] [--no-drill | --drill-only]

**Throughput and latency.** ``--clients`` client processes (then one alone, for a command's latency) each
play Murus games that never end (``harness.MURUS_LOOP``) through ``GameService.command`` (``expected_version``
and ``command_id``, as the browser sends them; no job sink, so this is the store's side of a command) for
``--seconds``, against: one cluster node holding every slot (one master); three masters; three masters with a
replica each; the same with ``BURROW_ACK_REPLICAS=1`` (each append followed by ``WAIT 1``). 8 partitions, so
three masters hold 2–3 partitions each. Besides commands/s and latency, it reports the CPU seconds spent (client
processes from their own clocks, redis-servers from ``/proc/<pid>/stat``) and so **commands per CPU-second**:
what one fully used core buys, the figure a capacity plan multiplies. On this 2-core machine clients and servers
share the same two cores, so three masters cannot show more throughput than one: what the run shows is the cost
of the cluster path and of WAIT per command, and how the Redis side's work spreads over the masters.

**Drill** (not with ``--quick``): the whole deployment of ``tests/reliability/test_deployment.py`` (3 masters +
3 replicas, node timeout 2 s; RQ on a plain Redis; one web process, one worker, one dispatcher), 8 human-vs-human
Mouse Guard games played through HTTP by clients that send a command again after a 503 (same ``command_id``),
then the master holding most of them SIGKILLed. Measured: failover time (kill → its replica is master), the failed
shard's 503 window (first to last refused command of its games), their longest stall (the longest time between
two acknowledged commands of the shard's games, around the kill), and acknowledged commands lost (an answered
version missing from its game, or there with another type or commit time). Before the kill, the replica's lag is
sampled: commands the master had acknowledged that its replica did not have yet — what a failover would lose.
The script exits 1 if the drill with ``BURROW_ACK_REPLICAS=1`` lost an acknowledged command.
With ``BURROW_ACK_REPLICAS=1`` the promoted replica has no replica of its own, so its shard refuses writes
until the killed node is restarted (3 s after the kill, or at the failover if later) and rejoins as its replica.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

import harness
from harness import median, percentile, table

ROOT = harness.ROOT
PARTITIONS = 8
PLAYERS = [{"name": "Ana"}, {"name": "Bo"}]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def one_master():
    """One cluster-enabled node holding every slot: the same client path as a cluster, on one master."""
    import redis

    from tests.reliability.deployment import Cluster

    cluster = Cluster(masters=1, replicas=0)
    node = cluster.nodes[0]
    node.start()
    client = redis.Redis(port=node.port)
    client.execute_command("CLUSTER", "ADDSLOTSRANGE", 0, 16383)
    for _ in range(300):
        if b"cluster_state:ok" in client.execute_command("CLUSTER", "INFO"):
            return cluster
        time.sleep(0.05)
    cluster.stop()
    raise RuntimeError("the one-node cluster did not come up")


def client_process(url: str, prefix: str, ack: int, games: int, seconds: float, start_at: float, out) -> None:
    """Play ``games`` never-ending games in turn for ``seconds`` from ``start_at``; report latencies and CPU."""
    from services.games.commands import GameService
    from services.games.states import States
    from services.store.connection import connect
    from services.store.streams import EventStore, Keys

    store = EventStore(connect(url), Keys(prefix, PARTITIONS), ack_replicas=ack, ack_timeout_ms=1000)
    service = GameService(States(store), None)
    state = []
    for _ in range(games):
        created = service.create("murus", PLAYERS, {"max_plies": None}, position=harness.MURUS_LOOP_POSITION)
        state.append([created["id"], created["version"], 0])
    while time.time() < start_at:
        time.sleep(0.005)
    cpu0 = time.process_time()
    times = []
    end = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < end:
        game = state[i % games]
        seat, move = harness.murus_loop_move(game[2])
        t = time.perf_counter()
        answer = service.command(game[0], seat, move, expected_version=game[1], command_id=uuid.uuid4().hex)
        times.append(time.perf_counter() - t)
        game[1], game[2] = answer["version"], game[2] + 1
        i += 1
    out.put((times, time.process_time() - cpu0))


def throughput(label: str, cluster, masters: list[int], ack: int, clients: int, seconds: float) -> list:
    prefix = f"b{uuid.uuid4().hex[:6]}"
    queue = multiprocessing.Queue()
    start_at = time.time() + 3.0  # every client has created its games and warmed up by then
    procs = [multiprocessing.Process(target=client_process, args=(cluster.url, prefix, ack, 8, seconds, start_at,
                                                                  queue)) for _ in range(clients)]
    for p in procs:
        p.start()
    while time.time() < start_at:
        time.sleep(0.005)
    servers = [n.proc.pid for n in cluster.alive()]
    before = {pid: cpu_seconds(pid) for pid in servers}
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    after = {pid: cpu_seconds(pid) for pid in servers}
    for p in procs:
        p.join(30)
    times = [t for r, _ in results for t in r]
    client_cpu = sum(c for _, c in results)
    redis_cpu = sum(after[pid] - before[pid] for pid in servers)
    master_pids = {n.proc.pid for n in cluster.alive() if n.port in masters}
    per_master = [after[pid] - before[pid] for pid in master_pids]
    count = len(times)
    return [label, count, count / seconds, median(times) * 1000, percentile(times, 99) * 1000,
            client_cpu / count * 1000 * 1000, redis_cpu / count * 1000 * 1000,
            count / (client_cpu + redis_cpu), max(per_master) / max(sum(per_master), 1e-9)]


def drill(ack: int, workdir: Path) -> list:
    from services.store.streams import Keys
    from tests.reliability.deployment import Cluster, Deployment, lost_acknowledged
    from tests.reliability.live import Players

    cluster = Cluster(masters=3, replicas=1, node_timeout_ms=2000).start()
    deployment = None
    try:
        deployment = Deployment(workdir, cluster, PARTITIONS, env={"BURROW_ACK_REPLICAS": str(ack),
                                                                     "BURROW_ACK_TIMEOUT_MS": "500"})
        deployment.start(webs=1, workers=1, dispatchers=1)
        http = deployment.webs[0].http()
        games = []
        for _ in range(8):
            # Mouse Guard: random games last hundreds of commands (a Murus one ends within about 30)
            status, game = http.post("/api/games", {"game": "mouseguard", "players": PLAYERS})
            assert status == 201, game
            games.append(game)
        keys = Keys(deployment.prefix, PARTITIONS)
        by_port: dict[int, set[str]] = {}
        for game in games:
            by_port.setdefault(cluster.node_of(keys.game(game["id"])).port, set()).add(game["id"])
        victim_port = max(by_port, key=lambda port: len(by_port[port]))
        victim = next(n for n in cluster.nodes if n.port == victim_port)
        shard = by_port[victim_port]
        players = Players(deployment.webs[0].port, games, seed=7, resend=True).start()
        while players.count() < 100:
            time.sleep(0.05)
        gap = replication_gap(cluster, victim_port, players)
        killed = time.monotonic()
        victim.kill()
        promoted = None
        restarted = None
        deadline = killed + 60
        while time.monotonic() < deadline:
            now = time.monotonic()
            if promoted is None and victim_port not in cluster.masters() and len(cluster.masters()) == 3:
                promoted = now - killed
            if ack and restarted is None and promoted is not None and now - killed >= 3:
                victim.start()
                restarted = now - killed
            if not players.playing():
                break  # every game ended
            if promoted is not None and sum(1 for t, outcome, gid in list(players.timeline)
                                            if outcome == 200 and gid in shard and t > killed) >= 20:
                break
            time.sleep(0.05)
        players.finish()
        shard_events = [(t - killed, outcome) for t, outcome, gid in players.timeline
                        if gid in shard and t > killed]
        refused = [t for t, outcome in shard_events if outcome != 200]
        acks = sorted(t - killed for t, outcome, gid in players.timeline
                      if outcome == 200 and gid in shard and t > killed - 1)
        stall = max((b - a for a, b in zip(acks, acks[1:])), default=float("nan"))
        lost = len(lost_acknowledged(http, players.acked))
        return [f"ACK_REPLICAS={ack}", *gap, promoted if promoted is not None else float("nan"),
                restarted if restarted is not None else "–",
                (max(refused) - min(refused)) if refused else 0.0, len(refused), stall,
                len(players.acked), lost]
    finally:
        if deployment is not None:
            deployment.stop()
        cluster.stop()


def replication_gap(cluster, master_port: int, players, samples: int = 200) -> tuple[float, float]:
    """What a master holds that its replica has not applied yet, sampled under load every 5 ms: the master's
    replication offset minus the replica's own (read just after), in commands — (max, p99) — counting every byte
    the master replicates per command acknowledged meanwhile (projections and the dispatcher's writes included).
    An acknowledged command a failover can lose is one of those."""
    import redis

    master = redis.Redis(port=master_port)
    replica = next(redis.Redis(port=n.port) for n in cluster.alive()
                   if redis.Redis(port=n.port).info("replication").get("master_port") == master_port)
    start_offset, start_count = master.info("replication")["master_repl_offset"], players.count()
    gaps = []
    for _ in range(samples):
        ahead = master.info("replication")["master_repl_offset"]
        behind = replica.info("replication")["slave_repl_offset"]
        gaps.append(max(0, ahead - behind))
        time.sleep(0.005)
    grown = master.info("replication")["master_repl_offset"] - start_offset
    commands = max(1, players.count() - start_count)
    per_command = grown / commands
    return max(gaps) / per_command, percentile(gaps, 99) / per_command


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=4.0)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--no-drill", action="store_true")
    p.add_argument("--drill-only", action="store_true")
    args = p.parse_args(argv)
    if args.quick:
        args.seconds, args.clients, args.no_drill = 1.0, 2, True
    harness.header("Redis Cluster: commands per second on 1 and 3 masters, the cost of WAIT, a failover drill",
                   argv if argv is not None else sys.argv[1:])
    from tests.reliability.deployment import Cluster

    rows, alone = [], []
    setups = [("1 master", lambda: one_master(), 0), ("3 masters", lambda: Cluster(3, 0).start(), 0)]
    if not args.quick:
        setups += [("3 masters + 3 replicas", lambda: Cluster(3, 1).start(), 0),
                   ("3 + 3, ACK_REPLICAS=1 (WAIT)", lambda: Cluster(3, 1).start(), 1)]
    for label, make, ack in [] if args.drill_only else setups:
        cluster = make()
        try:
            rows.append(throughput(label, cluster, list(cluster.masters()), ack, args.clients, args.seconds))
            one = throughput(label, cluster, list(cluster.masters()), ack, 1, args.seconds)
            alone.append([label, one[1], one[3], one[4], one[6]])
        finally:
            cluster.stop()
    if rows:
        table(["store", "commands", "commands/s", "median ms", "p99 ms", "client CPU µs/cmd", "Redis CPU µs/cmd",
               "commands per CPU-second", "busiest master's share of Redis CPU"], rows,
              title=f"GameService.command from {args.clients} client processes for {args.seconds:g} s each, "
                    f"{PARTITIONS} partitions ({os.cpu_count()} cores shared by clients and servers)")
    if alone:
        table(["store", "commands", "median ms", "p99 ms", "Redis CPU µs/cmd"], alone,
              title="Latency: one client process, one command at a time (what WAIT adds to a command)")
    if not args.no_drill:
        with tempfile.TemporaryDirectory(prefix="burrow-bench-drill-") as tmp:
            drills = []
            for ack in (0, 1):
                (Path(tmp) / f"ack{ack}").mkdir()
                drills.append(drill(ack, Path(tmp) / f"ack{ack}"))
        table(["setting", "replica behind, max commands", "p99 commands", "failover s (kill → replica is master)",
               "killed node restarted at s",
               "shard's 503 window s", "refused commands", "longest stall of the shard's games s",
               "acknowledged", "acknowledged lost"], drills,
              title="Failover drill: a master SIGKILLed under HTTP load (8 Mouse Guard games, node timeout 2 s)")
        for failure in drill_failures(drills):
            print(f"cluster: {failure}", file=sys.stderr)
            return 1
    return 0


def drill_failures(drills: list[list]) -> list[str]:
    """The promise the drill checks, broken: with WAIT (``ACK_REPLICAS=1``) no acknowledged command is lost.
    Without it a failover may lose what the replica had not applied yet: that is what the drill measures."""
    lost = sum(row[-1] for row in drills if row[0] == "ACK_REPLICAS=1")
    return [f"{lost} acknowledged commands lost with BURROW_ACK_REPLICAS=1"] if lost else []


if __name__ == "__main__":
    sys.exit(main())
