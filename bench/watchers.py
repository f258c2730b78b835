"""Watchers: thousands of open live streams (Server-Sent Events) on one machine, embedded and on a real Redis.

    python bench/watchers.py [--quick] [--streams 2000] [--games 100] [--rate 20] [--seconds 20] [--only embedded]

Two servers, each started here on loopback ports:

* **embedded** — ``burrow serve`` (one process: the web front under Hypercorn, the Flask API on its thread pool,
  the dispatcher and the RQ workers as threads, over the in-process store);
* **redis** — production as ``docker-compose.yml`` runs it: ``burrow serve --web-only --processes 2`` (two web
  processes), a ``burrow worker --queue project`` and ``burrow dispatch``, on a private redis-server (AOF
  everysec).

On each: ``--games`` Murus games (the endless loop position) are created through HTTP, each from a loopback
address of its own. Then the same command load runs with no watchers and with ``--streams`` streams open, the
two alternating ``--rounds`` times (so that a change in the shared machine's load hits both alike), ``--seconds``
in all for each: ``--rate`` commands a second in all, spread over the games (``POST /api/games/<gid>/commands``
with ``expected_version`` and ``command_id``, from four client threads), while ``GET /api/health`` is timed every
50 ms. The streams, spread evenly over the games, are held by one asyncio client in a child process
(``bench/sse.py``, at a lower CPU priority than the server: it stands in for browsers on other machines); each
starts at its game's version, and one that ends reconnects with ``Last-Event-ID``, as EventSource does. The
per-client cap is raised for the run: every stream comes from one address.

Reported: ``/api/health`` and command latency without and with watchers (the ratio of the command medians);
messages expected (every stream, every version from its start to its game's last) and received; gaps, duplicates,
out-of-order, reconnects and resets (a stream that resumed too far behind gets the current version once: the
versions it skips are not gaps); append → receipt latency (from the event's ``at``, stamped by the server just
before its append, to the moment the client has the whole message; one clock, one machine); Redis connections and
server threads before the streams open and with them; server memory (RSS, every process of the server) per
watcher. The script exits 1 when a stream has a gap, a duplicate or a message out of order.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import http.client
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import harness
from harness import RedisServer, median, percentile, ratio, table

HEALTH_EVERY = 0.05
DRIVERS = 4  # client threads sending the commands
CLIENT_NICE = 10  # the watchers' client yields the CPU to the server (see ``watch``)
OPEN_AT_ONCE = 100  # streams opened concurrently while the watchers connect
PLAYERS = [{"name": "Ana"}, {"name": "Bo"}]


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # children (the servers) inherit it


# -- the servers --------------------------------------------------------------------------------------------------

class Servers:
    """One of the two deployments; ``port``, ``pids()`` (every process of the web server), ``redis_clients()``."""

    def __init__(self, kind: str):
        self.kind = kind
        self.procs: list[subprocess.Popen] = []
        self.redis: RedisServer | None = None
        self.tmp = tempfile.mkdtemp(prefix="burrow-bench-watchers-")
        self.port = harness.free_port()

    def __enter__(self) -> Servers:
        env = {**os.environ, "BURROW_STREAMS_PER_CLIENT": "0", "BURROW_PREFIX": "bench"}
        quiet = {"cwd": harness.ROOT, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        if self.kind == "embedded":
            self.procs.append(subprocess.Popen(
                [sys.executable, "-m", "burrow.cli", "serve", "--port", str(self.port), "--data",
                 str(Path(self.tmp) / "data")], env=env, **quiet))
        else:
            self.redis = RedisServer().__enter__()
            env.update(REDIS_URL=self.redis.url(0), RQ_URL=self.redis.url(1))
            self.procs.append(subprocess.Popen(  # as docker-compose.yml runs it
                [sys.executable, "-m", "burrow.cli", "serve", "--web-only", "--processes", "2", "--host",
                 "127.0.0.1", "--port", str(self.port)], env=env, **quiet))
            for args in (["worker", "--queue", "project"], ["dispatch"]):
                self.procs.append(subprocess.Popen([sys.executable, "-m", "burrow.cli", *args], env=env, **quiet))
        harness.wait_http(self.port, seconds=60)
        return self

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.redis is not None:
            self.redis.__exit__()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def pids(self) -> list[int]:
        """The web server's processes (its web processes included)."""
        root = self.procs[0].pid
        out = [root]
        with contextlib.suppress(OSError):
            out += [int(p) for p in Path(f"/proc/{root}/task/{root}/children").read_text().split()]
        return out

    def rss_bytes(self) -> int:
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            except OSError:
                pass
        return total

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the web server's processes."""
        return sum(cpu_of(pid) for pid in self.pids())

    def threads(self) -> int:
        total = 0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                total += len(os.listdir(f"/proc/{pid}/task"))
        return total

    def redis_clients(self) -> int | None:
        return None if self.redis is None else len(self.redis.client().client_list()) - 1  # not this one


def cpu_of(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid`` (0 once it is gone)."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


# -- the games and the command load -------------------------------------------------------------------------------

class Game:
    def __init__(self, port: int, index: int):
        # A loopback address of its own (a client each, for the per-client limits), as bench/command_path.py.
        self.source = (f"127.0.{index // 250 + 1}.{index % 250 + 2}", 0)
        self.port = port
        self.client = harness.JsonClient(port, self.source, timeout=60)
        body = {"game": "murus", "players": PLAYERS, "options": {"max_plies": None},
                "position": harness.MURUS_LOOP_POSITION}
        created = self.client.post("/api/games", body, None, 201)
        self.gid, self.version, self.ply = created["id"], created["version"], 0
        self.tokens = [s["token"] for s in created["seats"]]
        self.appended: dict[int, float] = {}  # version → its append time (the event's ``at``, epoch seconds)

    def play(self) -> None:
        seat, move = harness.murus_loop_move(self.ply)
        body = {"move": move, "expected_version": self.version, "command_id": uuid.uuid4().hex}
        answer = self.client.post(f"/api/games/{self.gid}/commands", body, self.tokens[seat], 200)
        for event in answer["events"]:
            self.appended[event["version"]] = dt.datetime.fromisoformat(event["at"]).timestamp()
        self.version, self.ply = answer["version"], self.ply + 1


def load(games: list[Game], rate: float, seconds: float) -> dict:
    """``rate`` commands a second over ``games`` for ``seconds``, and ``/api/health`` every 50 ms meanwhile."""
    stop = threading.Event()
    commands: list[float] = []
    health: list[float] = []
    lock = threading.Lock()

    def drive(mine: list[Game]) -> None:
        if not mine:
            return
        every = DRIVERS / rate
        next_at = time.monotonic()
        for i in range(10**9):
            if stop.is_set():
                return
            game = mine[i % len(mine)]
            start = time.perf_counter()
            game.play()
            took = time.perf_counter() - start
            with lock:
                commands.append(took)
            next_at += every
            stop.wait(max(0.0, next_at - time.monotonic()))

    def probe() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", games[0].port, timeout=60)
        while not stop.is_set():
            start = time.perf_counter()
            try:
                conn.request("GET", "/api/health")
                response = conn.getresponse()
                response.read()
            except (http.client.HTTPException, OSError):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", games[0].port, timeout=60)
                continue
            health.append(time.perf_counter() - start)
            stop.wait(HEALTH_EVERY)

    threads = [threading.Thread(target=drive, args=(games[d::DRIVERS],), daemon=True) for d in range(DRIVERS)]
    threads.append(threading.Thread(target=probe, daemon=True))
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(60)
    return {"commands": commands, "health": health}


# -- the watchers (a child process) -------------------------------------------------------------------------------

async def hold(port: int, starts: list[tuple[str, int]]) -> dict:
    """Hold one stream per ``(gid, version)`` in ``starts`` until a line arrives on stdin; every message's id and
    receipt time, per stream."""
    from sse import Refused, open_stream

    received: list[list[tuple[int, float]]] = [[] for _ in starts]
    reconnects = 0
    ready = asyncio.Event()
    opened = 0

    async def watch(i: int, gid: str, version: int, gate: asyncio.Semaphore) -> None:
        nonlocal reconnects, opened
        last = version
        first = True
        while True:
            async with gate:
                try:
                    stream = await open_stream(port, gid, last_event_id=last)
                except (OSError, Refused, asyncio.IncompleteReadError):
                    await asyncio.sleep(0.5)
                    continue
            if first:
                first = False
                opened += 1
                if opened == len(starts):
                    ready.set()
            while True:
                message = await stream.next(parse=False)
                if message is None:
                    break
                received[i].append((message.id, message.received, message.event))
                last = max(last, message.id)
            reconnects += 1  # the server ended it (a dropped slow reader): EventSource reconnects from ``last``

    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    tasks = [asyncio.ensure_future(watch(i, gid, v, gate)) for i, (gid, v) in enumerate(starts)]
    await ready.wait()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for task in tasks:
        task.cancel()
    return {"received": received, "reconnects": reconnects}


def holder_main(port: int, out: str) -> int:
    raise_fd_limit()
    starts = [tuple(s) for s in json.loads(sys.stdin.readline())]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(hold(port, starts))
    Path(out).write_text(json.dumps(result))
    return 0


# -- one deployment -----------------------------------------------------------------------------------------------

def watch(servers: Servers, games: list[Game], streams: int, rate: float, seconds: float) -> dict:
    """Open ``streams`` streams over ``games``, run the load, close them; what they received and cost."""
    before = {"rss": servers.rss_bytes(), "threads": servers.threads(), "redis": servers.redis_clients()}
    starts = [(games[i % len(games)].gid, games[i % len(games)].version) for i in range(streams)]
    out = Path(servers.tmp) / "received.json"
    # The client stands in for 2,000 browsers on other machines: it runs at a lower priority than the server, so
    # that it takes the CPU the server leaves (its receipt times then include its own waits: an upper bound).
    holder = subprocess.Popen([sys.executable, __file__, "--hold", str(servers.port), "--out", str(out)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=harness.ROOT,
                              preexec_fn=lambda: os.nice(CLIENT_NICE))
    holder.stdin.write(json.dumps(starts) + "\n")
    holder.stdin.flush()
    opening = time.perf_counter()
    if holder.stdout.readline().strip() != "ready":
        raise RuntimeError("the watchers did not connect")
    opened_in = time.perf_counter() - opening
    time.sleep(1.0)  # settle
    during = {"rss": servers.rss_bytes(), "threads": servers.threads(), "redis": servers.redis_clients()}
    cpu, client_cpu = servers.cpu_seconds(), cpu_of(holder.pid)
    busy = load(games, rate, seconds)
    busy["cpu"] = servers.cpu_seconds() - cpu
    busy["client_cpu"] = cpu_of(holder.pid) - client_cpu
    final = {g.gid: g.version for g in games}
    time.sleep(2.0)  # the last messages arrive
    holder.stdin.write("stop\n")
    holder.stdin.flush()
    holder.wait(120)
    result = json.loads(out.read_text())
    out.unlink()
    expected = got = gaps = dups = disorder = resets = 0
    lags: list[float] = []
    for (gid, start), messages in zip(starts, result["received"]):
        ids = [m[0] for m in messages]
        want = set(range(start + 1, final[gid] + 1))
        covered = set(ids)
        for version, _, event in messages:
            if event == "reset":  # the current version once, instead of the ones before it
                resets += 1
                covered |= set(range(start + 1, version + 1))
        expected += len(want)
        got += len(ids)
        disorder += sum(1 for a, b in zip(ids, ids[1:]) if b < a)
        dups += len(ids) - len(set(ids))
        gaps += len(want - covered)
    appended = {g.gid: g.appended for g in games}
    for (gid, _), messages in zip(starts, result["received"]):
        lags += [at - appended[gid][version] for version, at, _ in messages if version in appended[gid]]
    return {"busy": busy, "before": before, "during": during, "expected": expected, "got": got, "gaps": gaps,
            "dups": dups, "disorder": disorder, "resets": resets, "lags": lags, "reconnects": result["reconnects"],
            "opened_in": opened_in}


def run(kind: str, streams: int, n_games: int, rate: float, seconds: float, rounds: int) -> dict:
    """Phases without and with watchers, alternated ``rounds`` times (so a change in the machine's load hits both
    alike), ``seconds`` in all per kind of phase."""
    with Servers(kind) as servers:
        games = [Game(servers.port, i) for i in range(n_games)]
        for game in games:  # warm-up: connections, imports, caches, the workers
            game.play()
        quiet: dict = {"commands": [], "health": [], "cpu": 0.0}
        sessions = []
        for _ in range(rounds):
            cpu = servers.cpu_seconds()
            phase = load(games, rate, seconds / rounds)
            quiet["cpu"] += servers.cpu_seconds() - cpu
            quiet["commands"] += phase["commands"]
            quiet["health"] += phase["health"]
            sessions.append(watch(servers, games, streams, rate, seconds / rounds))
    first = sessions[0]
    out = {"quiet": quiet, "streams": streams, "before": first["before"], "during": first["during"],
           "opened_in": max(s["opened_in"] for s in sessions),
           "busy": {"commands": [c for s in sessions for c in s["busy"]["commands"]],
                    "health": [h for s in sessions for h in s["busy"]["health"]],
                    "cpu": sum(s["busy"]["cpu"] for s in sessions),
                    "client_cpu": sum(s["busy"]["client_cpu"] for s in sessions)}}
    for key in ("expected", "got", "gaps", "dups", "disorder", "resets", "reconnects"):
        out[key] = sum(s[key] for s in sessions)
    out["lags"] = [lag for s in sessions for lag in s["lags"]]
    return out


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--streams", type=int, default=2000)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--rate", type=float, default=20.0, help="commands a second, over all the games")
    p.add_argument("--seconds", type=float, default=20.0, help="each load phase")
    p.add_argument("--rounds", type=int, default=2, help="phases without and with watchers, alternated")
    p.add_argument("--only", choices=["embedded", "redis"])
    p.add_argument("--hold", type=int, help=argparse_hidden())
    p.add_argument("--out", help=argparse_hidden())
    args = p.parse_args(argv)
    if args.hold:
        return holder_main(args.hold, args.out)
    if args.quick:
        args.streams, args.games, args.rate, args.seconds, args.rounds = 60, 6, 10.0, 2.0, 1
    raise_fd_limit()
    harness.header("Watchers: open live streams on one machine", argv)
    results = {kind: run(kind, args.streams, args.games, args.rate, args.seconds, args.rounds)
               for kind in (["embedded", "redis"] if args.only is None else [args.only])}
    name = {"embedded": "embedded (burrow serve)", "redis": "redis (web ×2 + worker + dispatcher)"}
    rows = []
    for kind, r in results.items():
        for phase, watchers in (("quiet", 0), ("busy", r["streams"])):
            h, c = r[phase]["health"], r[phase]["commands"]
            # The server CPU the watchers add, per command (each command is one version to fan out).
            extra = ((r["busy"]["cpu"] / max(1, len(r["busy"]["commands"])))
                     - (r["quiet"]["cpu"] / max(1, len(r["quiet"]["commands"])))) if watchers else float("nan")
            rows.append([name[kind], watchers, len(c) / args.seconds, r[phase]["cpu"] / args.seconds * 100,
                         extra * 1e3, r[phase].get("client_cpu", 0.0) / args.seconds * 100,
                         median(h) * 1e3, percentile(h, 99) * 1e3, median(c) * 1e3, percentile(c, 99) * 1e3,
                         ratio(median(c), median(r["quiet"]["commands"]))])
    table(["server", "watchers", "commands/s", "server CPU %", "fan-out CPU ms per command",
           "watchers' client CPU %", "health p50 ms", "health p99 ms", "command p50 ms", "command p99 ms",
           "command p50 vs no watchers"], rows,
          title=f"Requests while {args.streams:,} streams watch {args.games} games ({args.rate:g} commands/s, "
                f"{args.seconds:g} s each way, in {args.rounds} rounds)")
    rows = []
    for kind, r in results.items():
        lags = r["lags"]
        rows.append([name[kind], r["streams"], r["expected"], r["got"], r["gaps"], r["dups"], r["disorder"],
                     r["reconnects"], r["resets"], median(lags) * 1e3, percentile(lags, 99) * 1e3,
                     max(lags, default=float("nan")) * 1e3])
    table(["server", "streams", "messages expected", "received", "gaps", "duplicates", "out of order",
           "reconnects", "resets", "append→receipt p50 ms", "p99 ms", "max ms"], rows,
          title="Every watcher, every version: what the streams received")
    rows = []
    for kind, r in results.items():
        b, d = r["before"], r["during"]
        per = (d["rss"] - b["rss"]) / r["streams"] if r["streams"] else float("nan")
        rows.append([name[kind], r["opened_in"], b["threads"], d["threads"],
                     "–" if b["redis"] is None else b["redis"], "–" if d["redis"] is None else d["redis"],
                     b["rss"] / 2**20, d["rss"] / 2**20, per / 1024])
    table(["server", "streams opened in s", "threads, no watchers", f"threads, {args.streams:,} watchers",
           "redis connections, no watchers", f"redis connections, {args.streams:,} watchers", "RSS MB before",
           "RSS MB with watchers", "KB per watcher"], rows,
          title="What the watchers cost the server")
    broken = {kind: (r["gaps"], r["dups"], r["disorder"]) for kind, r in results.items()
              if r["gaps"] or r["dups"] or r["disorder"]}
    if broken:
        print(f"FAILED: streams lost, repeated or reordered messages (gaps, duplicates, out of order): {broken}")
        return 1
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    sys.exit(main())
