"""The game engines: perft, random playouts and AI search speed, for every game available.

    python bench/engines.py [--quick] [--seconds 2] [--ai-budget 0.5]

* **perft** — move sequences of exactly D plies counted through the decider interface (``legal`` for every
  seat to act, ``decide`` + ``evolve`` to go deeper; a finished game ends the line; dice and draws take one
  outcome per command from a fixed-seed rng). A game whose registration names a ``perft`` (Murus, on its
  bitboards) gets both columns, and their counts must agree: the script exits 1 when they do not.
  ``bench/perft_murus.py`` (the Murus engineer's) compares the bitboards with a naive generator; ``run_all.py``
  runs it too.
* **random playouts** — whole games from ``initial`` with uniformly random legal commands, through the decider.
* **AI search** — iterations per second of each AI's search at its ``hard`` level, on positions from random games
  (the AI's own loop, from the seat's view as a job gives it): MCTS iterations (squirrels), ISMCTS iterations
  (mouseguard), Monte Carlo playouts (commando), alpha-beta nodes (murus: not an MCTS). Thinking time is
  ``--ai-budget`` per decision; the rate is over the wall time of the call.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import harness
from harness import Timer, table

from domain.base import Setup, commands
from domain.registry import game_module, game_type


def decider_perft(module, state, depth: int, rng: random.Random) -> int:
    """Sequences of ``depth`` (seat, command) plies from ``state``, through the decider."""
    if depth == 0:
        return 1
    if module.status(state) == "finished":
        return 0
    nodes = 0
    for seat in module.to_act(state):
        moves = commands(module.legal(state, seat))  # a range (commit 0..N) as each of its commands
        if depth == 1:
            nodes += len(moves)
            continue
        for move in moves:
            child = state
            for event in module.decide(state, seat, module.parse(move), rng):
                child = module.evolve(child, event)
            nodes += decider_perft(module, child, depth - 1, rng)
    return nodes


def start_state(name: str, rng: random.Random) -> Any:
    module = game_module(name)
    state = None
    for event in module.initial(Setup(seats=module.SEATS[0]), rng):
        state = module.evolve(state, event)
    return state


def perft_rows(names, seconds: float, max_depth: int) -> list[list]:
    rows = []
    for name in names:
        module = game_module(name)
        state = start_state(name, random.Random(0))
        previous = 1
        for depth in range(1, max_depth + 1):
            with Timer() as t:
                nodes = decider_perft(module, state, depth, random.Random(0))
            bitboard, fast = float("nan"), ""
            perft = game_type(name).perft  # the game's own perft, as its registration names it (Murus: bitboards)
            if perft is not None:
                with Timer() as b:
                    count = perft(state, depth)
                bitboard = count / max(b.seconds, 1e-9)
                fast = "yes" if count == nodes else f"NO ({count})"
            rows.append([name, depth, nodes, t.seconds, nodes / max(t.seconds, 1e-9), bitboard, fast])
            if t.seconds * max(nodes / previous, 1) > seconds:  # the next depth would take too long
                break
            previous = max(nodes, 1)
    return rows


def playout_rows(names, seconds: float) -> list[list]:
    rows = []
    for name in names:
        rng = random.Random(1)
        games = plies = events = 0
        with Timer() as t:
            while games < 10_000:
                _, evs, commands = harness.random_game(name, rng, max_plies=5000)
                games, plies, events = games + 1, plies + commands, events + len(evs)
                if time.perf_counter() - t.start > seconds:
                    break
        rows.append([name, games, plies, events, games / t.seconds, plies / t.seconds, events / t.seconds])
    return rows


def positions(name: str, count: int, rng: random.Random) -> list[tuple[Any, int]]:
    """(state, seat) pairs from random games: playing, the seat to act having at least two commands."""
    module = game_module(name)
    found = []
    for _ in range(50):
        state = start_state(name, rng)
        for ply in range(400):
            if module.status(state) == "finished":
                break
            seat = rng.choice(module.to_act(state))
            moves = commands(module.legal(state, seat))
            if ply >= 6 and module.status(state) == "playing" and len(moves) > 1 and rng.random() < 0.3:
                found.append((state, seat))
                break
            for event in module.decide(state, seat, module.parse(rng.choice(moves)), rng):
                state = module.evolve(state, event)
        if len(found) >= count:
            break
    return found


def ai_search(name: str, view: dict, seat: int, rng: random.Random, budget: float) -> tuple[int, str]:
    """(iterations, what an iteration is) of one ``hard`` decision of the AI of ``name``."""
    ai = game_type(name).ai_module()
    clock = time.perf_counter
    if name == "squirrels":
        rules, sim = ai.rebuild(view)
        return ai.search(rules, sim, rng, budget, clock, greedy=0.75)[1], "MCTS iterations"
    if name == "mouseguard":
        return ai.search(view, seat, "hard", rng, budget, clock)[1], "ISMCTS iterations"
    if name == "murus":
        from domain.murus.board import generate
        from domain.murus.position import load_position

        advanced = view["options"]["variant"] == "advanced"
        pos = load_position(view["position"], advanced)
        search = ai.Search(advanced, hard=True, clock=clock, deadline=clock() + budget)
        search.best_move(pos, list(generate(pos, advanced)), rng)
        return search.nodes, "alpha-beta nodes"
    if name == "commando":
        counted = [0]
        playout = ai.playout

        def counting(*args, **kwargs):
            counted[0] += 1
            return playout(*args, **kwargs)

        ai.playout = counting
        try:
            ai.choose(view, seat, "hard", rng, budget, clock)
        finally:
            ai.playout = playout
        return counted[0], "Monte Carlo playouts"
    raise LookupError(name)


def ai_rows(names, budget: float, count: int) -> list[list]:
    rows = []
    for name in names:
        if game_type(name).ai is None:
            rows.append([name, "no AI", 0, 0, 0.0, float("nan")])
            continue
        module = game_module(name)
        rng = random.Random(2)
        total, seconds, what = 0, 0.0, ""
        found = positions(name, count, rng)
        for state, seat in found:
            view = module.view(state, seat)
            try:
                with Timer() as t:
                    iterations, what = ai_search(name, view, seat, random.Random(3), budget)
            except (AttributeError, TypeError, LookupError) as exc:  # an AI whose interface moved on
                what = f"n/a ({type(exc).__name__})"
                break
            total += iterations
            seconds += t.seconds
        rows.append([name, what, len(found), total, seconds, total / seconds if seconds else float("nan")])
    return rows


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time per game for perft and playouts")
    p.add_argument("--ai-budget", type=float, default=0.5, help="thinking seconds per AI decision")
    p.add_argument("--positions", type=int, default=4, help="AI decisions measured per game")
    args = p.parse_args(argv)
    max_depth = 6
    if args.quick:
        args.seconds, args.ai_budget, args.positions, max_depth = 0.05, 0.02, 1, 2
    names = harness.games_available()
    harness.header("Engines: perft, random playouts, AI search", argv)
    perfts = perft_rows(names, args.seconds, max_depth)
    table(["game", "depth", "nodes", "decider s", "decider nodes/s", "bitboard nodes/s", "counts agree"], perfts,
          title="Perft from the opening (minimum seats) through the decider; Murus also on its bitboards")
    table(["game", "games", "commands", "events", "games/s", "commands/s", "events/s"],
          playout_rows(names, args.seconds),
          title=f"Random playouts to the end (uniform legal commands), about {args.seconds:g} s per game")
    table(["game", "AI search", "decisions", "iterations", "seconds", "iterations/s"],
          ai_rows(names, args.ai_budget, args.positions),
          title=f"AI search at the hard level, {args.ai_budget:g} s per decision")
    disagree = [f"{row[0]} at depth {row[1]}" for row in perfts if str(row[-1]).startswith("NO")]
    if disagree:
        print(f"engines: the game's own perft and the decider's count differ for {', '.join(disagree)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
