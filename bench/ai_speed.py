"""How fast the AIs search: Murus nodes per second and depth reached, Mouse Guard and Squirrels MCTS iterations
per second (and the Squirrels endgame solver's nodes per second), each from a fixed position with a real clock.

    python bench/ai_speed.py [--time 1.0] [--quick]

Each row thinks ``--time`` seconds once (``hard``'s factor of 2 is *not* applied: both levels get the same
time, so the rows compare speed, not budgets). Positions: the Murus opening (basic and advanced) and a basic
middle game; Mouse Guard right after a seeded setup; a seeded two-seat Squirrels deal (plus, for the solver,
the same deal after four plies). Prints a Markdown table; numbers vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/ai_speed.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness

from domain.ai import mouseguard as mouseguard_ai
from domain.ai import murus as murus_ai
from domain.ai import murus_advanced
from domain.ai import murus_search as murus_fast
from domain.ai import squirrels as squirrels_ai
from domain.base import Setup
from domain.murus.board import generate, play, start_position
from domain.registry import game_module

clock = time.perf_counter


def fold(module, events, state=None):
    for event in events:
        state = module.evolve(state, event)
    return state


def murus_rows(seconds: float) -> list[list[str]]:
    rng = random.Random(1)
    middle = start_position()
    for _ in range(12):
        middle = play(middle, rng.choice(generate(middle, False)))
    rows = []
    for name, pos, advanced in (("opening", start_position(), False),
                                ("opening, advanced", start_position(), True),
                                ("after 12 random plies", middle, False)):
        for level in ("normal", "hard"):
            started = clock()
            if level == "hard" and advanced:  # hard's advanced-game search (domain/ai/murus_advanced.py)
                search = murus_advanced.Search(clock, started + seconds)
                search.best_move(pos, random.Random(0))
            elif level == "hard":  # hard's basic-game search (domain/ai/murus_search.py)
                search = murus_fast.Search(clock, started + seconds)
                search.best_move(murus_fast.compact(pos), random.Random(0))
            else:
                search = murus_ai.Search(advanced, level == "hard", clock, started + seconds)
                search.best_move(pos, generate(pos, advanced), random.Random(0))
            took = clock() - started
            rows.append(["murus", level, name, f"{search.nodes / took:,.0f} nodes/s",
                         f"depth {search.depth_reached}", f"{search.nodes:,} nodes in {took:.2f} s"])
    return rows


def mouseguard_rows(seconds: float) -> list[list[str]]:
    module = game_module("mouseguard")
    rng = random.Random(1)
    state = fold(module, module.initial(Setup(seats=2), rng))
    while module.status(state) == "setup":
        seat = module.to_act(state)[0]
        move = mouseguard_ai.choose(module.view(state, seat), seat, "normal", rng, 0.01, clock)
        state = fold(module, module.decide(state, seat, module.parse(move), rng), state)
    seat = module.to_act(state)[0]
    rows = []
    for level in ("normal", "hard"):
        started = clock()
        _, iterations = mouseguard_ai.search(module.view(state, seat), seat, level, random.Random(0), seconds,
                                             clock)
        took = clock() - started
        rows.append(["mouseguard", level, "first turn after the setup", f"{iterations / took:,.0f} iterations/s",
                     "", f"{iterations:,} iterations in {took:.2f} s"])
    return rows


def squirrels_rows(seconds: float) -> list[list[str]]:
    module = game_module("squirrels")
    rng = random.Random(3)
    state = fold(module, module.initial(Setup(2, {}), rng))
    rules, sim = squirrels_ai.rebuild(module.view(state, state.turn))
    rows = []
    for level, greedy in (("normal", 0.0), ("hard", 0.75)):
        started = clock()
        _, iterations = squirrels_ai.search(rules, sim, random.Random(0), seconds, clock, greedy)
        took = clock() - started
        rows.append(["squirrels", level, "two-seat deal", f"{iterations / took:,.0f} iterations/s",
                     "greedy playouts" if greedy else "random playouts",
                     f"{iterations:,} iterations in {took:.2f} s"])
    for _ in range(4):
        move = squirrels_ai.choose(module.view(state, state.turn), state.turn, "normal", rng, 0.01, clock)
        for event in module.decide(state, state.turn, module.parse(move), rng):
            state = module.evolve(state, event)
    rules, sim = squirrels_ai.rebuild(module.view(state, state.turn))
    solver = squirrels_ai.Solver(rules, clock, clock() + seconds)
    started = clock()
    try:
        value, _ = solver.best(sim)
        outcome = {1: "proven win", 0: "proven shared win", -1: "proven loss"}[value]
    except squirrels_ai.Unsolved:
        outcome = "not solved in time"
    took = clock() - started
    left = sum(card >= 0 for card in sim.grid)
    rows.append(["squirrels", "hard (solver)", f"same deal after 4 plies ({left} cards)",
                 f"{solver.nodes / took:,.0f} nodes/s", outcome, f"{solver.nodes:,} nodes in {took:.2f} s"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per measurement (default 1)")
    parser.add_argument("--quick", action="store_true", help="0.1 s per measurement: a smoke run")
    args = parser.parse_args()
    seconds = 0.1 if args.quick else args.time
    print(f"Python {platform.python_version()} on {platform.machine()}, {seconds:g} s per row\n")
    rows = [["game", "level", "position", "speed", "reached", "detail"]]
    rows += murus_rows(seconds) + mouseguard_rows(seconds) + squirrels_rows(seconds)
    harness.table(rows[0], rows[1:])


if __name__ == "__main__":
    main()
