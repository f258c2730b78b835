"""Old versions of a long game: one read's cost, and what 40 at once from one client do to everybody else.

    python bench/old_versions.py [--quick] [--events 20000] [--flood 40] [--seconds 10]

A Murus game of ``--events`` events (the endless loop position: two towers shuffled for ever) and a small game are
stored on a private redis-server (AOF everysec); then ``burrow serve`` runs on it in two modes:

* ``before`` — no snapshots (every read of a version folds the game from its first event) and no cap per client
  on such reads: the service as issue #31 found it;
* ``after`` — snapshots every 256 versions (``services/games/snapshots.py``) and at most
  ``BURROW_OLD_READS_PER_CLIENT`` (2) reads of old versions of one client under way at once (429 beyond).

In each mode: the first read of the newest version (which, after, writes the game's snapshots on the way), then
the median of 20 reads of random versions, one at a time; then ``--flood`` clients of one address (loopback
127.0.0.2) read random old versions as fast as they can for ``--seconds`` while another client (127.0.0.3) reads
the small game's document every 50 ms: its latency (p50, p95, max), the flood's reads answered and refused (429).
The target: the other client under 1 s and one read well under a second.
"""

from __future__ import annotations

import http.client
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/old_versions.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

# The server of a mode: ``burrow serve`` with the snapshot interval set first (``before``: none within the game).
SERVE = ("import sys; import services.games.snapshots as s; s.EVERY = int(sys.argv[1]); "
         "from burrow.cli import main; sys.exit(main(sys.argv[2:]))")
MODES = {"before": (10**12, 0), "after": (256, 2)}  # snapshot interval, old reads per client (0: no cap)


def store_games(server: harness.RedisServer, events: int) -> tuple[str, str]:
    """The long game (``events`` events) and a small one, stored as the service stores games."""
    from domain.base import Setup
    from domain.registry import game_module
    from services.store.streams import EventStore, Keys, new_game_id

    module = game_module("murus")
    rng = random.Random(1)
    made = list(module.initial(Setup(seats=2, position=harness.MURUS_LOOP_POSITION), rng))
    state = None
    for e in made:
        state = module.evolve(state, e)
    ply = 0
    while len(made) < events:
        seat, move = harness.murus_loop_move(ply)
        new = module.decide(state, seat, module.parse(move), rng)
        for e in new:
            state = module.evolve(state, e)
        made.extend(new)
        ply += 1
    assert module.status(state) == "playing"
    store = EventStore(server.client(0), Keys("burrow"))
    long_gid, small_gid = new_game_id(), new_game_id()
    harness.store_game(store, long_gid, "murus", 2, made[:events])
    harness.store_game(store, small_gid, "murus", 2, made[:3])
    return long_gid, small_gid


class Client:
    """GETs on one keep-alive connection from ``source``; (status, seconds) of each."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.conn = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=120, source_address=(self.source, 0))

    def get(self, path: str) -> tuple[int, float]:
        start = time.perf_counter()
        for attempt in range(3):
            try:
                self.conn.request("GET", path)
                response = self.conn.getresponse()
                response.read()
                return response.status, time.perf_counter() - start
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = self._connect()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def run_mode(mode: str, url: str, long_gid: str, small_gid: str, events: int, flood: int, seconds: float) -> dict:
    every, cap = MODES[mode]
    port = harness.free_port()
    env = {**os.environ, "BURROW_OLD_READS_PER_CLIENT": str(cap), "BURROW_PREFIX": "burrow"}
    argv = [sys.executable, "-c", SERVE, str(every), "serve", "--redis", url, "--port", str(port)]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        harness.wait_http(port, seconds=60)
        one = Client(port, "127.0.0.4")
        status, first = one.get(f"/api/games/{long_gid}?version={events}")
        assert status == 200, status
        rng = random.Random(7)
        singles = []
        for _ in range(20):
            status, took = one.get(f"/api/games/{long_gid}?version={rng.randint(1, events)}")
            assert status == 200, status
            singles.append(took)
        stop = time.monotonic() + seconds
        answered, refused, flood_times = [0], [0], []
        lock = threading.Lock()

        def flooder(i: int) -> None:
            c, r = Client(port, "127.0.0.2"), random.Random(i)
            while time.monotonic() < stop:
                status, took = c.get(f"/api/games/{long_gid}?version={r.randint(1, events)}")
                with lock:
                    if status == 429:
                        refused[0] += 1
                    else:
                        answered[0] += 1
                        flood_times.append(took)
                if status == 429:
                    time.sleep(0.05)  # as a client told "retry after" would, a little

        threads = [threading.Thread(target=flooder, args=(i,)) for i in range(flood)]
        for t in threads:
            t.start()
        time.sleep(0.5)  # the flood is under way
        other, plain = Client(port, "127.0.0.3"), []
        while time.monotonic() < stop:
            status, took = other.get(f"/api/games/{small_gid}")
            assert status == 200, status
            plain.append(took)
            time.sleep(0.05)
        for t in threads:
            t.join()
        return {"first": first, "single": harness.median(singles), "plain": plain, "answered": answered[0],
                "refused": refused[0], "flood_p50": harness.median(flood_times) if flood_times else None}
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=20_000, help="events of the long game")
    p.add_argument("--flood", type=int, default=40, help="concurrent old-version readers of one client")
    p.add_argument("--seconds", type=float, default=10.0, help="how long the flood lasts")
    args = p.parse_args(argv)
    if args.quick:
        args.events, args.flood, args.seconds = 2_000, 8, 3.0
    harness.header("Old versions of a long game under a flood of reads from one client", argv)
    rows, failed = [], False
    for mode in MODES:
        with harness.RedisServer() as server:
            long_gid, small_gid = store_games(server, args.events)
            r = run_mode(mode, server.url(0), long_gid, small_gid, args.events, args.flood, args.seconds)
        plain = r["plain"]
        worst = max(plain)
        failed |= mode == "after" and (worst >= 1.0 or r["single"] >= 0.5)
        rows.append([mode, r["first"], r["single"], harness.median(plain), harness.percentile(plain, 95), worst,
                     len(plain), r["answered"], r["refused"], r["flood_p50"]])
    harness.table(["mode", "first read of the last version s", "one old read p50 s", "other client p50 s",
                   "other client p95 s", "other client max s", "other client reads", "flood answered",
                   "flood refused (429)", "flood read p50 s"], rows,
                  title=f"A {args.events}-event Murus game; {args.flood} readers of old versions from one address "
                        f"for {args.seconds:g} s; another client reads a small game every 50 ms")
    if failed:
        print("FAILED: after, another client waited 1 s or more, or one old read took 0.5 s or more")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
