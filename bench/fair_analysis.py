"""Fair analyses: one client asks for the analysis of many long games; how long does another client's short one
take?

    python bench/fair_analysis.py [--flood 20] [--plies 40] [--analysis-time 0.05] [--quick]

Each mode runs in a child process on an embedded runtime with one analysis worker thread (as ``burrow serve``
runs it). Finished Murus games of ``--plies`` random moves are stored; one client (an address) asks for the
analysis of ``--flood`` of them, then another client asks for the analysis of a 2-move game and waits for it to be
done. Modes:

* ``before`` — no fairness (every job queued at once, in order) and no bound on the backlog;
* ``fair`` — at most one analysis job of a client queued or running at once (``BURROW_ANALYSIS_JOBS_PER_CLIENT``),
  the backlog cap per client raised to the flood, so every analysis of the flood is accepted;
* ``fair, bounded`` — the defaults: one job per client at once, at most 5 analyses of a client not done yet
  (``BURROW_ANALYSES_PER_CLIENT``; the others are refused, 429) and 500 of everybody's.

Reported: the victim's wait (request → done), the flood's analyses accepted and refused, and the jobs started
while the victim waited: its own (a plan and a chunk) and the flood's. The target: the victim waits behind at
most one job of the flood at each step (so at most two flood jobs in all, one before each of its own).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/fair_analysis.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

# jobs of a client at once (0: no cap), analyses of a client not done (None: the flood), of everybody
MODES = {"before": (0, 0, 0), "fair": (1, None, 500), "fair, bounded": (1, 5, 500)}
FLOOD, VICTIM = "10.66.0.1", "10.77.0.1"


def finished_murus(rng: random.Random, plies: int) -> list:
    """The events of a Murus game of about ``plies`` random moves that ends (by the rules or by max_plies)."""
    from domain.base import Setup
    from domain.registry import game_module

    module = game_module("murus")
    events = list(module.initial(Setup(seats=2, options={"max_plies": plies}), rng))
    state = None
    for e in events:
        state = module.evolve(state, e)
    while module.status(state) != "finished":
        seat = module.to_act(state)[0]
        new = module.decide(state, seat, module.parse(rng.choice(module.legal(state, seat))), rng)
        for e in new:
            state = module.evolve(state, e)
        events.extend(new)
    return events


def run_mode(mode: str, flood: int, plies: int, analysis_time: float) -> dict:
    from burrow.runtime import build, install
    from services import errors
    from services.config import Settings
    from services.reads import analysis
    from services.store.streams import new_game_id
    from tests.services.test_analysis import blunder_game
    from workers.worker import start_thread_worker

    jobs, per_client, waiting = MODES[mode]
    rt = build(Settings(data_dir=tempfile.mkdtemp(), analysis_time=analysis_time, analysis_jobs_per_client=jobs,
                        analyses_per_client=flood if per_client is None else per_client, analyses_waiting=waiting),
               journal=False)
    install(rt)
    rng = random.Random(5)
    games = []
    for _ in range(flood):
        gid = new_game_id()
        harness.store_game(rt.store, gid, "murus", 2, finished_murus(rng, plies))
        games.append(gid)
    victim = blunder_game(rt)[0]
    started: list[tuple[float, str]] = []  # (when, game) of every analysis job started
    plan, chunk = analysis.Analyses.plan, analysis.Analyses.run_chunk

    def planning(self, gid, version, queue=True):
        started.append((time.monotonic(), gid))
        return plan(self, gid, version, queue)

    def running(self, gid, version, index, progress=None):
        started.append((time.monotonic(), gid))
        return chunk(self, gid, version, index, progress)

    analysis.Analyses.plan, analysis.Analyses.run_chunk = planning, running
    analyses = rt.analyses
    accepted = refused = 0
    for gid in games:
        try:
            analyses.request(gid, address=FLOOD)
            accepted += 1
        except errors.TooMany:
            refused += 1
    start_thread_worker(rt, "analysis")
    time.sleep(0.5)  # the flood is under way
    asked = time.monotonic()
    analyses.request(victim, address=VICTIM)
    while analyses.read(victim)["status"] != "done":
        time.sleep(0.01)
    finished = time.monotonic()
    between = [gid for at, gid in started if asked <= at <= finished]
    return {"waited": finished - asked, "accepted": accepted, "refused": refused,
            "flood_jobs": sum(gid != victim for gid in between), "victim_jobs": between.count(victim)}


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--flood", type=int, default=20, help="long games the flooding client asks to analyse")
    p.add_argument("--plies", type=int, default=40, help="moves of each long game")
    p.add_argument("--analysis-time", type=float, default=0.05, help="seconds of the engine per position")
    p.add_argument("--mode", help="(internal: one mode, JSON out)")
    args = p.parse_args(argv)
    if args.mode:
        print(json.dumps(run_mode(args.mode, args.flood, args.plies, args.analysis_time)), flush=True)
        return 0
    if args.quick:
        args.flood, args.plies, args.analysis_time = 6, 16, 0.02
    harness.header("Fair analyses: a flood of long analyses from one client", argv)
    rows = []
    for mode in MODES:
        r = harness.child_json(__file__, "--mode", mode, "--flood", str(args.flood), "--plies", str(args.plies),
                               "--analysis-time", str(args.analysis_time))
        if r is None:
            return 1
        rows.append([mode, r["accepted"], r["refused"], r["victim_jobs"], r["flood_jobs"], r["waited"]])
    harness.table(["mode", "flood analyses accepted", "refused (429)", "victim's jobs", "flood jobs started "
                   "while the victim waited", "victim's wait s"], rows,
                  title=f"{args.flood} analyses of {args.plies}-move Murus games from one client, then a 2-move "
                        f"game's from another; one analysis worker, {args.analysis_time:g} s a position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
