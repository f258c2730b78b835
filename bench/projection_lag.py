"""Projection lag: from a command's append to its version being visible in the game's view, p50 / p99.

    python bench/projection_lag.py [--quick] [--seconds 5] [--load 8]

A probe game plays a command every 50 ms through ``GameService.command``; each command's clock starts when its
append's reply arrives (the store's ``append`` is wrapped) and stops when a watcher thread, woken by Redis each
time the view's checkpoint (``…:ckpt:<gid>``, written in the same script as the view) is written (a keyspace
notification), first sees it at that version or later. After the window, versions not yet seen get ten more
seconds. The first ``WARMUP`` seconds of each scenario are played and not counted: workers that have just started
import the games' modules and fill their caches, and eight games starting at once are no steady state (probes
there waited up to 300 ms). Each scenario runs in a child
process of its own, on a fresh redis-server (AOF everysec), with:

* **burrow** — two ``burrow worker`` processes (``workers.worker.ProcessWorker``: RQ's worker without a fork per
  job, with the exact clock scheduler; as in docker-compose) and ``burrow dispatch``;
* **simple** — two ``rq worker -w rq.worker.SimpleWorker`` processes (RQ's own worker without the fork, running
  the same job functions) and ``burrow dispatch``;
* **thread** — the embedded ``ThreadWorker`` (two threads) and a dispatcher thread in the probe's own process,
  as ``burrow serve --redis URL`` runs them;

each with the probe alone, under a paced load (``--load`` games, one command a second each: busy human play),
under the load of ``command_path.py`` (``--load`` games played at full speed through the service layer, one
thread each, in two load processes of their own: clients are not the system measured) and at half the command
rate that full speed reached. "fast path off" runs the service without its job sink, leaving projections to the
dispatcher alone. The backlog column is the queue length plus the games waiting when the window closes: a backlog
means the workers cannot keep up, and the lag then grows with the length of the run. "machine CPU busy" is the
share of both cores in use during the window, load processes included (``/proc/stat``): the load generator, the
probe, Redis, the dispatcher and the workers all share this machine's two cores.

A second table gives what each kind of worker sustains: two workers bringing ``--games`` games already projected up
to date (so RQ's own cost per job shows), with one RQ job per game (``workers.jobs.project``) or with the games
waiting taken in batches (``workers.jobs.project_pending``: what the dispatcher's and, with
``BURROW_FAST_PATH=1``, the command path's pokes queue).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import harness
from harness import RedisServer, median, percentile, ratio, table

PROBE_EVERY = 0.05
DRAIN = 10.0
PACE = 1.0
WARMUP = 2.0  # seconds of load before the probe starts: the lag measured is the steady state's
LOAD_PROCESSES = 2
BATCH = 32  # RQJobs.batch
PLAYERS = [{"name": "Ana"}, {"name": "Bo"}]


WORKERS = {
    "burrow": "burrow worker ×2 (no fork)",
    "simple": "rq SimpleWorker ×2 (no fork)",
    "thread": "ThreadWorker ×2 in-process",
}


def start_workers(kind: str, server: RedisServer, rt) -> list[subprocess.Popen]:
    """Two workers of ``kind`` and a dispatcher for the runtime ``rt`` on ``server``; the child processes."""
    env = {**os.environ, "REDIS_URL": server.url(0), "RQ_URL": server.url(1), "BURROW_PREFIX": "bench"}
    quiet = {"cwd": harness.ROOT, "env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    if kind == "thread":
        from workers.dispatcher import Dispatcher
        from workers.worker import start_thread_worker

        for _ in range(2):
            start_thread_worker(rt, "project")
        threading.Thread(target=Dispatcher(rt).run, daemon=True).start()
        return []
    if kind == "burrow":
        worker = [sys.executable, "-m", "burrow.cli", "worker"]
    else:
        worker = [sys.executable, "-m", "rq.cli", "worker", "-w", "rq.worker.SimpleWorker", "--url", server.url(1),
                  "-q", rt.queue.name]
    return [subprocess.Popen(cmd, **quiet) for cmd in (worker, worker, [sys.executable, "-m", "burrow.cli",
                                                                          "dispatch"])]


def stop_children(children: list[subprocess.Popen]) -> None:
    for child in children:
        child.terminate()
    for child in children:
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def scenario(workers: str, load: int, pace: float, fast_path: bool, seconds: float) -> dict:
    """Run one scenario in this process; returns its measurements."""
    from services.games.commands import GameService
    from services.games.states import States

    with RedisServer() as server:
        rt = harness.runtime_for(server)
        # the runtime's service has the fast path's sink
        service = rt.service if fast_path else GameService(States(rt.store))
        children = start_workers(workers, server, rt)
        try:
            return _measure(rt, service, load, pace, seconds, fast_path)
        finally:
            stop_children(children)
            if workers == "thread":  # the worker threads outlive Redis by a moment: keep their complaints out
                sys.stderr.flush()
                os.dup2(os.open(os.devnull, os.O_WRONLY), 2)


def capacity(workers: str, games: int, batched: bool) -> dict:
    """Games a second two workers of ``workers`` bring up to date, ``games`` games already projected (the cheapest
    real projection: RQ's own cost per job shows): one job per game (``workers.jobs.project``), or the games
    waiting taken in batches (``RQJobs.project``, as the command path and the dispatcher poke)."""
    from services.jobs.queues import PROJECT

    with RedisServer() as server:
        rt = harness.runtime_for(server)
        gids = [rt.service.create("murus", PLAYERS)["id"] for _ in range(games)]
        if rt.service.jobs is not None:  # the creations' pokes, sent now (by their thread, 20 ms later, they could
            rt.service.jobs.flush()  # land after the queue is counted below and leave games waiting for no job)
        for gid in gids:
            rt.projector.project_game(gid)
            rt.projector.project_lobby(gid)
        for gid in gids:
            if batched:
                rt.jobs.project(gid)
            else:
                rt.queue.enqueue(PROJECT, gid, result_ttl=0, failure_ttl=3600)
        jobs = len(rt.queue)
        running = rt.queue.started_job_registry
        children = start_workers(workers, server, rt)
        try:
            deadline = time.monotonic() + 300
            while len(rt.queue) >= jobs and time.monotonic() < deadline:  # the workers are up
                time.sleep(0.001)
            start = time.perf_counter()
            while (len(rt.queue) or rt.jobs.pending() or running.count) and time.monotonic() < deadline:
                time.sleep(0.001)
            took = time.perf_counter() - start
        finally:
            stop_children(children)
            if workers == "thread":
                sys.stderr.flush()
                os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    return {"games": games, "jobs": jobs, "seconds": took}


def start_load(rt, gids: list[str], pace: float, fast_path: bool) -> list[subprocess.Popen]:
    """The load: ``gids`` played in ``LOAD_PROCESSES`` child processes of their own (clients are not part of the
    system measured: in one process with the probe, their threads would hold the GIL the probe's watcher needs),
    each game in a thread at ``pace`` commands/s (0: full speed). They play once all are ready."""
    settings = rt.settings
    spec = json.dumps({"redis": settings.redis_url, "rq": settings.rq_url, "prefix": settings.prefix,
                       "pace": pace, "fast_path": fast_path})
    players = []
    for part in range(LOAD_PROCESSES):
        mine = gids[part::LOAD_PROCESSES]
        if mine:
            players.append(subprocess.Popen([sys.executable, __file__, "--play", spec, *mine], cwd=harness.ROOT,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    for player in players:
        if player.stdout.readline().strip() != "ready":
            raise RuntimeError("a load process did not start")
    for player in players:
        player.stdin.write("go\n")
        player.stdin.flush()
    return players


def stop_load(players: list[subprocess.Popen]) -> int:
    """Stop the load processes; the commands they played."""
    for player in players:
        player.stdin.write("stop\n")
        player.stdin.flush()
    total = 0
    for player in players:
        total += int(player.stdout.readline())
        player.wait(30)
    return total


def play_load(spec: dict, gids: list[str]) -> None:
    """A load process: play ``gids`` (a thread each) from "go" to "stop" on stdin; print the commands played."""
    from burrow.runtime import build
    from services.config import Settings
    from services.games.commands import GameService
    from services.games.states import States

    rt = build(Settings(redis_url=spec["redis"], rq_url=spec["rq"], prefix=spec["prefix"]), journal=False)
    service = rt.service if spec["fast_path"] else GameService(States(rt.store))
    pace, stop, commands = spec["pace"], threading.Event(), [0] * len(gids)

    def play(i: int) -> None:
        next_at = time.monotonic()
        for ply in range(1_000_000):
            if stop.is_set():
                return
            seat, move = harness.murus_loop_move(ply)
            service.command(gids[i], seat, move)
            commands[i] += 1
            if pace:
                next_at += 1 / pace
                stop.wait(max(0.0, next_at - time.monotonic()))

    print("ready", flush=True)
    sys.stdin.readline()
    threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(len(gids))]
    for t in threads:
        t.start()
    sys.stdin.readline()
    stop.set()
    for t in threads:
        t.join(30)
    print(sum(commands), flush=True)


def _measure(rt, service, load: int, pace: float, seconds: float, fast_path: bool) -> dict:
    """Lags of the probe's commands while ``load`` games play (``pace`` commands/s each; 0: full speed)."""
    committed: dict[str, float] = {}
    append = rt.store.append

    def stamped_append(gid, *args, **kwargs):
        result = append(gid, *args, **kwargs)
        committed[gid] = time.perf_counter()
        return result

    rt.store.append = stamped_append  # instance attribute: the service's store is this one
    probe = service.create("murus", PLAYERS, {"max_plies": None}, position=harness.MURUS_LOOP_POSITION)
    games = [service.create("murus", PLAYERS, {"max_plies": None}, position=harness.MURUS_LOOP_POSITION)
             for _ in range(load)]
    ckpt = rt.store.keys.ckpt(probe["id"])
    # Wait until the workers are up: the probe's creation is projected.
    deadline = time.monotonic() + 60
    while int(rt.redis.get(ckpt) or 0) < probe["version"]:
        if time.monotonic() > deadline:
            raise RuntimeError("no worker projected the probe game within 60 s")
        time.sleep(0.01)
    seen: dict[int, float] = {}
    probing = threading.Event()
    # Redis tells the watcher each time the checkpoint is written (keyspace notifications on this private
    # server): no polling loop competing with the system measured for the two cores.
    rt.redis.config_set("notify-keyspace-events", "K$")
    written = rt.redis.pubsub(ignore_subscribe_messages=True)
    written.subscribe(f"__keyspace@{rt.redis.connection_pool.connection_kwargs.get('db', 0)}__:{ckpt}")

    def watch() -> None:
        """When each version of the probe first shows in its checkpoint."""
        last = probe["version"]
        while probing.is_set():
            if written.get_message(timeout=0.1) is None:
                continue
            current = int(rt.redis.get(ckpt) or 0)
            if current > last:
                now = time.perf_counter()
                for version in range(last + 1, current + 1):
                    seen[version] = now
                last = current

    players = start_load(rt, [g["id"] for g in games], pace, fast_path)
    probing.set()
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    commits: dict[int, float] = {}
    measuring = time.monotonic() + WARMUP
    end = measuring + seconds
    cpu_from = None
    for ply in range(1_000_000):
        now = time.monotonic()
        if now >= end:
            break
        seat, move = harness.murus_loop_move(ply)
        version = service.command(probe["id"], seat, move)["version"]
        if now >= measuring:  # the warm-up's probes are played, not counted
            commits[version] = committed[probe["id"]]
            cpu_from = cpu_from or machine_cpu()
        time.sleep(PROBE_EVERY)
    busy = busy_share(cpu_from, machine_cpu())
    load_commands = stop_load(players)
    backlog = len(rt.queue) + rt.jobs.pending()
    drain = time.monotonic() + DRAIN
    while len(seen) < len(commits) and time.monotonic() < drain:
        time.sleep(0.01)
    probing.clear()
    watcher.join(5)
    lags = [seen[v] - t for v, t in commits.items() if v in seen]
    played = seconds + WARMUP  # how long the load played
    return {"lags": lags, "missed": len(commits) - len(lags), "load_commands": load_commands, "seconds": played,
            "backlog": backlog, "busy": busy}


def machine_cpu() -> tuple[int, int]:
    """The machine's (busy, total) CPU time so far, in clock ticks (``/proc/stat``; (0, 0) elsewhere)."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = ticks[3] + ticks[4]  # idle, iowait
    return sum(ticks) - idle, sum(ticks)


def busy_share(start: tuple[int, int] | None, end: tuple[int, int]) -> float:
    """How busy the whole machine's cores were between two ``machine_cpu`` readings (0–1)."""
    if start is None or end[1] <= start[1]:
        return float("nan")
    return (end[0] - start[0]) / (end[1] - start[1])


SCENARIOS = [(workers, load, fast) for workers, fast in (("burrow", True), ("simple", True), ("thread", True),
                                                          ("simple", False))
             for load in ("idle", "paced", "full", "half")]
QUICK = [("thread", "full", True)]


def child(args: list[str]) -> dict:
    """Run this script in a child process with ``args``; its JSON answer."""
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, timeout=900,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0, help="measuring window per scenario")
    p.add_argument("--load", type=int, default=8, help="games played at full speed as the load")
    p.add_argument("--games", type=int, default=400, help="games projected in each capacity run")
    p.add_argument("--scenario", help=argparse_hidden())
    p.add_argument("--capacity", help=argparse_hidden())
    p.add_argument("--play", nargs="+", help=argparse_hidden())
    args = p.parse_args(argv)
    if args.play:  # a load process
        play_load(json.loads(args.play[0]), args.play[1:])
        return 0
    if args.scenario:  # a child: one scenario, JSON out
        workers, load, pace, fast = args.scenario.split(",")
        print(json.dumps(scenario(workers, int(load), float(pace), fast == "on", args.seconds)), flush=True)
        return 0
    if args.capacity:
        kind, how = args.capacity.split(",")
        print(json.dumps(capacity(kind, args.games, how == "batched")), flush=True)
        return 0
    if args.quick:
        args.seconds, args.load, args.games = 0.5, 2, 10
    harness.header("Projection lag: append → visible view", argv)
    rows = []
    full_rate: dict[tuple, float] = {}  # (workers, fast) → the load's commands/s at full speed, measured before
    for workers, load, fast in QUICK if args.quick else SCENARIOS:
        games, pace = {"idle": (0, 0.0), "paced": (args.load, PACE), "full": (args.load, 0.0),
                       "half": (args.load, full_rate.get((workers, fast), 0.0) / 2 / max(1, args.load))}[load]
        r = child(["--seconds", str(args.seconds),
                   "--scenario", f"{workers},{games},{pace},{'on' if fast else 'off'}"])
        lags = r["lags"]
        what = {"idle": "probe alone", "paced": f"{games} games × {PACE:g}/s",
                "full": f"{games} games, full speed", "half": f"{games} games × {pace:.0f}/s (half of full)"}[load]
        if load == "full":
            full_rate[workers, fast] = r["load_commands"] / r["seconds"]
        rows.append([WORKERS[workers], "on" if fast else "off", what, r["load_commands"] / r["seconds"], len(lags),
                     median(lags) * 1e3, percentile(lags, 99) * 1e3, max(lags, default=float("nan")) * 1e3,
                     r["missed"], r["backlog"], f"{r['busy']:.0%}"])
    table(["workers (+ dispatcher)", "fast-path jobs", "load", "load commands/s", "probes", "p50 ms", "p99 ms",
           "max ms", f"not seen {DRAIN:g} s after", "backlog (jobs + games)", "machine CPU busy"], rows,
          title=f"Append → visible view, {args.seconds:g} s per scenario, a probe command every "
                f"{PROBE_EVERY * 1e3:g} ms")
    rows = []
    kinds = ("thread",) if args.quick else tuple(WORKERS)
    results = {(kind, how): child(["--games", str(args.games), "--capacity", f"{kind},{how}"])
               for kind in kinds for how in ("per-game", "batched")}
    for (kind, how), r in results.items():
        rate = r["games"] / r["seconds"]
        rows.append([WORKERS[kind], "one job per game" if how == "per-game" else f"batches of up to {BATCH}",
                     r["games"], r["jobs"], rate, ratio(rate, results[kind, "per-game"]["games"]
                                                         / results[kind, "per-game"]["seconds"])])
    table(["workers", "jobs", "games", "RQ jobs", "games projected/s", "vs one job per game"], rows,
          title="What the projection workers sustain: two workers bringing games already projected up to date")
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    sys.exit(main())
