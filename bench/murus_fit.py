"""Fit hard's basic-game Murus evaluation: logistic regression of self-play outcomes on position features.

    python bench/murus_fit.py [--games 600] [--time 0.02] [--jobs 1] [--seed 1] [--clock wall|cpu]
                              [--data FILE] [--quick]

Plays ``--games`` games of hard's basic-game search (``domain/ai/murus_search.py``) against itself at ``--time``
a move (four random plies to open, and a random move one time in ten in the first twelve plies, so the positions
vary), and keeps every calm position from the fourth ply on: the side to move neither breaks through nor faces a
breakthrough next turn (the search evaluates only such positions: it wins at once or extends the others). Each
gives the side to move's feature differences (``murus_search.features``) and the game's outcome for it (1 won,
0 lost). A logistic regression (Newton's method, a small L2 penalty) fits the chance that the side to move wins;
the weights, times 100, are the evaluation's (centi-units of log-odds: the analysis's scale is then about 100).
It prints the weights as the Python of ``murus_search.FITTED``, the fit's log-likelihood against the current
evaluation's (its best single scale), and the deciles of the fitted chance against the outcomes. ``--data``
keeps the positions in a JSON file (read back instead of playing when it exists).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import harness

from domain.ai import murus_search as fast
from domain.murus import board

OPENING = 4
RANDOM_UNTIL, RANDOM_SHARE = 12, 0.1
L2 = 1.0


def play_game(seed: int, budget: float, clock: str) -> list[tuple[list[int], int, int]]:
    """One self-play game: (features, outcome for the side to move, hand evaluation) of its calm positions."""
    from burrow.selfplay import CLOCKS

    timer = CLOCKS[clock]
    rng = random.Random(seed)
    pos = fast.compact(board.start_position())
    kept: list[tuple[list[int], int, int]] = []
    sides: list[int] = []
    winner = None
    for ply in range(200):
        m1, m2, t1, t2, side = pos
        moves = fast.generate(pos)
        if not moves:
            winner = side ^ 1
            break
        if ply >= OPENING and not fast.breakers(m2, board.FULL & ~(t1 | m2), side) \
                and not fast.breakers(t2, board.FULL & ~(m1 | t2), side ^ 1):
            kept.append((fast.features(pos), side, fast.Search(timer, 0.0).evaluate(pos)))
            sides.append(side)
        if ply < OPENING or (ply < RANDOM_UNTIL and rng.random() < RANDOM_SHARE):
            code = rng.choice(moves)
        else:
            code = fast.Search(timer, timer() + budget).best_move(pos, rng)
        pos = fast.play(pos, code)
        if pos[2] & board.GOAL_ROW[side]:  # the mover (now the other side: planes 2 and 3) reached its goal row
            winner = side
            break
    if winner is None:
        return []
    return [(f, int(side == winner), hand) for f, side, hand in kept]


def _task(args):
    return play_game(*args)


def sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(rows: list[tuple[list[int], int]], iterations: int = 12) -> list[float]:
    """Weights (bias last) maximising the L2-penalised likelihood of the outcomes under ``sigmoid(w · x + b)``."""
    n = len(rows[0][0]) + 1
    data = [(x + [1], y) for x, y in rows]
    w = [0.0] * n
    for _ in range(iterations):
        grad = [-L2 * wi for wi in w]
        grad[-1] = 0.0
        hess = [[0.0] * n for _ in range(n)]
        for i in range(n - 1):
            hess[i][i] = L2
        for x, y in data:
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x)))
            d, v = y - p, p * (1 - p)
            for i, xi in enumerate(x):
                if xi:
                    grad[i] += d * xi
                    vx = v * xi
                    row = hess[i]
                    for j, xj in enumerate(x):
                        if xj:
                            row[j] += vx * xj
        step = solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step)]
        if max(abs(si) for si in step) < 1e-6:
            break
    return w


def loglik(pairs: list[tuple[float, int]]) -> float:
    """Mean log-likelihood of outcomes ``y`` under chances ``p``."""
    total = 0.0
    for p, y in pairs:
        p = min(max(p, 1e-9), 1 - 1e-9)
        total += math.log(p) if y else math.log(1 - p)
    return total / len(pairs)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--time", type=float, default=0.02, help="seconds a move in the self-play games")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    p.add_argument("--data", default=None, help="a JSON file keeping the positions (read if it exists)")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.time, args.data = 6, 0.005, None
    harness.header("Murus: hard's evaluation fitted to self-play outcomes (bench/murus_fit.py)", argv)
    started = time.monotonic()
    if args.data and os.path.exists(args.data):
        with open(args.data) as f:
            records = [tuple(r) for r in json.load(f)]
    else:
        records = []
        tasks = [(args.seed * 100_000 + i, args.time, args.clock) for i in range(args.games)]
        with ProcessPoolExecutor(args.jobs) as pool:
            for found in pool.map(_task, tasks):
                records.extend(found)
        if args.data:
            with open(args.data, "w") as f:
                json.dump(records, f)
    weights = fit([(x, y) for x, y, _ in records])
    fitted = [(sigmoid(sum(w * v for w, v in zip(weights, x)) + weights[-1]), y) for x, y, _ in records]
    scale = max(range(25, 1001, 25), key=lambda s: loglik([(sigmoid(h / s), y) for _, y, h in records]))
    hand = [(sigmoid(h / scale), y) for _, y, h in records]
    rows = [[name, f"{100 * w:.0f}"] for name, w in zip((*fast.FEATURES, "side to move"), weights)]
    harness.table(["feature (side to move minus other side)", "weight (centi-log-odds)"], rows,
                  title=f"{len(records)} calm positions ({time.monotonic() - started:.0f} s)")
    deciles = []
    for d in range(10):
        inside = [(pr, y) for pr, y in fitted if d / 10 <= pr < (d + 1) / 10 or (d == 9 and pr == 1.0)]
        if inside:
            deciles.append([f"{d / 10:.1f}–{(d + 1) / 10:.1f}", len(inside),
                            f"{sum(pr for pr, _ in inside) / len(inside):.2f}",
                            f"{sum(y for _, y in inside) / len(inside):.2f}"])
    harness.table(["fitted chance", "positions", "mean fitted", "observed"], deciles,
                  title=f"log-likelihood: fitted {loglik(fitted):.4f}, current evaluation at its best scale "
                        f"{scale} {loglik(hand):.4f}")
    print("FITTED = (" + ", ".join(f"{round(100 * w)}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
