"""One move, three ways, on the same private Redis: the raw Lua append, the service layer, and HTTP.

    python bench/command_path.py [--quick] [--commands 1000] [--seconds 3] [--no-http]

* **raw** — ``EventStore.append`` of a pre-encoded ``moved`` event with ``expected_version``, a command id and a
  stored result: one EVALSHA round trip, the floor every other path stands on.
* **service** — ``GameService.command`` as the web app calls it (``expected_version`` and ``command_id``, as the
  browser sends them), with the production job sink (two RQ jobs per command, queued, not run).
* **service, no jobs** — the same without the job sink, to show what the RQ poke costs.
* **http** — ``POST /api/games/<gid>/commands`` to the web front as docker-compose runs it (``burrow serve
  --web-only --processes 2``: Hypercorn, Starlette, Flask on threads), over keep-alive connections, each game from
  a loopback address of its own (a client each, for the per-client limit on open games).
* **http floor** — the same request to the floor of that stack (``bench/command_floor.py``: a one-route Flask app
  doing the same Lua append, behind the same guard and bridge, on the same Hypercorn, two processes): what any
  command through Flask on this server costs; "vs its floor" is the HTTP command's median over the floor's with
  the same client (target: at most 1.3×).

The game is Murus from a position where both sides shuffle two towers forever (``harness.MURUS_LOOP``), so one
game takes any number of commands. Latency: one game of ``--commands`` commands per path, the paths taking turns
in blocks of a twentieth so background noise hits them alike (command by command, the web processes' leftover
work after each answer would land on the next path's timing). Growth: per path, a game is played to
``--commands`` commands, then its last tenth is timed in alternation with the first tenth of a fresh game, so a
change in the machine's load between the two does not pass for growth; "late/early" is the ratio of their medians
(flat cost as a game grows: ≤ 1.2). Throughput: 1, 8 and 64 games played at once, one client thread
per game, for ``--seconds`` each.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
import uuid

import harness
from harness import RedisServer, Timer, median, percentile, ratio, table

PLAYERS = [{"name": "Ana"}, {"name": "Bo"}]


class RawPath:
    """The Lua append of a pre-encoded event, with the same arguments the service passes."""

    name = "raw append"

    def __init__(self, rt):
        from domain.murus import Moved
        from services.store import codec

        self.store = rt.store
        self.event = codec.encode(Moved(seat=0, move="b1-d1", kind="distribute", frm="b1", to="d1",
                                        cells={"b1": "", "c1": "R", "d1": "R"}))
        self.result = json.dumps({"version": 0, "events": [{"version": 0, "type": "moved", "data": {
            "seat": 0, "move": "b1-d1", "kind": "distribute", "frm": "b1", "to": "d1",
            "cells": {"b1": "", "c1": "R", "d1": "R"}}, "at": "2024-01-01T00:00:00.000+00:00",
            "text": "Romans: b1-d1"}]}).encode()

    def new_game(self) -> RawGame:
        return RawGame(self)


class RawGame:
    def __init__(self, path: RawPath):
        from services.store.streams import new_game_id

        self.path, self.gid, self.version = path, new_game_id(), 0

    def play(self) -> None:
        result = self.path.store.append(self.gid, [self.path.event], expected_version=self.version,
                                        command_id=f"0:{uuid.uuid4().hex}", result=self.path.result)
        self.version = result.version


class ServicePath:
    """``GameService.command`` with (or without) the RQ job sink."""

    def __init__(self, rt, jobs: bool):
        from services.games.commands import GameService
        from services.games.states import States

        self.name = "service" if jobs else "service, no jobs"
        self.service = rt.service if jobs else GameService(States(rt.store), None)

    def new_game(self) -> ServiceGame:
        return ServiceGame(self.service)


class ServiceGame:
    def __init__(self, service):
        self.service = service
        created = service.create("murus", PLAYERS, {"max_plies": None}, position=harness.MURUS_LOOP_POSITION)
        self.gid, self.version, self.ply = created["id"], created["version"], 0

    def play(self) -> None:
        seat, move = harness.murus_loop_move(self.ply)
        answer = self.service.command(self.gid, seat, move, expected_version=self.version,
                                      command_id=uuid.uuid4().hex)
        self.version, self.ply = answer["version"], self.ply + 1


class HttpPath:
    """The JSON API through the web front, over one keep-alive connection per game, from a client of
    ``http.client`` or, with ``minimal``, of ``harness.MinimalClient``."""

    def __init__(self, port: int, minimal: bool = False, first_client: int = 0):
        self.port, self.minimal = port, minimal
        self.name = "http, minimal client" if minimal else "http"
        self.clients = first_client

    def new_game(self) -> HttpGame:
        self.clients += 1
        return HttpGame(self.port, self.clients, self.minimal)


class HttpGame:
    def __init__(self, port: int, client: int, minimal: bool = False):
        # Each game from a loopback address of its own (127.0.0.2, .3, …): a client of its own for the
        # per-client limit on open games.
        source = (f"127.0.{client // 250}.{client % 250 + 2}", 0)
        self.client = (harness.MinimalClient if minimal else harness.JsonClient)(port, source)
        body = {"game": "murus", "players": PLAYERS, "options": {"max_plies": None},
                "position": harness.MURUS_LOOP_POSITION}
        created = self.client.post("/api/games", body, None, 201)
        self.gid, self.version, self.ply = created["id"], created["version"], 0
        self.tokens = [s["token"] for s in created["seats"]]

    def play(self, headers: dict | None = None) -> None:
        seat, move = harness.murus_loop_move(self.ply)
        body = {"move": move, "expected_version": self.version, "command_id": uuid.uuid4().hex}
        answer = self.client.post(f"/api/games/{self.gid}/commands", body, self.tokens[seat], 200, headers)
        self.version, self.ply = answer["version"], self.ply + 1


class FloorPath:
    """The floor of the HTTP path (``bench/command_floor.py``), one keep-alive connection per game, from a client
    of ``http.client`` or, with ``minimal``, of ``harness.MinimalClient`` (each HTTP row is read against the floor
    of its own client: ``http.client`` alone spends about 10 µs parsing each header of an answer)."""

    def __init__(self, port: int, minimal: bool = False):
        self.port, self.minimal = port, minimal
        self.name = "http floor, minimal client" if minimal else "http floor"

    def new_game(self) -> FloorGame:
        return FloorGame(self.port, self.minimal)


class FloorGame:
    def __init__(self, port: int, minimal: bool = False):
        from services.store.streams import new_game_id

        self.client = (harness.MinimalClient if minimal else harness.JsonClient)(port)
        self.gid, self.version = new_game_id(), 0

    def play(self) -> None:
        body = {"move": "b1-d1", "expected_version": self.version, "command_id": uuid.uuid4().hex}
        self.version = self.client.post(f"/api/games/{self.gid}/commands", body, None, 200)["version"]


def start_floor(server: RedisServer) -> tuple[subprocess.Popen, int]:
    """The floor server (two processes), on a free port of its own, once it answers."""
    port = harness.free_port()
    argv = [sys.executable, str(harness.ROOT / "bench" / "command_floor.py"), "--port", str(port), "--redis",
            server.url(0), "--processes", "2"]
    proc = harness.spawn_logged(argv, start_new_session=True)
    try:
        harness.wait_http(port, path="/", seconds=120)
    except RuntimeError:
        proc.kill()
        raise RuntimeError("the floor did not start: " + harness.logged_tail(proc)) from None
    return proc, port


def stop_floor(proc: subprocess.Popen) -> None:
    """End the floor's processes (the server and the one it forked: its session)."""
    import os
    import signal

    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def start_web(server: RedisServer) -> tuple[subprocess.Popen, int]:
    """The web front as docker-compose runs it (two processes), on a free port."""
    return harness.serve(server, "--web-only", "--processes", "2")


def latency(paths: list, commands: int) -> dict[str, list[float]]:
    """Per path, the latency (s) of each of ``commands`` commands in one game, the paths interleaved."""
    games = {p.name: p.new_game() for p in paths}
    for game in games.values():  # warm-up game: connections, imports, caches
        for _ in range(10):
            game.play()
    games = {p.name: p.new_game() for p in paths}
    times: dict[str, list[float]] = {p.name: [] for p in paths}
    clock = time.perf_counter
    block = max(1, commands // 20)
    for done in range(0, commands, block):
        for name, game in games.items():
            for _ in range(min(block, commands - done)):
                start = clock()
                game.play()
                times[name].append(clock() - start)
    return times


def growth(paths: list, commands: int) -> dict[str, tuple[list[float], list[float]]]:
    """Per path, (early, late): the first tenth of ``commands`` commands of a fresh game and the last tenth of a
    game played to ``commands``, timed in alternation so that both see the same moment of the machine."""
    tenth = max(1, commands // 10)
    clock = time.perf_counter
    out = {}
    for path in paths:
        long = path.new_game()
        for _ in range(commands - tenth):
            long.play()
        fresh = path.new_game()
        early, late = [], []
        for _ in range(tenth):
            start = clock()
            fresh.play()
            early.append(clock() - start)
            start = clock()
            long.play()
            late.append(clock() - start)
        out[path.name] = (early, late)
    return out


def throughput(path, concurrency: int, seconds: float, cap: int = 20_000) -> tuple[int, float, list[float]]:
    """(commands, wall seconds, latencies) of ``concurrency`` games played at once for about ``seconds``."""
    games = [path.new_game() for _ in range(concurrency)]
    latencies: list[list[float]] = [[] for _ in games]
    start_line = threading.Barrier(concurrency + 1)
    deadline = [0.0]

    def run(i: int) -> None:
        game, mine, clock = games[i], latencies[i], time.perf_counter
        start_line.wait()
        for _ in range(cap):
            if clock() >= deadline[0]:
                break
            t = clock()
            game.play()
            mine.append(clock() - t)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(concurrency)]
    for t in threads:
        t.start()
    deadline[0] = time.perf_counter() + seconds
    with Timer() as wall:
        start_line.wait()
        for t in threads:
            t.join(seconds + 120)
    flat = [x for xs in latencies for x in xs]
    return len(flat), wall.seconds, flat


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--commands", type=int, default=1000, help="commands in the one-game latency run")
    p.add_argument("--seconds", type=float, default=3.0, help="length of each throughput run")
    p.add_argument("--concurrency", default="1,8,64", help="games at once in the throughput runs")
    p.add_argument("--no-http", action="store_true", help="skip the web front")
    args = p.parse_args(argv)
    if args.quick:
        args.commands, args.seconds, args.concurrency = 40, 0.15, "1,8"
    levels = [int(x) for x in args.concurrency.split(",")]
    harness.header("Command path: raw append vs service layer vs HTTP", argv)
    with RedisServer() as server:
        rt = harness.runtime_for(server)
        paths = [RawPath(rt), ServicePath(rt, jobs=True), ServicePath(rt, jobs=False)]
        web = floor = None
        if not args.no_http:
            web, port = start_web(server)
            floor, floor_port = start_floor(server)
            paths += [HttpPath(port), HttpPath(port, minimal=True, first_client=10_000), FloorPath(floor_port),
                      FloorPath(floor_port, minimal=True)]
        try:
            times = latency(paths, args.commands)
            raw = median(times["raw append"])
            def vs_floor(name: str, xs: list[float]):  # against the floor of the same client
                floor_name = "http floor, minimal client" if name.endswith("minimal client") else "http floor"
                return ratio(median(xs), median(times[floor_name])) if name.startswith("http") else "-"

            table(["path", "commands", "median ms", "p99 ms", "median vs raw", "vs its floor"],
                  [[name, len(xs), median(xs) * 1e3, percentile(xs, 99) * 1e3, ratio(median(xs), raw),
                    vs_floor(name, xs)] for name, xs in times.items()],
                  title=f"Latency: one game of {args.commands} commands per path, one client, the paths taking "
                        "turns in blocks")
            rows = []
            for name, (early, late) in growth(paths, args.commands).items():
                rows.append([name, len(early), median(early) * 1e3, median(late) * 1e3,
                             ratio(median(late), median(early))])
            table(["path", "commands timed", "early median ms", "late median ms", "late/early"], rows,
                  title=f"Cost as a game grows: commands 1–{args.commands // 10} of a fresh game against commands "
                        f"{args.commands - args.commands // 10 + 1}–{args.commands} of a long one, alternating")
            rt.rq_redis.flushdb()  # the queued (never run) projection jobs of the latency run
            rows = []
            for concurrency in levels:
                results = {}
                for path in paths:
                    results[path.name] = throughput(path, concurrency, args.seconds)
                    rt.rq_redis.flushdb()
                raw_rate = results["raw append"][0] / results["raw append"][1]
                for name, (count, wall, xs) in results.items():
                    rate = count / wall
                    rows.append([concurrency, name, count, rate, ratio(rate, raw_rate), median(xs) * 1e3,
                                 percentile(xs, 99) * 1e3])
            table(["games at once", "path", "commands", "commands/s", "vs raw", "median ms", "p99 ms"], rows,
                  title=f"Throughput: N games played at once (one client thread each), {args.seconds:g} s per run")
        finally:
            if web is not None:
                harness.stop_process(web)
            if floor is not None:
                stop_floor(floor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
