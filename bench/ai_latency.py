"""AI turn latency through the real job: ``workers.jobs.ai_turn`` on an embedded runtime, timed from the job's
start to the return of its append, against the level's budget (``budget_for(level, ai_time)``).

    python bench/ai_latency.py [--ai-time 0.25] [--turns 20] [--games murus,murus:advanced,mouseguard,...]
                               [--levels hard,normal] [--quick]

For each game it plays AI-against-AI games (seats alternate between games; a fixed seed per game) by calling the
job function directly, one turn at a time, exactly as an RQ worker would: the job loads the game from the
store, builds the seat's view, lets the AI think, and appends the command with the version it decided on. It
stops once every level has played ``--turns`` turns of that game. A game written ``name:variant``
(``murus:advanced``) is played with the option ``variant`` set. The target: p95 within budget + 0.2 s.
Prints a Markdown table; the embedded store is in-process fakeredis, so the append costs no network round trip.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/ai_latency.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

from burrow.runtime import build, install
from domain.ai import budget_for
from domain.registry import GAME_NAMES
from services.config import Settings
from workers import jobs

ALL_GAMES = tuple(name for game in GAME_NAMES
                  for name in ((game, "murus:advanced") if game == "murus" else (game,)))
"""Every game, and Murus' advanced variant beside its basic one (each has a search of its own)."""
MARGIN = 0.2
"""The target: an AI turn ends within its budget plus this many seconds at the 95th percentile."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def measure(game: str, levels: list[str], turns: int, runtime) -> dict[str, list[float]]:
    """Seconds from job start to append of every AI turn played, by level, until each level has ``turns``."""
    service = runtime.service
    game, _, variant = game.partition(":")
    options = {"variant": variant} if variant else None
    times: dict[str, list[float]] = {level: [] for level in levels}
    games = 0
    while min(len(t) for t in times.values()) < turns:
        seating = levels[games % len(levels):] + levels[:games % len(levels)]
        created = service.create(game, [{"name": f"AI {i}", "ai": level} for i, level in enumerate(seating)],
                                 options=options, seed=1000 + games)
        gid, games = created["id"], games + 1
        while min(len(t) for t in times.values()) < turns:
            loaded = runtime.games.load(gid)
            if loaded.status == "finished":
                break
            for seat in loaded.to_act:
                started = time.monotonic()
                outcome = jobs.ai_turn(gid, seat, loaded.version)
                took = time.monotonic() - started
                if outcome == "played":
                    times[seating[seat]].append(took)
                    break  # the version moved on: the other seats' jobs would be stale
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ai-time", type=float, default=0.25, help="the ai_time setting, seconds (default 0.25)")
    parser.add_argument("--turns", type=int, default=20, help="AI turns per level and game (default 20)")
    parser.add_argument("--games", default=",".join(ALL_GAMES),
                        help="comma-separated games, name or name:variant (default: all, murus in both variants)")
    parser.add_argument("--levels", default="hard,normal", help="levels seated against each other")
    parser.add_argument("--quick", action="store_true", help="ai_time 0.05, 4 turns: a smoke run")
    args = parser.parse_args()
    ai_time, turns = (0.05, 4) if args.quick else (args.ai_time, args.turns)
    levels = args.levels.split(",")
    with tempfile.TemporaryDirectory() as data_dir:
        runtime = build(Settings(ai_time=ai_time, data_dir=data_dir, prefix="bench-latency"), journal=False)
        install(runtime)
        print(f"Python {platform.python_version()} on {platform.machine()}, embedded store, ai_time {ai_time:g} s,"
              f" {turns} turns per level and game; target p95 <= budget + {MARGIN:g} s\n")
        rows = [["game", "level", "budget", "turns", "p50", "p95", "max", "p95 - budget", "target met"]]
        for game in args.games.split(","):
            for level, times in measure(game, levels, turns, runtime).items():
                budget = budget_for(level, ai_time)
                p95 = percentile(times, 0.95)
                rows.append([game, level, f"{budget:.3f} s", str(len(times)),
                             f"{statistics.median(times):.3f} s", f"{p95:.3f} s", f"{max(times):.3f} s",
                             f"{p95 - budget:+.3f} s", "yes" if p95 <= budget + MARGIN else "NO"])
    harness.table(rows[0], rows[1:])


if __name__ == "__main__":
    main()
