"""Processes for the reliability tests: ``burrow`` subprocesses on a private Redis, and a tiny JSON HTTP client.

Everything listens on loopback ports; every process started here is killed by the test that started it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

from domain.base import commands
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30


class Burrow:
    """One ``python -m <module> <args>`` process (``burrow`` by default) in its own process group; its output goes
    to ``log_path``."""

    def __init__(self, args: list[str], log_path: Path, env: dict[str, str] | None = None,
                 module: str = "burrow.cli"):
        self.args = args
        self.module = module
        self.log_path = log_path
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.proc: subprocess.Popen | None = None

    def start(self) -> Burrow:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", self.module, *self.args], cwd=ROOT, env=self.env,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the process and its children (an RQ work horse, say): no cleanup runs."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


class Server(Burrow):
    """``burrow serve`` on a free port (a real Redis when ``redis_url`` is given, else embedded with ``data``)."""

    def __init__(self, log_path: Path, redis_url: str | None = None, data: Path | None = None,
                 env: dict[str, str] | None = None, workers: int = 2, port: int | None = None):
        self.port = port or free_port()
        args = ["serve", "--port", str(self.port), "--workers", str(workers)]
        args += ["--redis", redis_url] if redis_url else ["--data", str(data)]
        super().__init__(args, log_path, env)

    def start(self) -> Server:
        super().start()
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"burrow serve exited early:\n{self.log()}")
            try:
                if self.http().get("/api/health")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"burrow serve did not answer within {START_SECONDS}s:\n{self.log()}")

    def http(self) -> Http:
        return Http(self.port)


class Http:
    """JSON over HTTP/1.1 to 127.0.0.1:<port>, one connection per request."""

    def __init__(self, port: int, timeout: float = 30):
        self.port = port
        self.timeout = timeout

    def request(self, method: str, path: str, body=None, token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict | str, dict[str, str]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            sent = dict(headers or {})
            data = None
            if body is not None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                sent.setdefault("Content-Type", "application/json")
            if token:
                sent["Authorization"] = f"Bearer {token}"
            conn.request(method, path, body=data, headers=sent)
            response = conn.getresponse()
            raw = response.read()
            answer_headers = {k.lower(): v for k, v in response.getheaders()}
            if answer_headers.get("content-type", "").startswith("application/json"):
                return response.status, json.loads(raw), answer_headers
            return response.status, raw.decode(errors="replace"), answer_headers
        finally:
            conn.close()

    def get(self, path: str, token: str | None = None):
        status, body, _ = self.request("GET", path, token=token)
        return status, body

    def post(self, path: str, body, token: str | None = None):
        status, answer, _ = self.request("POST", path, body, token=token)
        return status, answer


def wait_until(predicate, seconds: float, step: float = 0.1, what: str = "condition"):
    """Poll ``predicate`` until it returns something truthy (returned); AssertionError after ``seconds``.

    A bound on waiting for convergence, not a timing assertion: generous, and only hit when something is broken.
    """
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"gave up waiting for {what} after {seconds}s")
        time.sleep(step)


class Players:
    """Threads that play games through HTTP, one thread per game, recording every acknowledged command.

    A command counts as acknowledged when its answer was a 200; everything else (503, 409, a refused or reset
    connection while a process is down) is only counted in ``outcomes``. Each thread stops when ``stop`` is set,
    its game ends, or after ``max_steps`` attempts.
    """

    def __init__(self, port: int, games: list[dict], seed: int = 0, max_steps: int = 5000, resend: bool = False):
        self.http = Http(port, timeout=10)
        # ``resend``: a command answered 503 is sent again, same body and command_id, until it gets another
        # answer (a client that cares for its command); by default the player looks at the game again instead.
        self.resend = resend
        self.games = games
        self.seed = seed
        self.max_steps = max_steps
        self.stop = threading.Event()
        self.acked: list[tuple[str, str, dict]] = []  # (gid, token of the seat that sent it, answer)
        self.outcomes: Counter = Counter()
        self.samples: dict[object, object] = {}  # one answer body per outcome
        self.timeline: list[tuple[float, object, str]] = []  # (monotonic time, 200 or outcome, gid) of answers
        self.seen: dict[str, tuple] = {}  # gid → (status, version, to_act) of the game as last read
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def start(self) -> Players:
        for i, game in enumerate(self.games):
            thread = threading.Thread(target=self._play, args=(game, random.Random(self.seed * 1000 + i)),
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def finish(self) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join(timeout=60)
        assert not any(t.is_alive() for t in self._threads)

    def count(self) -> int:
        with self._lock:
            return len(self.acked)

    def playing(self) -> bool:
        """Whether a thread still plays (its game not over, not stopped)."""
        return any(t.is_alive() for t in self._threads)

    def unfinished(self) -> dict[str, tuple]:
        """The games still played, each as last read (status, version, to_act): what a test says when it gives
        up waiting for them."""
        with self._lock:
            return {game["id"]: self.seen.get(game["id"]) for game, thread in zip(self.games, self._threads)
                    if thread.is_alive()}

    def _note(self, outcome, body=None, gid: str = "") -> None:
        with self._lock:
            self.outcomes[outcome] += 1
            self.samples.setdefault(outcome, body)
            self.timeline.append((time.monotonic(), outcome, gid))

    def _play(self, game: dict, rng: random.Random) -> None:
        gid = game["id"]
        humans = {s["seat"]: s["token"] for s in game["seats"] if "token" in s}
        any_token = next(iter(humans.values()))
        version = game["version"]
        for _ in range(self.max_steps):
            if self.stop.is_set():
                return
            try:
                status, doc = self.http.get(f"/api/games/{gid}?min_version={version}", any_token)
                if status != 200:
                    self._note(status, doc)
                    time.sleep(0.05)
                    continue
                with self._lock:
                    self.seen[gid] = (doc["status"], doc["version"], doc["to_act"])
                if doc["status"] == "finished":
                    return
                seats = [s for s in doc["to_act"] if s in humans]
                if not seats:  # an AI seat is thinking
                    time.sleep(0.05)
                    continue
                seat = seats[0]
                status, mine = self.http.get(f"/api/games/{gid}?min_version={doc['version']}", humans[seat])
                if status != 200 or not mine["legal"]:
                    self._note(status, mine)
                    continue
                body = {"move": rng.choice(commands(mine["legal"])), "expected_version": mine["version"],
                        "command_id": uuid.uuid4().hex}
                status, answer = self.http.post(f"/api/games/{gid}/commands", body, humans[seat])
                while self.resend and status == 503 and not self.stop.is_set():
                    self._note(503, answer, gid)
                    time.sleep(0.05)
                    status, answer = self.http.post(f"/api/games/{gid}/commands", body, humans[seat])
            except (OSError, http.client.HTTPException) as exc:
                self._note("connection", repr(exc))
                time.sleep(0.05)
                continue
            if status == 200:
                with self._lock:
                    self.acked.append((gid, humans[seat], answer))
                    self.timeline.append((time.monotonic(), 200, gid))
                version = answer["version"]
            else:
                self._note(status, answer, gid)
                if status == 409:
                    version = answer["error"]["version"]


def assert_acknowledged_present(http: Http, acked: list[tuple[str, str, dict]]) -> None:
    """Every acknowledged command's events are in its game, at their versions, as answered: the same type, commit
    time and data. (A finished game's feed shows everything: a field hidden from the seat then, ``null``, and the
    sentence that would have named it, may show now.)"""
    feeds: dict[tuple[str, str], dict[int, dict]] = {}
    for gid, token, answer in acked:
        if (gid, token) not in feeds:
            feeds[gid, token] = whole_feed(http, gid, token)
        feed = feeds[gid, token]
        for event in answer["events"]:
            stored = as_answered(feed.get(event["version"]), event)
            assert stored == as_answered(event, event), f"acknowledged event lost: {gid} {event}, stored: {stored}"


def whole_feed(http: Http, gid: str, token: str | None) -> dict[int, dict]:
    """The game's events as ``token``'s seat reads them, every page of them, by version."""
    events: dict[int, dict] = {}
    while True:
        status, body = http.get(f"/api/games/{gid}/events?after={max(events, default=0)}", token)
        assert status == 200, body
        if not body["events"]:
            return events
        events.update((e["version"], e) for e in body["events"])


def as_answered(stored: dict | None, answered: dict) -> dict | None:
    """What identifies ``stored`` (version, type, commit time, data), the data fields ``answered`` had hidden
    (``null``) hidden again."""
    if stored is None:
        return None
    hidden = {k for k, v in answered.get("data", {}).items() if v is None}
    return {"version": stored["version"], "type": stored["type"], "at": stored["at"],
            "data": {k: None if k in hidden else v for k, v in stored.get("data", {}).items()}}
