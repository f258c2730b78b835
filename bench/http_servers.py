"""What the HTTP server alone costs a request: Hypercorn (what ``burrow serve`` runs) against uvicorn and Granian.

    python bench/http_servers.py [--requests 3000] [--quick]

Each server runs the same three-line ASGI application ("ok", no framework) in a process of its own on a loopback
port; one keep-alive client sends ``GET /`` to them in turn, in blocks of 100, so that every server sees the same
moments of the machine. The floor under every request of the site: `docs/benchmarks.md` ("The front") compares it
with a whole HTTP command. uvicorn (with httptools) and Granian are not dependencies of Burrow: a server that is
not installed is named and skipped (``pip install uvicorn httptools granian`` to measure them too).
"""

from __future__ import annotations

import http.client
import importlib.util
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

APP = '''async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})
'''

# name → (the modules it needs, its command line for ``port``)
SERVERS = {
    "hypercorn (h11, uvloop)": (("hypercorn", "uvloop"),
                                lambda port: ["-m", "hypercorn", "-k", "uvloop", "-b", f"127.0.0.1:{port}",
                                              "bare:app"]),
    "uvicorn (httptools, uvloop)": (("uvicorn", "httptools", "uvloop"),
                                    lambda port: ["-m", "uvicorn", "--loop", "uvloop", "--http", "httptools",
                                                  "--port", str(port), "--no-access-log", "bare:app"]),
    "granian (Rust, asgi)": (("granian",),
                             lambda port: ["-m", "granian", "--interface", "asgi", "--port", str(port), "--no-ws",
                                           "bare:app"]),
}


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=3000, help="requests per server")
    args = p.parse_args(argv)
    if args.quick:
        args.requests = 200
    harness.header("The HTTP server alone: one trivial ASGI app on each", argv)
    here = tempfile.mkdtemp(prefix="burrow-bench-http-")
    Path(here, "bare.py").write_text(APP)
    present = {name: line for name, (needs, line) in SERVERS.items()
               if all(importlib.util.find_spec(m) for m in needs)}
    missing = [name for name in SERVERS if name not in present]
    procs, conns = {}, {}
    try:
        for name, line in present.items():
            port = harness.free_port()
            procs[name] = subprocess.Popen([sys.executable, *line(port)], cwd=here, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL)
            harness.wait_http(port, "/")
            conns[name] = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        times: dict[str, list[float]] = {name: [] for name in present}
        clock = time.perf_counter
        for _ in range(max(1, args.requests // 100)):
            for name, conn in conns.items():
                for _ in range(100):
                    start = clock()
                    conn.request("GET", "/")
                    answer = conn.getresponse()
                    answer.read()
                    times[name].append(clock() - start)
                    if answer.status != 200:
                        raise SystemExit(f"{name} answered {answer.status}")
        first = harness.median(times[next(iter(present))])
        harness.table(["server", "requests", "median ms", "p99 ms", "median vs Hypercorn"],
                      [[name, len(xs), harness.median(xs) * 1e3, harness.percentile(xs, 99) * 1e3,
                        harness.ratio(harness.median(xs), first)] for name, xs in times.items()],
                      title="One keep-alive client, GET / answered \"ok\", the servers in turn, 100 requests each")
        if missing:
            print(f"not installed, not measured: {', '.join(missing)} (pip install uvicorn httptools granian)\n")
    finally:
        for proc in procs.values():
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(here, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
