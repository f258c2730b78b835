"""Processes for the reliability tests: ``burrow`` subprocesses on a private Redis, and a tiny JSON HTTP client.

Everything listens on loopback ports; every process started here is killed by the test that started it.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30


class Burrow:
    """One ``python -m <module> <args>`` process (``burrow`` by default) in its own process group; its output goes
    to ``log_path``."""

    def __init__(self, args: list[str], log_path: Path, env: dict[str, str] | None = None,
                 module: str = "services.cli"):
        self.args = args
        self.module = module
        self.log_path = log_path
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Burrow":
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", self.module, *self.args], cwd=ROOT, env=self.env,
                                     stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the process and its children (an RQ work horse, say): no cleanup runs."""
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
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

    def start(self) -> "Server":
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

    def http(self) -> "Http":
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
