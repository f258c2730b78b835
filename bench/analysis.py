"""Post-game analysis through the real jobs: a 40-ply Murus game analysed by N ``burrow worker --queue analysis``
processes at the default budget, timed from the request to the last ply stored. Target: ≤ 15 s with two workers.

    python bench/analysis.py [--workers 1,2] [--budget 0.25] [--plies 40] [--quick]

The game (two human seats, ``max_plies`` = the ply count, moves by the normal AI at 0.02 s) is written to a private
redis-server; the request and the plan run in this process (the plan queues one chunk job per eight moves), then
the workers start in burst mode and share the chunks. The time includes the workers' start (importing the code,
about a second) — what a freshly scaled worker pool costs.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import harness

from domain import ai
from services.reads.analysis import CHUNK_PLIES

TARGET = 15.0


def a_game(rt, plies: int) -> str:
    """A finished Murus game of exactly ``plies`` moves (a draw at ``max_plies``, or a win just then)."""
    for seed in range(50):
        gid = rt.service.create("murus", [{"name": "Ana"}, {"name": "Bo"}], {"max_plies": plies}, seed=seed)["id"]
        rng, played = random.Random(seed), 0
        for _ in range(plies):
            game = rt.games.load(gid)
            if game.status == "finished":
                break
            seat = game.to_act[0]
            view = game.view(seat)
            move = ai.choose("murus", view, seat, "normal", rng, 0.02, time.monotonic)
            rt.service.command(gid, seat, move)
            played += 1
        game = rt.games.load(gid)
        if game.status == "finished" and played == plies:
            return gid
    raise RuntimeError(f"no game of {plies} plies in 50 seeds")


def run(server, workers: int, budget: float, plies: int, prefix: str) -> tuple[float, int]:
    rt = harness.runtime_for(server, prefix)
    gid = a_game(rt, plies)
    analyses = rt.analyses
    started = time.monotonic()
    analyses.request(gid, budget=budget, queue=False)
    version = analyses.meta(gid)["version"]
    chunks = analyses.plan(gid, version)
    env = dict(os.environ, REDIS_URL=server.url(0), RQ_URL=server.url(1), BURROW_PREFIX=prefix,
               PYTHONPATH=str(harness.ROOT))
    procs = [subprocess.Popen([sys.executable, "-m", "burrow.cli", "worker", "--queue", "analysis", "--burst"],
                              env=env, cwd=harness.ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for _ in range(workers)]
    for proc in procs:
        proc.wait(timeout=600)
    took = time.monotonic() - started
    answer = analyses.read(gid)
    if answer["status"] != "done" or len(answer["plies"]) != plies:
        raise RuntimeError(f"analysis incomplete: {answer['status']}, {len(answer['plies'])} of {plies} plies")
    return took, chunks


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--workers", default="1,2", help="worker counts to measure, comma-separated")
    p.add_argument("--budget", type=float, default=0.25, help="seconds per position (the default setting)")
    p.add_argument("--plies", type=int, default=40)
    args = p.parse_args(argv)
    if args.quick:
        args.workers, args.budget, args.plies = "2", 0.02, 12
    harness.header("Post-game analysis by queued jobs (bench/analysis.py)", argv)
    rows = []
    with harness.RedisServer(aof=False) as server:
        for i, workers in enumerate(int(w) for w in args.workers.split(",")):
            took, chunks = run(server, workers, args.budget, args.plies, f"bench-analysis-{i}")
            pure = args.plies * args.budget
            rows.append([workers, args.plies, chunks, f"{args.budget:g} s", f"{pure:.1f} s", f"{took:.1f} s",
                         f"{pure / took:.2f}×", ("yes" if took <= TARGET else "no") if workers == 2 else "—"])
    harness.table(["workers", "plies", f"chunks ({CHUNK_PLIES} plies)", "budget", "search time",
                         "wall time", "search time / wall time", "≤ 15 s with 2 workers"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
