"""A flood of sign-ins from one address, and what it does to everybody else's ``/api/health`` (issue #44).

    python bench/signin_flood.py [--quick] [--flood 60] [--seconds 10]

``burrow serve`` on a private redis-server, with production's argon2id cost (RFC 9106 low memory: 64 MiB, t=3),
runs in two modes:

* ``before`` — the hash gate opened wide (64 hashes at once, none refused) and no limit on right passwords: the
  service as issue #44 found it (every request thread may hash at once);
* ``after`` — the gate of ``services/accounts/gate.py`` (one hash per core, twice that waiting up to 2 s, the rest
  503 ``busy``) and the limits of ``services/accounts/passwords.py`` (10 sign-ins of a name and 60 from an address
  a minute, right or wrong).

In each mode one account is made, then ``--flood`` clients of one address (127.0.0.2) sign in with its right
password as fast as they can for ``--seconds``, while another client (127.0.0.3) asks ``/api/health`` every 100 ms:
its latency (p50, p95, max), how many of its checks were not 200 (it answers 503 when its own Redis check takes a
second), and the flood's answers by status. The target: the other client always 200, under 1 s at worst.
"""

from __future__ import annotations

import collections
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/signin_flood.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

# The server of a mode: ``burrow serve`` with the gate and the limits set first (``before``: wide open).
SERVE = ("import sys; import services.accounts.gate as g; import services.accounts.passwords as p; "
         "wide = sys.argv[1] == 'before'; "
         "wide and setattr(g.HashGate.__init__, '__defaults__', (64, 10**6, g.WAIT_SECONDS)); "
         "wide and [setattr(p, n, 10**9) for n in "
         "('CHECKS_PER_USERNAME', 'CHECKS_PER_CLIENT', 'PER_CLIENT', 'PER_USERNAME')]; "
         "from burrow.cli import main; sys.exit(main(sys.argv[2:]))")
MODES = ("before", "after")
PASSWORD = "correct horse battery staple"


def post(port: int, source: str, path: str, body: dict) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        conn.close()


def run_mode(mode: str, server: harness.RedisServer, flood: int, seconds: float) -> dict:
    port = harness.free_port()
    env = {**os.environ, "REDIS_URL": server.url(0), "RQ_URL": server.url(1), "BURROW_PREFIX": "bench"}
    argv = [sys.executable, "-c", SERVE, mode, "serve", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        harness.wait_http(port, seconds=120)
        status, _ = post(port, "127.0.0.4", "/api/accounts", {"username": "Ana", "password": PASSWORD})
        assert status == 201, status
        stop = time.monotonic() + seconds
        answers: collections.Counter = collections.Counter()
        lock = threading.Lock()

        def flooder() -> None:
            while time.monotonic() < stop:
                status, _ = post(port, "127.0.0.2", "/api/session", {"username": "Ana", "password": PASSWORD})
                with lock:
                    answers[status] += 1

        threads = [threading.Thread(target=flooder) for _ in range(flood)]
        for t in threads:
            t.start()
        time.sleep(0.5)  # the flood is under way
        health, unhealthy = [], 0
        while time.monotonic() < stop:
            start = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=("127.0.0.3", 0))
            conn.request("GET", "/api/health")
            unhealthy += conn.getresponse().status != 200  # (it answers 503 when its own check takes 1 s)
            conn.close()
            health.append(time.perf_counter() - start)
            time.sleep(0.1)
        for t in threads:
            t.join()
        return {"health": health, "unhealthy": unhealthy, "answers": answers}
    finally:
        harness.stop_process(proc)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--flood", type=int, default=60, help="concurrent sign-ins from one address")
    p.add_argument("--seconds", type=float, default=10.0, help="how long the flood lasts")
    args = p.parse_args(argv)
    if args.quick:
        args.flood, args.seconds = 12, 3.0
    harness.header("Sign-ins flooding from one address, and everybody else's health check", argv)
    rows, failed = [], False
    for mode in MODES:
        with harness.RedisServer() as server:
            r = run_mode(mode, server, args.flood, args.seconds)
        health, answers = r["health"], r["answers"]
        failed |= mode == "after" and (max(health) >= 1.0 or r["unhealthy"] > 0)
        rows.append([mode, harness.median(health), harness.percentile(health, 95), max(health), len(health),
                     r["unhealthy"], answers[200], answers[429], answers[503], sum(answers.values())])
    harness.table(["mode", "health p50 s", "health p95 s", "health max s", "health checks", "not 200",
                   "sign-ins 200", "429", "503", "sign-ins sent"], rows,
                  title=f"{args.flood} clients of one address signing in (argon2id, 64 MiB) for "
                        f"{args.seconds:g} s; another client asks /api/health every 100 ms")
    if failed:
        print("FAILED: after, the health check took 1 s or more, or did not answer 200")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
