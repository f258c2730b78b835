"""How long after its deadline does a timeout land, with no client connected?

    python bench/clock_precision.py [--games 20] [--quick]

Each mode runs an embedded runtime as ``burrow serve`` wires it (a dispatcher thread, the projection worker thread
with its scheduler) and creates ``--games`` Murus games with a one-second clock, a random fraction of a second
apart, that nobody plays. Every game ends by the clock check RQ's scheduler moves to the queue; the lateness is
the ``timed_out`` event's commit time minus the deadline. Modes:

* ``RQ whole seconds`` — before: RQ scores a scheduled job in whole seconds (rounded down) and its scheduler
  compares whole seconds, every second (a check due early runs, finds time left and is scheduled again);
* ``exact, every 1 s`` — the check scored and moved to the millisecond, the scheduler still polling every second;
* ``exact, every 0.1 s`` — and polling every ``POLL_SECONDS`` (the default, ``workers/worker.py``).
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

MODES = {"RQ whole seconds": (False, 1.0), "exact, every 1 s": (True, 1.0), "exact, every 0.1 s": (True, 0.1)}


def run_mode(exact: bool, poll: float, games: int) -> list[float]:
    """Lateness (seconds) of each game's timeout in one mode."""
    import workers.worker as worker_module
    from burrow.runtime import build, install
    from services.config import Settings
    from workers.dispatcher import Dispatcher
    from workers.worker import ExactRegistry, ThreadWorker

    exact_due = ExactRegistry.get_jobs_to_schedule
    if not exact:  # RQ's rule: due once the whole second of the (rounded down) score has come
        ExactRegistry.get_jobs_to_schedule = (
            lambda self, timestamp=None, chunk_size=1000: super(ExactRegistry, self).get_jobs_to_schedule(
                int(time.time()) + 0.999, chunk_size))
    polled = worker_module.POLL_SECONDS
    worker_module.POLL_SECONDS = poll
    rt = build(Settings(data_dir=tempfile.mkdtemp(prefix="burrow-bench-")), journal=False)
    install(rt)
    dispatcher = Dispatcher(rt, consumer="bench")
    worker = ThreadWorker([rt.jobs.queue("project")], connection=rt.rq_redis)
    threads = [threading.Thread(target=dispatcher.run, kwargs={"block_ms": 100}, daemon=True),
               threading.Thread(target=worker.work, kwargs={"with_scheduler": True, "logging_level": "ERROR",
                                                            "max_idle_time": 5}, daemon=True)]
    for thread in threads:
        thread.start()
    try:
        deadlines = {}
        for _ in range(games):
            g = rt.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 1})
            game = rt.games.load(g["id"])
            deadlines[g["id"]] = game.module.deadline(game.state)
            time.sleep(random.random() * 0.3)
        late: dict[str, float] = {}
        until = time.monotonic() + 30
        while len(late) < games and time.monotonic() < until:
            for gid, deadline in deadlines.items():
                if gid not in late:
                    game = rt.games.load(gid)
                    if game.module.status(game.state) == "finished":
                        last = list(rt.store.read(gid))[-1]
                        late[gid] = (last.at - deadline) / 1000
            time.sleep(0.05)
        return list(late.values())
    finally:
        dispatcher.stop()
        worker._stop_requested = True
        worker.stop_scheduler()
        worker_module.POLL_SECONDS = polled
        ExactRegistry.get_jobs_to_schedule = exact_due


def main() -> None:
    p = harness.parser(__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=20)
    args = p.parse_args()
    games = 4 if args.quick else args.games
    harness.header("Timeouts with no client connected: lateness after the deadline")
    rows = []
    for name, (exact, poll) in MODES.items():
        late = run_mode(exact, poll, games)
        rows.append([name, f"{len(late)}/{games}", 1000 * min(late), 1000 * harness.median(late),
                     1000 * harness.percentile(late, 95), 1000 * max(late)])
    harness.table(["mode", "timed out", "min ms", "median ms", "p95 ms", "max ms"], rows)


if __name__ == "__main__":
    main()
