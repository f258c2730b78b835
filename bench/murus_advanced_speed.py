"""The speed of hard's search in Murus' advanced game: the compiled search of #45 against the Python search hard
used before it, at the same CPU time a decision.

    python bench/murus_advanced_speed.py [--time 0.5] [--quick]

Searches twelve positions of random advanced games (4, 16 and 32 random plies in, none over) for ``--time``
seconds of CPU time each, as a move has it, with ``domain/ai/murus_advanced.py``'s ``Search`` (compiled,
``domain/ai/murus_advanced_core.py``) and ``domain/ai/murus.py``'s ``Search(advanced=True, hard=True)`` (pure
Python; still normal's search): the mean and range of the depth reached and the nodes a second. Run it pinned to
one core on a busy machine (``taskset -c 1``).
"""

from __future__ import annotations

import random
import sys
import time

import harness

from domain.ai import murus as python_search
from domain.ai import murus_advanced
from domain.murus import board


def positions() -> list[tuple]:
    """Twelve positions of random advanced games, none over: (seed, count, plies) 5, 4, 4; 7, 4, 16; 9, 4, 32."""
    found = []
    for seed, count, plies in ((5, 4, 4), (7, 4, 16), (9, 4, 32)):
        rng = random.Random(seed)
        kept = 0
        while kept < count:
            pos = board.start_position()
            for _ in range(plies):
                pos = board.play(pos, rng.choice(board.generate(pos, True)))
                if board.outcome(pos, True) is not None:
                    break
            else:
                found.append(pos)
                kept += 1
    return found


def compiled(pos: tuple, budget: float) -> tuple[int, int]:
    search = murus_advanced.Search(time.process_time, time.process_time() + budget)
    search.best_move(pos, random.Random(0))
    return search.depth_reached, search.nodes


def python(pos: tuple, budget: float) -> tuple[int, int]:
    search = python_search.Search(True, hard=True, clock=time.process_time, deadline=time.process_time() + budget)
    search.best_move(pos, board.generate(pos, True), random.Random(0))
    return search.depth_reached, search.nodes


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--time", type=float, default=0.5, help="CPU seconds of each search")
    args = p.parse_args(argv)
    if args.quick:
        args.time = 0.02
    harness.header("Murus, advanced: hard's search speed (bench/murus_advanced_speed.py)", argv)
    cases = positions()
    rows = []
    for name, run in (("compiled (#45)", compiled), ("Python (hard before #45)", python)):
        depths, nodes, took = [], 0, 0.0
        for pos in cases:
            started = time.process_time()
            depth, searched = run(pos, args.time)
            took += time.process_time() - started
            depths.append(depth)
            nodes += searched
        rows.append([name, len(cases), f"{args.time:g} s", f"{sum(depths) / len(depths):.1f}",
                     f"{min(depths)}–{max(depths)}", f"{nodes / took:,.0f}"])
    harness.table(["search", "positions", "CPU time each", "mean depth", "depths", "nodes a second"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
