"""Fair AI queues: one client floods the service with hard-vs-hard AI games; how long does another client's easy AI
take to answer?

    python bench/fair_queues.py [--flood 40] [--turns 8] [--ai-time 0.25] [--quick]

Each mode runs in a child process on an embedded runtime wired as ``burrow serve`` wires it (a dispatcher thread,
one projection worker thread, two AI worker threads, one analysis worker thread). The flooding client creates
``--flood`` Murus games, hard AI against hard AI; then the victim, another client, plays a game against the easy AI
and times each answer: from its own move's append to the AI's (the AI's budget is ``--ai-time``), and to the lobby
line showing the AI's move. Modes:

* ``one queue`` — before: AI turns and projections on one queue, served in order by two workers, no cap per client;
* ``no cap`` — queues per kind, but AI turns not capped per client (``BURROW_AI_PER_CLIENT=0``);
* ``fair`` — queues per kind and at most one AI turn per client queued or running (the default).

The target: the victim's p95 within its budget + 1 s.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/fair_queues.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

MODES = {"one queue": (True, 0), "no cap": (False, 0), "fair": (False, 1)}
MARGIN = 1.0


def run_mode(shared: bool, cap: int, flood: int, turns: int, ai_time: float) -> dict:
    """One mode in this process; returns the victim's latencies (seconds) and the queue's length at the end."""
    from burrow.runtime import build, install
    from services.config import Settings
    from services.jobs.queues import KINDS
    from workers.dispatcher import Dispatcher
    from workers.worker import start_thread_worker

    rt = build(Settings(data_dir=tempfile.mkdtemp(), ai_time=ai_time, ai_per_client=cap), journal=False)
    install(rt)
    if shared:  # before: every job on one queue, two workers serving it in order
        one = rt.jobs.queue("ai")
        rt.jobs.queues = dict.fromkeys(KINDS, one)
        threads = ["ai", "ai"]
    else:
        threads = ["project", "ai", "ai", "analysis"]
    for kind in threads:
        start_thread_worker(rt, kind)
    threading.Thread(target=Dispatcher(rt).run, kwargs={"block_ms": 100}, daemon=True).start()
    service = rt.service
    hard = [{"name": "Flood A", "ai": "hard"}, {"name": "Flood B", "ai": "hard"}]
    for i in range(flood):
        service.create("murus", hard, {"max_plies": 200}, seed=i, client="10.66.0.1")
    time.sleep(1.0)  # the flood is queued
    gid = service.create("murus", [{"name": "Victim"}, {"name": "Easy", "ai": "easy"}], seed=7,
                         client="10.77.0.1")["id"]
    rng = random.Random(3)
    answers, lobby = [], []
    for _ in range(turns):
        game = rt.games.load(gid)
        if game.status == "finished":
            break
        move = rng.choice(game.legal(0))
        mine = service.command(gid, 0, move)["version"]
        start = time.monotonic()
        deadline = start + 120
        while rt.store.version(gid) <= mine and time.monotonic() < deadline:
            time.sleep(0.01)
        answers.append(time.monotonic() - start)
        answered = rt.store.version(gid)
        while rt.projector.projected(gid) < answered and time.monotonic() < deadline:
            time.sleep(0.01)
        lobby.append(time.monotonic() - start)
    return {"answers": answers, "lobby": lobby, "queued": len(rt.jobs.queue("ai"))}


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--flood", type=int, default=40, help="AI-vs-AI games of the flooding client")
    p.add_argument("--turns", type=int, default=8, help="victim's turns timed per mode")
    p.add_argument("--ai-time", type=float, default=0.25, help="seconds per AI decision (hard: twice)")
    p.add_argument("--mode", help=argparse_hidden())
    args = p.parse_args(argv)
    if args.mode:  # a child: one mode, JSON out
        shared, cap = MODES[args.mode]
        print(json.dumps(run_mode(shared, cap, args.flood, args.turns, args.ai_time)), flush=True)
        return 0
    if args.quick:
        args.flood, args.turns, args.ai_time = 6, 3, 0.05
    harness.header("Fair AI queues: a flood of AI games from one client", argv)
    rows = []
    for mode in MODES:
        r = harness.child_json(__file__, "--mode", mode, "--flood", str(args.flood), "--turns", str(args.turns),
                               "--ai-time", str(args.ai_time), timeout=1800)
        if r is None:
            return 1
        p95 = harness.percentile(r["answers"], 95)
        rows.append([mode, len(r["answers"]), harness.median(r["answers"]), p95,
                     harness.percentile(r["lobby"], 95), "yes" if p95 <= args.ai_time + MARGIN else "NO",
                     r["queued"]])
    harness.table(["mode", "victim turns", "answer p50 s", "answer p95 s", "in the lobby p95 s",
                   f"p95 ≤ budget + {MARGIN:g} s", "AI jobs queued at the end"], rows,
                  title=f"{args.flood} hard-vs-hard Murus games from one client; the victim's easy AI has "
                        f"{args.ai_time:g} s a move (hard: {2 * args.ai_time:g} s)")
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    sys.exit(main())
