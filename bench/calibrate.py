"""Calibration of the analysis's winning chances: predicted (``domain.ai.analysis.evaluate``) against observed, in
deciles, over positions of selfplay games; for Murus also the maximum-likelihood fit of ``MURUS_SCALE``.

    python bench/calibrate.py [--games murus,murus:advanced,mouseguard,squirrels,commando] [--positions 200]
                              [--budget 0.25] [--ai-time 0.05] [--clock wall|cpu] [--jobs 1] [--seed 1] [--quick]

Games are played AI against AI (hard against normal, then normal against normal, seats alternating, ``--ai-time``
a move), every ``STRIDE``-th position is analysed at ``--budget`` as the analysis job does, and the mover's
predicted chance is compared with the game's outcome for the mover (1 won, 0 lost, 1/k for a win shared by k, a
draw 1/seats). A well calibrated analysis has observed ≈ predicted in every decile. The Murus fit takes the raw
search scores of the same positions (proven wins and losses left out) and the scale maximising the likelihood of
the outcomes under ``1 / (1 + exp(-score / scale))``; for Mouse Guard and Mission commando the slope ``a`` of
``sigmoid(a * logit(p))`` likewise (``analysis.SLOPES``). The refitted tables are in-sample: fitted and judged on
the same positions. A game written ``name:variant`` (``murus:advanced``) is played with the option ``variant``
set (Murus' advanced game has a scale and offset of its own). With ``--clock cpu`` the budgets are CPU time of the
game's process (fair on a busy machine).
"""

from __future__ import annotations

import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import harness

from domain import ai
from domain.ai import analysis
from domain.ai.murus import WON
from domain.base import Setup
from domain.registry import game_module

STRIDE = 3  # odd: the positions sampled alternate between the seats to move
PAIRINGS = (("hard", "normal"), ("normal", "normal"))


def play_and_sample(spec: str, seed: int, budget: float, ai_time: float, clock: str = "wall") -> list[tuple]:
    """One selfplay game of ``spec`` (``name`` or ``name:variant``); for every ``STRIDE``-th position the engine
    searches: (mover's predicted chance, mover's outcome, Murus search score or None)."""
    from burrow.selfplay import CLOCKS

    timer = CLOCKS[clock]
    game, _, variant = spec.partition(":")
    options = {"variant": variant} if variant else {}
    module = game_module(game)
    rng = random.Random(seed)
    levels = list(PAIRINGS[(seed // 2) % len(PAIRINGS)])
    if seed % 2:
        levels.reverse()
    state = None
    for event in module.initial(Setup(seats=2, options=options), rng):
        state = module.evolve(state, event)
    sampled, ply = [], 0
    while module.status(state) != "finished" and ply < 400:
        seat = module.to_act(state)[0]
        if ply % STRIDE == STRIDE - 1:
            if game == "murus":
                view = module.view(state, "all")
                score, _, side = analysis.murus_search(view, budget, random.Random(ply), timer)
                sampled.append((side, analysis.murus_chance(score, variant == "advanced"), score))
            else:
                found = analysis.evaluate(module, state, 2, seat, budget, random.Random(ply), timer)
                if found.best is not None:  # not Mouse Guard's secret placements, where nothing is searched
                    sampled.append((seat, found.win[seat], None))
        level = levels[seat]
        move = ai.choose(game, module.view(state, seat), seat, level, rng, ai.budget_for(level, ai_time), timer)
        for event in module.decide(state, seat, module.parse(move), rng):
            state = module.evolve(state, event)
        ply += 1
    end = analysis.final(module, state, 2)
    return [(chance, end[seat], score) for seat, chance, score in sampled]


def _task(args):
    return play_and_sample(*args)


def deciles(records: list[tuple[float, float, float | None]]) -> list[list]:
    rows = []
    for d in range(10):
        low, high = d / 10, (d + 1) / 10
        inside = [(p, o) for p, o, _ in records if low <= p < high or (d == 9 and p == 1.0)]
        if not inside:
            rows.append([f"{low:.1f}–{high:.1f}", 0, "—", "—"])
            continue
        predicted = sum(p for p, _ in inside) / len(inside)
        observed = sum(o for _, o in inside) / len(inside)
        rows.append([f"{low:.1f}–{high:.1f}", len(inside), f"{predicted:.2f}", f"{observed:.2f}"])
    return rows


def brier(records) -> float:
    return sum((p - o) ** 2 for p, o, _ in records) / len(records)


def fit_scale(records) -> tuple[float, float, float, int]:
    """(best scale, best offset for the side to move, mean log-likelihood, positions used) over unproven Murus
    scores, under ``1 / (1 + exp(-(score + offset) / scale))``."""
    scored = [(s, o) for _, o, s in records if s is not None and abs(s) <= WON]

    def loglik(params: tuple[int, int]) -> float:
        scale, offset = params
        total = 0.0
        for s, o in scored:
            p = min(max(1 / (1 + math.exp(-(s + offset) / scale)), 1e-6), 1 - 1e-6)
            total += o * math.log(p) + (1 - o) * math.log(1 - p)
        return total / max(len(scored), 1)

    best = max(((scale, offset) for scale in range(25, 1001, 25) for offset in range(-100, 101, 10)), key=loglik)
    return float(best[0]), float(best[1]), loglik(best), len(scored)


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def fit_slope(records) -> tuple[float, int]:
    """The slope ``a`` maximising the likelihood of the outcomes under ``sigmoid(a * logit(p))`` (p strictly
    between 0 and 1: certain chances stay), and the positions used."""
    used = [(logit(p), o) for p, o, _ in records if 0 < p < 1]

    def loglik(a: float) -> float:
        total = 0.0
        for x, o in used:
            q = min(max(1 / (1 + math.exp(-a * x)), 1e-6), 1 - 1e-6)
            total += o * math.log(q) + (1 - o) * math.log(1 - q)
        return total

    best = max((k / 20 for k in range(4, 101)), key=loglik)
    return best, len(used)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--games", default="murus,mouseguard,squirrels,commando")
    p.add_argument("--positions", type=int, default=200, help="at least this many positions per game")
    p.add_argument("--budget", type=float, default=0.25, help="analysis seconds per position")
    p.add_argument("--ai-time", type=float, default=0.05, help="selfplay seconds per move (hard: twice)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="budgets in wall or CPU time")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.quick:
        args.positions, args.budget, args.ai_time, args.games = 6, 0.02, 0.01, "murus,squirrels"
    harness.header("Calibration of the analysis's winning chances (bench/calibrate.py)", argv)
    for game in args.games.split(","):
        records, seed, started = [], args.seed * 1000, time.monotonic()
        with ProcessPoolExecutor(args.jobs) as pool:
            while len(records) < args.positions:
                batch = [(game, seed + i, args.budget, args.ai_time, args.clock) for i in range(max(args.jobs, 2))]
                seed += len(batch)
                for sampled in pool.map(_task, batch):
                    records.extend(sampled)
        games = seed - args.seed * 1000
        harness.table(["predicted", "positions", "mean predicted", "observed"], deciles(records),
                      title=f"{game}: {len(records)} positions of {games} games, budget {args.budget:g} s, "
                            f"Brier score {brier(records):.3f} ({time.monotonic() - started:.0f} s)")
        if game in ("mouseguard", "commando"):
            slope, used = fit_slope(records)
            print(f"{game} fit: slope {slope:g} on the log-odds over {used} uncertain positions "
                  f"(the analysis uses {analysis.SLOPES.get(game, 1.0):g})\n")
            refit = [(1 / (1 + math.exp(-slope * logit(p))) if 0 < p < 1 else p, o, s) for p, o, s in records]
            harness.table(["predicted", "positions", "mean predicted", "observed"], deciles(refit),
                          title=f"{game} with the fitted slope {slope:g}: Brier score {brier(refit):.3f}")
        if game.startswith("murus"):
            scale, offset, loglik, used = fit_scale(records)
            used_now = ((analysis.MURUS_ADVANCED_SCALE, analysis.MURUS_ADVANCED_OFFSET) if game == "murus:advanced"
                        else (analysis.MURUS_SCALE, analysis.MURUS_OFFSET))
            print(f"{game} fit: scale {scale:g} centi-stones per unit of log-odds, offset {offset:+g} for the "
                  f"side to move (mean log-likelihood {loglik:.3f} over {used} unproven positions; the analysis "
                  f"uses {used_now[0]:g}, {used_now[1]:+g})\n")
            refit = [(1 / (1 + math.exp(-(s + offset) / scale)) if abs(s) <= WON else p, o, s)
                     for p, o, s in records]
            harness.table(["predicted", "positions", "mean predicted", "observed"], deciles(refit),
                          title=f"{game} with the fitted scale {scale:g} and offset {offset:+g}: "
                                f"Brier score {brier(refit):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
