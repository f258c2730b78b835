"""What the HTTP server costs a request: Hypercorn (what ``burrow serve`` runs) against uvicorn and Granian.

    python bench/http_servers.py [--requests 3000] [--commands 2000] [--quick]

Two tables. **The server alone**: each server runs the same three-line ASGI application ("ok", no framework) in a
process of its own on a loopback port; one keep-alive client sends ``GET /`` to them in turn, in blocks of 100, so
that every server sees the same moments of the machine. **Where a command's time goes**: each server runs the
site itself (``burrow.asgi``, one process, a private redis-server) wrapped in a recorder that notes when a
``POST /api/games/<gid>/commands`` enters the application, reaches the Flask bridge, starts and ends on its Flask
thread, enters and leaves ``GameService.command``, and has its answer handed to the server; the client sends the
moment it starts each request and, with the next one, the moment the previous answer was read (one machine, one
monotonic clock). The segments' medians show what the server, the front, Flask and the service each take.

uvicorn (with httptools) and Granian are not dependencies of Burrow: a server that is not installed is named and
skipped (``pip install uvicorn httptools granian`` to measure them too).
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/http_servers.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness
from command_path import HttpGame

APP = '''async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})
'''

# The site under a recorder of when each command passes each layer (the second table).
RECORDER = '''import json, time
from services.games.commands import GameService
from web.bridge import Bridge

clock, now, rows = time.perf_counter, {}, []
answer, call, command = Bridge._answer, Bridge.__call__, GameService.command


def _answer(self, environ):
    now["flask_in"] = clock()
    try:
        return answer(self, environ)
    finally:
        now["flask_out"] = clock()


async def _call(self, scope, receive, send):
    now["bridge_in"] = clock()
    return await call(self, scope, receive, send)


def _command(self, *args, **kwargs):
    now["service_in"] = clock()
    try:
        return command(self, *args, **kwargs)
    finally:
        now["service_out"] = clock()


Bridge._answer, Bridge.__call__, GameService.command = _answer, _call, _command
from burrow.asgi import app as site  # noqa: E402


async def app(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == "/__rows":
        body = json.dumps(rows).encode()
        length = [(b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 200, "headers": length})
        await send({"type": "http.response.body", "body": body})
        return
    if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].endswith("/commands"):
        return await site(scope, receive, send)
    headers, entered = dict(scope["headers"]), clock()

    async def sent(message):
        if message["type"] == "http.response.body":
            now["sent"] = clock()
        await send(message)

    await site(scope, receive, sent)
    if rows and b"x-read" in headers:
        rows[-1]["read"] = float(headers[b"x-read"])
    rows.append({"start": float(headers.get(b"x-start", b"0")), "in": entered, **now})
'''

# What each segment of a command spans: (label, from, to)
SEGMENTS = [("client → application (the client's send, the server's read and parse)", "start", "in"),
            ("front: guard, routing, the body (web/front.py)", "in", "bridge_in"),
            ("hop to a Flask thread (web/bridge.py)", "bridge_in", "flask_in"),
            ("Flask before the service (context, hooks, body, seat)", "flask_in", "service_in"),
            ("GameService.command (its Redis round trip included)", "service_in", "service_out"),
            ("Flask after the service (texts, JSON, hooks)", "service_out", "flask_out"),
            ("hop back, the server's write", "flask_out", "sent"),
            ("application → client (the client's read and parse)", "sent", "read"),
            ("whole command", "start", "read")]

# name → (the modules it needs, its command line for ``port`` and the application ``target``)
SERVERS = {
    "hypercorn (h11, uvloop)": (("hypercorn", "uvloop"),
                                lambda port, target: ["-m", "hypercorn", "-k", "uvloop", "-b", f"127.0.0.1:{port}",
                                                      target]),
    "uvicorn (httptools, uvloop)": (("uvicorn", "httptools", "uvloop"),
                                    lambda port, target: ["-m", "uvicorn", "--loop", "uvloop", "--http",
                                                          "httptools", "--port", str(port), "--no-access-log",
                                                          target]),
    "granian (Rust, asgi)": (("granian",),
                             lambda port, target: ["-m", "granian", "--interface", "asgi", "--loop", "uvloop",
                                                   "--port", str(port), "--no-ws", "--log-level", "warning",
                                                   target]),
}


def start(present: dict, here: str, target: str, env: dict | None = None, path: str = "/") -> dict:
    """Each present server serving ``target`` from ``here``: name → (process, port)."""
    procs = {}
    for name, line in present.items():
        port = harness.free_port()
        procs[name] = (subprocess.Popen([sys.executable, *line(port, target)], cwd=here, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), port)
        harness.wait_http(port, path)
    return procs


def stop(procs: dict) -> None:
    for proc, _ in procs.values():
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def alone(present: dict, here: str, requests: int) -> None:
    """The first table: each server answering "ok"."""
    procs = start(present, here, "bare:app")
    try:
        conns = {name: http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                 for name, (_, port) in procs.items()}
        times: dict[str, list[float]] = {name: [] for name in present}
        clock = time.perf_counter
        for _ in range(max(1, requests // 100)):
            for name, conn in conns.items():
                for _ in range(100):
                    begun = clock()
                    conn.request("GET", "/")
                    answer = conn.getresponse()
                    answer.read()
                    times[name].append(clock() - begun)
                    if answer.status != 200:
                        raise SystemExit(f"{name} answered {answer.status}")
        first = harness.median(times[next(iter(present))])
        harness.table(["server", "requests", "median ms", "p99 ms", "median vs Hypercorn"],
                      [[name, len(xs), harness.median(xs) * 1e3, harness.percentile(xs, 99) * 1e3,
                        harness.ratio(harness.median(xs), first)] for name, xs in times.items()],
                      title="The server alone: one keep-alive client, GET / answered \"ok\", the servers in turn, "
                            "100 requests each")
    finally:
        stop(procs)


class Player(HttpGame):
    """One Murus game through one server (``bench/command_path.py``'s), each command stamped with the client's
    clock: when it starts, and, with the next one, when its answer was read."""

    def __init__(self, port: int, client: int):
        super().__init__(port, client)
        self.read: float | None = None

    def play(self) -> None:
        stamps = {"X-Start": repr(time.perf_counter())}
        if self.read is not None:
            stamps["X-Read"] = repr(self.read)
        super().play(stamps)
        self.read = time.perf_counter()

    def rows(self) -> list[dict]:
        self.client.conn.request("GET", "/__rows")
        return json.loads(self.client.conn.getresponse().read())


def anatomy(present: dict, here: str, commands: int) -> None:
    """The second table: a command's segments on each server running the site."""
    Path(here, "recorded.py").write_text(RECORDER)
    with harness.RedisServer() as server:
        env = {**os.environ, "REDIS_URL": server.url(0), "RQ_URL": server.url(1), "BURROW_PREFIX": "bench",
               "PYTHONPATH": os.pathsep.join([here, str(ROOT)])}
        procs = start(present, here, "recorded:app", env, "/api/health")
        try:
            players = {name: Player(port, i) for i, (name, (_, port)) in enumerate(procs.items())}
            for player in players.values():  # warm-up: imports, caches
                for _ in range(50):
                    player.play()
            for _ in range(max(1, commands // 100)):
                for player in players.values():
                    for _ in range(100):
                        player.play()
            medians = {}
            for name, player in players.items():
                rows = [r for r in player.rows()[50:] if "read" in r and r["start"]]
                medians[name] = [harness.median([r[b] - r[a] for r in rows]) * 1e3 for _, a, b in SEGMENTS]
        finally:
            stop(procs)
    names = list(medians)
    harness.table(["segment (median ms)", *names], [[label, *(medians[n][i] for n in names)]
                                                     for i, (label, _, _) in enumerate(SEGMENTS)],
                  title=f"Where an HTTP command's time goes: the site (one process) on each server, {commands} "
                        "commands each, the servers in turn, 100 at a time")
    print("(A segment's median is not a share of the whole's: the medians of the parts need not add up to it.)\n")


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=3000, help="requests per server, the server alone")
    p.add_argument("--commands", type=int, default=2000, help="commands per server, the whole site")
    args = p.parse_args(argv)
    if args.quick:
        args.requests, args.commands = 200, 200
    harness.header("The HTTP server: alone, and under the site", argv)
    here = tempfile.mkdtemp(prefix="burrow-bench-http-")
    Path(here, "bare.py").write_text(APP)
    present = {name: line for name, (needs, line) in SERVERS.items()
               if all(importlib.util.find_spec(m) for m in needs)}
    missing = [name for name in SERVERS if name not in present]
    try:
        alone(present, here, args.requests)
        anatomy(present, here, args.commands)
        if missing:
            print(f"not installed, not measured: {', '.join(missing)} (pip install uvicorn httptools granian)\n")
    finally:
        shutil.rmtree(here, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
