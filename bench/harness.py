"""What the bench scripts share: a private redis-server, the machine line, percentiles, tables, random games.

Every script prints Markdown tables (so ``docs/benchmarks.md`` can take them as they are) and runs against
servers it starts itself on loopback ports, never the shared Redis on 6379.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import platform
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/<script>.py`` from a checkout without an editable install
    sys.path.insert(0, str(ROOT))

import redis

from domain.base import Event, Setup, commands
from domain.registry import GAME_NAMES, game_module


def parser(description: str) -> argparse.ArgumentParser:
    """An argument parser with the ``--quick`` switch every script has."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run of a few seconds")
    return p


# -- the machine -----------------------------------------------------------------------------------------------

class JsonClient:
    """One keep-alive HTTP connection to a Burrow server on loopback, from ``source`` (an address of its own: a
    client of its own for the per-client limits)."""

    def __init__(self, port: int, source: tuple[str, int] | None = None, timeout: float = 30):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=source)

    def post(self, path: str, body: dict, token: str | None, status: int, headers: dict | None = None) -> dict:
        """POST ``body`` as JSON (with ``headers`` besides); the answer's JSON, or ``RuntimeError`` unless the
        status is ``status``."""
        return self.request("POST", path, json.dumps(body), token, status,
                            {"Content-Type": "application/json", **(headers or {})})

    def get(self, path: str, token: str | None = None, status: int = 200) -> dict:
        """GET ``path`` (as ``token``'s seat, if given); the answer's JSON, or ``RuntimeError`` unless the status
        is ``status``."""
        return self.request("GET", path, None, token, status)

    def request(self, method: str, path: str, body: str | None, token: str | None, status: int,
                headers: dict | None = None) -> dict:
        headers = dict(headers or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(3):
            try:
                self.conn.request(method, path, body, headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server closed an idle keep-alive connection: the next request opens a fresh one
                self.conn.close()
                if attempt == 2:
                    raise
        if response.status != status:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return json.loads(data)


class MinimalClient:
    """``JsonClient``'s ``post`` on a bare socket: the request's bytes written at once, the answer read by its
    ``Content-Length`` (what a browser's compiled HTTP stack costs, against ``http.client``'s header parsing in
    Python). When the server has closed the connection (Hypercorn closes a keep-alive one after 1,000 requests),
    the request is sent again on a new one: the server had not read it."""

    def __init__(self, port: int, source: tuple[str, int] | None = None, timeout: float = 30):
        self.port, self.source, self.timeout = port, source, timeout
        self.sock: socket.socket | None = None

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout, self.source)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def post(self, path: str, body: dict, token: str | None, status: int, headers: dict | None = None) -> dict:
        data = json.dumps(body).encode()
        head = {"Host": "127.0.0.1", "Content-Type": "application/json", "Content-Length": str(len(data)),
                **({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
        request = "".join([f"POST {path} HTTP/1.1\r\n", *(f"{k}: {v}\r\n" for k, v in head.items()),
                           "\r\n"]).encode() + data
        for attempt in range(3):
            if self.sock is None:
                self.sock = self._connect()
            try:
                self.sock.sendall(request)
                code, answer = self._read()
                break
            except (ConnectionError, EOFError):
                self.sock.close()
                self.sock = None
                if attempt == 2:
                    raise
        if code != status:
            raise RuntimeError(f"POST {path}: {code} {answer[:200]!r}")
        return json.loads(answer)

    def _read(self) -> tuple[int, bytes]:
        buf = b""
        while b"\r\n\r\n" not in buf:
            buf += self._recv(bool(buf))
        head, _, rest = buf.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        length = next(int(line.partition(b":")[2]) for line in lines[1:]
                      if line.lower().startswith(b"content-length:"))
        while len(rest) < length:
            rest += self._recv(True)
        return int(lines[0].split()[1]), rest[:length]  # keep-alive, one request at a time: nothing follows

    def _recv(self, started: bool) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:  # closed before the answer began: send again; closed within it: a real failure
            raise (RuntimeError("the server closed the connection within an answer") if started else EOFError())
        return chunk


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def redis_version() -> str:
    try:
        out = subprocess.run(["redis-server", "--version"], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return "none"
    for word in out.split():
        if word.startswith("v="):
            return word[2:]
    return out.strip() or "unknown"


def machine_line() -> str:
    """``nproc``, CPU model, Python and Redis versions: the line every table is read against."""
    return (f"machine: {os.cpu_count()} cores ({cpu_model()}), Python {platform.python_version()}, "
            f"redis-server {redis_version()}, {platform.system()} {platform.machine()}")


def header(title: str, argv: Sequence[str] | None = None) -> None:
    """The title, the command that produced the tables and the machine."""
    args = " ".join(sys.argv[1:] if argv is None else argv)
    script = Path(sys.argv[0]).name
    print(f"## {title}\n")
    print(f"command: `python bench/{script}{' ' + args if args else ''}`  ")
    print(f"{machine_line()}\n")
    sys.stdout.flush()


# -- numbers and tables ------------------------------------------------------------------------------------------

def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[rank]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ratio(value: float, reference: float) -> str:
    """``value / reference`` as ``"2.31×"``."""
    if not reference or math.isnan(reference) or math.isnan(value):
        return "–"
    return f"{value / reference:.2f}×"


def fmt(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        if abs(value) >= 100:
            return f"{value:.1f}"
        return f"{value:.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], title: str | None = None) -> str:
    """A Markdown table (numbers right-aligned), printed and returned."""
    rows = [[fmt(c) for c in row] for row in rows]
    widths = [max([len(col)] + [len(r[i]) for r in rows]) for i, col in enumerate(columns)]
    numeric = [all(_numberish(r[i]) for r in rows) and bool(rows) for i in range(len(columns))]
    lines = []
    if title:
        lines.append(f"**{title}**\n")
    lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(columns, widths)) + " |")
    lines.append("|" + "|".join(("-" * (w + 1) + ":") if n else ("-" * (w + 2))
                                 for w, n in zip(widths, numeric)) + "|")
    for r in rows:
        lines.append("| " + " | ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(r, widths, numeric))
                     + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    sys.stdout.flush()
    return text


def _numberish(text: str) -> bool:
    stripped = text.replace(",", "").replace("×", "").replace("%", "").replace("–", "0").strip()
    try:
        float(stripped)
        return True
    except ValueError:
        return False


class Timer:
    """``with Timer() as t: ...``; then ``t.seconds``."""

    def __enter__(self) -> Self:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.perf_counter() - self.start


# -- servers ------------------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A redis-server of our own on a free loopback port, configured like production (AOF everysec,
    noeviction) unless ``aof=False``. A context manager; ``url(db)`` gives its URL."""

    def __init__(self, aof: bool = True):
        if shutil.which("redis-server") is None:
            raise SystemExit("the benchmarks need redis-server (apt-get install redis-server)")
        self.dir = tempfile.mkdtemp(prefix="burrow-bench-redis-")
        self.port = free_port()
        self.aof = aof
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self, db: int = 0) -> redis.Redis:
        return redis.Redis.from_url(self.url(db))

    def __enter__(self) -> Self:
        persistence = ["--appendonly", "yes", "--appendfsync", "everysec"] if self.aof else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--maxmemory-policy", "noeviction", *persistence],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = self.client()
        for _ in range(250):
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                time.sleep(0.02)
        self.__exit__()
        raise RuntimeError("redis-server did not start")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def runtime_for(server: RedisServer, prefix: str = "bench"):
    """A production-shaped runtime (events db 0, RQ queues db 1) over ``server``."""
    from burrow.runtime import build, install
    from services.config import Settings

    rt = build(Settings(redis_url=server.url(0), rq_url=server.url(1), prefix=prefix), journal=False)
    install(rt)
    return rt


def child_json(script: str, *args: str, timeout: float = 3600) -> dict | None:
    """Run ``python script *args`` (a bench script running one of its modes in a process of its own) and read the
    JSON of its last line; None, its error printed, when it failed."""
    done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=timeout,
                          check=False, cwd=ROOT)
    if done.returncode != 0:
        print(done.stderr[-3000:], file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def wait_http(port: int, path: str = "/api/health", seconds: float = 30.0) -> None:
    """Wait until ``GET path`` answers 200 on loopback ``port``."""
    import http.client

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


def serve(server: RedisServer, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, int]:
    """``burrow serve --host 127.0.0.1 --port <free> *args`` on ``server`` (events on db 0, queues on db 1, prefix
    ``bench``, ``env`` besides), once ``/api/health`` answers (within two minutes: on a busy machine importing the
    AI cores and starting the workers may take a minute of wall time); returns the process and its port."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": server.url(0), "RQ_URL": server.url(1), "BURROW_PREFIX": "bench",
           **(env or {})}
    argv = [sys.executable, "-m", "burrow.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *args]
    proc = spawn_logged(argv, env=env)
    try:
        wait_http(port, seconds=120)
    except RuntimeError:
        proc.kill()
        raise RuntimeError("burrow serve did not start: " + logged_tail(proc)) from None
    return proc, port


def spawn_logged(argv: list[str], **options) -> subprocess.Popen:
    """``argv`` started with its stdout and stderr in a temporary file (``logged_tail`` reads it), never an unread
    pipe: a server that logs more than a pipe holds (64 KiB) would block on its next line."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process (closed with it)
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, **options)
    proc.log = log  # type: ignore[attr-defined]
    return proc


def logged_tail(proc: subprocess.Popen, chars: int = 2000) -> str:
    """The end of what ``proc`` (started by ``spawn_logged``) wrote, once it has ended."""
    proc.wait(10)
    proc.log.seek(0)  # type: ignore[attr-defined]
    return proc.log.read().decode(errors="replace")[-chars:]  # type: ignore[attr-defined]


def stop_process(proc: subprocess.Popen) -> None:
    """Ask ``proc`` to end (SIGTERM), and kill it if it has not after 15 s."""
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- games -------------------------------------------------------------------------------------------------------

MURUS_LOOP_POSITION = {
    "turn": "romans",
    "cells": {**dict.fromkeys(("a1", "b1", "e1", "f1", "g1", "h1"), "RR"),
              **dict.fromkeys(("a7", "b7", "e7", "f7", "g7", "h7"), "GG")},
}
"""A Murus position where both sides can shuffle two towers forever (no contact, no goal row in reach)."""
MURUS_LOOP = (("b1-d1", "b7-d7"), ("a1-c1", "a7-c7"), ("c1-a1", "c7-a7"),
              ("b1-d1", "b7-d7"), ("d1-b1", "d7-b7"), ("c1-a1", "c7-a7"))
"""Six Roman moves and the Gauls' mirror moves that bring the position back to ``MURUS_LOOP_POSITION``."""


def murus_loop_move(ply: int) -> tuple[int, str]:
    """(seat, move) of ply ``ply`` (0-based) of a Murus game from ``MURUS_LOOP_POSITION`` that never ends."""
    seat = ply % 2
    return seat, MURUS_LOOP[(ply // 2) % len(MURUS_LOOP)][seat]


def random_game(name: str, rng: random.Random, max_plies: int = 4000) -> tuple[int, list[Event], int]:
    """(seats, events, commands) of one game of ``name`` played with random legal commands to its end (or
    ``max_plies`` commands)."""
    module = game_module(name)
    seats = rng.randint(*module.SEATS)
    events = list(module.initial(Setup(seats=seats), rng))
    state = None
    for event in events:
        state = module.evolve(state, event)
    plies = 0
    while plies < max_plies and module.status(state) != "finished":
        seat = rng.choice(module.to_act(state))
        move = rng.choice(commands(module.legal(state, seat)))  # a range (commit 0..N): one of its
        new = module.decide(state, seat, module.parse(move), rng)
        for event in new:
            state = module.evolve(state, event)
        events.extend(new)
        plies += 1
    return seats, events, plies


def games_available() -> tuple[str, ...]:
    return GAME_NAMES


def store_game(store, gid: str, name: str, seats: int, events: list[Event], batch: int = 500) -> int:
    """Append a generated game to ``store`` as the service would have (metadata with the first event), in
    batches of ``batch`` events; returns its version."""
    import json

    from services.store import codec

    players = [{"name": f"Player {i + 1}"} for i in range(seats)]
    meta = json.dumps({"id": gid, "game": name, "players": players, "seed": None,
                       "created": int(time.time() * 1000)}).encode()
    encoded = [codec.encode(e) for e in events]
    version = 0
    for start in range(0, len(encoded), batch):
        version = store.append(gid, encoded[start:start + batch], expected_version=version,
                               meta=meta if start == 0 else None).version
    return version
