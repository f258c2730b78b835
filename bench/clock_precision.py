"""How long after its deadline does a timeout land, with no client connected?

    python bench/clock_precision.py [--games 20] [--quick]

Each mode runs a runtime as ``burrow serve`` wires it (a dispatcher thread), embedded (fakeredis) or on a private
``redis-server``, and creates ``--games`` Murus games with a one-second clock, a random fraction of a second apart,
whose two seats make their first moves at once (no clock runs before them) and then nobody plays. Every game ends
by the dispatchers' clock check (``services/games/clocks.py``); the lateness is the ``timed_out`` event's commit
time minus the deadline. Modes:

* ``deadlines`` — the dispatcher waits for log entries no longer than the earliest deadline (the default);
* ``once a pass`` — for comparison: it checks the deadlines once per pass of its loop, whose wait for new log
  entries is one second (what a checker that polls once a second gives).
"""

from __future__ import annotations

import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/clock_precision.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

MODES = {"deadlines": True, "once a pass": False}


def run_mode(bounded: bool, games: int, redis_url: str | None) -> list[float]:
    """Lateness (seconds) of each game's timeout in one mode."""
    from burrow.runtime import build, install
    from services.config import Settings
    from workers.dispatcher import Dispatcher

    rt = build(Settings(redis_url=redis_url, prefix=f"clock{random.randrange(10**6)}",
                        data_dir=tempfile.mkdtemp(prefix="burrow-bench-")), journal=False)
    install(rt)
    dispatcher = Dispatcher(rt, consumer="bench")
    if not bounded:
        dispatcher._block_ms = lambda block_ms: block_ms
    thread = threading.Thread(target=dispatcher.run, kwargs={"block_ms": 1000}, daemon=True)
    thread.start()
    try:
        deadlines = {}
        for _ in range(games):
            g = rt.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 1})
            rt.service.command(g["id"], 0, "a1-a3")
            rt.service.command(g["id"], 1, "a7-a5")  # Ana's clock runs from here
            game = rt.games.load(g["id"])
            deadlines[g["id"]] = game.deadline
            time.sleep(random.random() * 0.3)
        late: dict[str, float] = {}
        until = time.monotonic() + 30
        while len(late) < games and time.monotonic() < until:
            for gid, deadline in deadlines.items():
                if gid not in late:
                    game = rt.games.load(gid)
                    if game.status == "finished":
                        last = list(rt.store.read(gid))[-1]
                        late[gid] = (last.at - deadline) / 1000
            time.sleep(0.02)
        return list(late.values())
    finally:
        dispatcher.stop()
        thread.join(5)


def main() -> None:
    p = harness.parser(__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=20)
    args = p.parse_args()
    games = 4 if args.quick else args.games
    harness.header("Timeouts with no client connected: lateness after the deadline")
    rows = []
    with harness.RedisServer() as server:
        for store, url in (("embedded", None), ("redis-server", server.url(0))):
            for name, bounded in MODES.items():
                late = run_mode(bounded, games, url)
                rows.append([store, name, f"{len(late)}/{games}", 1000 * min(late), 1000 * harness.median(late),
                             1000 * harness.percentile(late, 95), 1000 * max(late)])
    harness.table(["store", "mode", "timed out", "min ms", "median ms", "p95 ms", "max ms"], rows)


if __name__ == "__main__":
    main()
