"""The speed of hard's basic-game Murus search: nodes to a fixed depth and nodes a second of CPU time.

    python bench/murus_speed.py [--depth 7] [--rounds 3] [--time 0.5] [--against REV]

Searches fourteen positions of random games (12, 24 and 36 random plies in) to ``--depth`` plies with
``domain/ai/murus_search.py``'s compiled search (``Search``) and the pure-Python one the tests hold it to
(``PySearch``, ``tests/oracles/murus_pysearch.py``) and, with ``--against``, with ``murus_search.py``'s
``Search`` as it was at git revision ``REV`` (e.g. ``HEAD``); the versions take turns, ``--rounds`` times, and
each shows its best round (CPU time of this process). A second table gives each
version's timed search of the same positions, ``--time`` seconds of CPU time each, as a move has it: the mean
and range of the depth reached and the nodes a second. Run it pinned to one core on a busy machine
(``taskset -c 1``): CPU time does not count waiting, but a shared core's caches still slow it a little, and
figures vary by a fifth from run to run (compare versions within one run).
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness

from domain.ai import murus_search
from domain.murus import board
from tests.oracles.murus_pysearch import PySearch

SEARCH = "domain/ai/murus_search.py"


def positions() -> list[tuple]:
    """Fourteen positions of random basic games, none over: (seed, count, plies) 5, 6, 12; 7, 4, 24; 9, 4, 36."""
    found = []
    for seed, count, plies in ((5, 6, 12), (7, 4, 24), (9, 4, 36)):
        rng = random.Random(seed)
        kept = 0
        while kept < count:
            pos = board.start_position()
            for _ in range(plies):
                pos = board.play(pos, rng.choice(board.generate(pos, False)))
                if board.outcome(pos, False) is not None:
                    break
            else:
                found.append(pos)
                kept += 1
    return found


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(module, kind, cases: list[tuple], depth: int) -> tuple[int, float]:
    """(nodes, CPU seconds) of searching every case to ``depth``."""
    nodes, started = 0, time.process_time()
    for pos in cases:
        search = kind(time.process_time, float("inf"))
        search.best_move(module.compact(pos), random.Random(0), max_depth=depth)
        nodes += search.nodes
    return nodes, time.process_time() - started


def timed(module, kind, cases: list[tuple], budget: float) -> tuple[list[int], int, float]:
    """(depth reached by case, nodes, CPU seconds) of searching every case for ``budget`` of CPU time."""
    depths, nodes, took = [], 0, 0.0
    for pos in cases:
        started = time.process_time()
        search = kind(time.process_time, started + budget)
        search.best_move(module.compact(pos), random.Random(0))
        took += time.process_time() - started
        depths.append(search.depth_reached)
        nodes += search.nodes
    return depths, nodes, took


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=7)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--time", type=float, default=0.5, help="CPU seconds of the timed searches")
    p.add_argument("--against", help="a git revision whose murus_search.py to measure too")
    args = p.parse_args(argv)
    if args.quick:
        args.depth, args.rounds, args.time = 3, 1, 0.02
    versions = {"compiled (`Search`)": (murus_search, murus_search.Search),
                "pure Python (`PySearch`)": (murus_search, PySearch)}
    if args.against:
        text = subprocess.run(["git", "show", f"{args.against}:{SEARCH}"], cwd=harness.ROOT, check=True,
                              capture_output=True, text=True).stdout
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "murus_search_then.py"
            path.write_text(text)
            then = load("murus_search_then", path)
            versions[f"`Search` at {args.against}"] = (then, then.Search)
    harness.header("Murus: hard's basic-game search speed (bench/murus_speed.py)", argv)
    cases = positions()
    best: dict[str, tuple[int, float]] = {}
    for _ in range(args.rounds):
        for name, (module, kind) in versions.items():
            nodes, took = measure(module, kind, cases, args.depth)
            if name not in best or took < best[name][1]:
                best[name] = (nodes, took)
    harness.table(["version", "positions", "depth", "nodes", "CPU time", "nodes a second"],
                  [[name, len(cases), args.depth, nodes, f"{took:.2f} s", f"{nodes / took:,.0f}"]
                   for name, (nodes, took) in best.items()])
    rows = []
    for name, (module, kind) in versions.items():
        depths, nodes, took = timed(module, kind, cases, args.time)
        rows.append([name, len(cases), f"{args.time:g} s", f"{sum(depths) / len(depths):.1f}",
                     f"{min(depths)}–{max(depths)}", f"{nodes / took:,.0f}"])
    harness.table(["version", "positions", "CPU time each", "mean depth", "depths", "nodes a second"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
