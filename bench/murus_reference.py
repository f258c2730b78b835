"""A reference Murus Gallicus engine for measuring ``hard`` (basic variant), and the match that does it.

    python bench/murus_reference.py [--games 100] [--time 0.5] [--jobs 1] [--seed 2026] [--clock wall|cpu]
                                     [--quick]

Written apart from ``domain/ai/murus.py`` — it shares only the rules' move generator (``domain.murus.board``) —
after the engine the issue describes: iterative deepening, a transposition table, principal-variation search,
killer moves and a history table, late-move reductions, a small threat extension, and its own evaluation:
material, advancement by row, mobility and breakthrough threats, weighted differently from ours (quadratic
advancement, a heavy penalty for facing two threats, a tempo bonus). It thinks for the whole budget (checking
the clock every 256 nodes) and answers with the best move of the deepest complete iteration, or of the
interrupted one when its first move was already searched.

The match plays ``hard`` against it at equal time a move, seats alternating every game (``--games`` games, games
i and i+1 from the same opening: two random plies by seed), and prints hard's wins with the 95% Wilson interval.
With ``--clock cpu`` both engines' budgets are CPU time of the game's process (``burrow selfplay --clock cpu``):
on a machine busy with other work each still searches what a quiet core would let it, so the match stays fair and
comparable between runs.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import harness

from domain.murus.board import (
    DISTRIBUTE,
    FULL,
    GOAL_ROW,
    ROW_MASKS,
    ROWS,
    STEPS,
    Move,
    Position,
    generate,
    play,
    start_position,
)
from domain.murus.notation import move_text

INF = 10**9
MATE = 10**8
MAX_PLY = 64
# Advancement by rows from the own home row (0) to the row before the goal (5), for walls and towers. Tuned by
# matches of the engine against itself (30–40 games at 0.1 s a move) against the first weights (walls
# 0-2-6-12-20-30, towers 0-4-12-24-40-60, mobility 3): towers worth twice as much forward won 19/30, no bonus for
# walls forward 22/30, mobility 6 18/30 (mobility 0: 2/30), the three together 29/40 (with mobility 10: 25/40);
# threat weights 150/600 instead of 90/400 16/30 (not kept).
WALL_ROW = (0, 0, 0, 0, 0, 0)
TOWER_ROW = (0, 8, 24, 48, 80, 120)
THREAT = 90  # each enemy tower that can break through next turn
DOUBLE_THREAT = 400  # two or more: usually lost
MOBILITY = 6
TEMPO = 8
LMR_MIN_DEPTH, LMR_MIN_INDEX = 3, 3
MAX_EXTENSION = 2

# (shift, cells with a second cell that way) per direction, split by sign so a shift is one operation.
DIRS = tuple((offset, has2) for offset, _, has2 in STEPS)
# Per side: directions going toward the goal row (row step +1 for Romans, -1 for Gauls).
FORWARD_DIRS = (tuple((o, h) for o, h in DIRS if o >= 7), tuple((o, h) for o, h in DIRS if o <= -7))
ROW_OF_BITS = tuple(tuple((ROW_MASKS[r] if side == 0 else ROW_MASKS[ROWS - 1 - r]) for r in range(ROWS))
                    for side in (0, 1))


def _shift(bits: int, offset: int) -> int:
    """Bit i of the result is bit ``i + offset`` of ``bits``."""
    return bits >> offset if offset > 0 else (bits << -offset) & FULL


def breakers(towers: int, landing: int, side: int) -> int:
    """Towers of ``side`` whose forward distribution puts a stone on the goal row over ``landing`` cells."""
    goal = landing & GOAL_ROW[side]
    found = 0
    for offset, has2 in FORWARD_DIRS[side]:
        found |= towers & has2 & _shift(landing, offset) & _shift(goal, 2 * offset)
    return found


def distributions(towers: int, landing: int) -> int:
    count = 0
    for offset, has2 in DIRS:
        count += (towers & has2 & _shift(landing, offset) & _shift(landing, 2 * offset)).bit_count()
    return count


class Timeout(Exception):
    pass


class Engine:
    def __init__(self, clock: Callable[[], float], deadline: float):
        self.clock, self.deadline = clock, deadline
        self.tt: dict[Position, tuple[int, int, int, Move | None]] = {}
        self.killers = [[None, None] for _ in range(MAX_PLY + 8)]
        self.history: dict[Move, int] = {}
        self.nodes = 0
        self.depth = 0

    # -- evaluation: side to move's view -------------------------------------------------------------------

    def evaluate(self, pos: Position) -> int:
        m1, m2, m3, t1, t2, t3, side = pos
        score = self._side(m1, m2, t1, side) - self._side(t1, t2, m1, side ^ 1) + TEMPO
        threats = self.threats(pos)  # ours would be a win now: the search has seen them
        if threats:
            score -= THREAT if threats == 1 else DOUBLE_THREAT
        return score

    def _side(self, p1: int, p2: int, enemy: int, side: int) -> int:
        towers, walls = p2, p1 & ~p2
        score = 100 * (p1.bit_count() + p2.bit_count())
        rows = ROW_OF_BITS[side]
        for r in range(1, ROWS - 1):
            mask = rows[r]
            score += WALL_ROW[r] * (walls & mask).bit_count() + TOWER_ROW[r] * (towers & mask).bit_count()
        landing = FULL & ~(enemy | p2)
        score += MOBILITY * distributions(towers, landing)
        return score

    def threats(self, pos: Position) -> int:
        """How many enemy towers break through next turn unless the side to move stops them."""
        m1, m2, _, t1, t2, _, side = pos
        return breakers(t2, FULL & ~(m1 | t2), side ^ 1).bit_count()

    # -- search --------------------------------------------------------------------------------------------

    def search(self, pos: Position, rng: random.Random) -> Move:
        moves = generate(pos, False)
        rng.shuffle(moves)
        for move in moves:  # a breakthrough now
            if play(pos, move)[3] & GOAL_ROW[pos[6]]:
                return move
        best = moves[0]
        try:
            for depth in range(1, MAX_PLY):
                score, move = self.root(pos, moves, depth, best)
                best, self.depth = move, depth
                moves.sort(key=lambda m: m != best)
                if abs(score) > MATE - 1000:
                    break
        except Timeout:
            if self.partial is not None:
                best = self.partial
        return best

    def root(self, pos: Position, moves: list[Move], depth: int, previous: Move) -> tuple[int, Move]:
        alpha, best = -INF, previous
        self.partial = None
        for i, move in enumerate(moves):
            child = play(pos, move)
            if i == 0:
                score = -self.node(child, depth - 1, -INF, -alpha, 1, 0)
            else:
                score = -self.node(child, depth - 1, -alpha - 1, -alpha, 1, 0)
                if score > alpha:
                    score = -self.node(child, depth - 1, -INF, -alpha, 1, 0)
            if score > alpha:
                alpha, best = score, move
                self.partial = move
        return alpha, best

    def node(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, extended: int) -> int:
        self.nodes += 1
        if not self.nodes & 255 and self.clock() >= self.deadline:
            raise Timeout
        m1, m2, _, t1, t2, _, side = pos
        if t1 & GOAL_ROW[side ^ 1]:
            return -MATE + ply  # the opponent has just broken through
        if breakers(m2, FULL & ~(t1 | m2), side):
            return MATE - ply - 1  # we break through now
        if depth <= 0:
            if extended < MAX_EXTENSION and self.threats(pos):
                depth, extended = 1, extended + 1  # a threat to answer: look one ply further
            else:
                return self.evaluate(pos)
        entry = self.tt.get(pos)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth and (e_flag == 0 or (e_flag > 0 and e_score >= beta)
                                     or (e_flag < 0 and e_score <= alpha)):
                return e_score
        moves = generate(pos, False)
        if not moves:
            return -MATE + ply
        killers, history = self.killers[ply], self.history
        moves.sort(key=lambda m: (m == tt_move, m[0] != DISTRIBUTE, m == killers[0] or m == killers[1],
                                  history.get(m, 0)), reverse=True)
        original, best_score, best_move = alpha, -INF, moves[0]
        for i, move in enumerate(moves):
            child = play(pos, move)
            if i == 0:
                score = -self.node(child, depth - 1, -beta, -alpha, ply + 1, extended)
            else:
                reduce = 1 if (depth >= LMR_MIN_DEPTH and i >= LMR_MIN_INDEX and move[0] == DISTRIBUTE
                               and move != killers[0] and move != killers[1]) else 0
                score = -self.node(child, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, extended)
                if score > alpha and reduce:
                    score = -self.node(child, depth - 1, -alpha - 1, -alpha, ply + 1, extended)
                if alpha < score < beta:
                    score = -self.node(child, depth - 1, -beta, -alpha, ply + 1, extended)
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move[0] == DISTRIBUTE and move != killers[0]:
                            killers[1], killers[0] = killers[0], move
                        history[move] = history.get(move, 0) + depth * depth
                        break
        flag = 1 if best_score >= beta else -1 if best_score <= original else 0
        self.tt[pos] = (depth, best_score, flag, best_move)
        return best_score


def choose(pos: Position, rng: random.Random, budget: float, clock: Callable[[], float] = time.monotonic) -> Move:
    """The reference engine's move in ``pos`` after ``budget`` seconds of ``clock``."""
    return Engine(clock, clock() + budget).search(pos, rng)


# -- the match ---------------------------------------------------------------------------------------------------

def play_game(index: int, seed: int, budget: float, clock: str = "wall", max_plies: int = 200
              ) -> tuple[int | None, int, int]:
    """Game ``index``: hard plays seat ``index % 2``, both engines thinking ``budget`` seconds of ``clock``.
    Returns (winning seat or None, hard's seat, plies)."""
    from burrow.selfplay import CLOCKS
    from domain.ai import murus as ours
    from domain.murus.position import position_json

    timer = CLOCKS[clock]
    rng = random.Random(seed * 1_000_003 + index // 2)
    pos = start_position()
    for _ in range(2):  # a random opening, the same for both seatings
        pos = play(pos, rng.choice(generate(pos, False)))
    hard_seat = index % 2
    for ply in range(max_plies):
        m1, _, _, t1, _, _, side = pos
        if t1 & GOAL_ROW[side ^ 1]:
            return side ^ 1, hard_seat, ply
        moves = generate(pos, False)
        if not moves:
            return side ^ 1, hard_seat, ply
        if side == hard_seat:
            view = {"options": {"variant": "basic", "max_plies": None}, "position": position_json(pos),
                    "status": "playing"}
            text = ours.choose(view, side, "hard", rng, budget, timer)
            move = next(m for m in moves if move_text(m) == text)
        else:
            move = choose(pos, rng, budget, timer)
        pos = play(pos, move)
    return None, hard_seat, max_plies


def _task(args):
    return play_game(*args)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--time", type=float, default=0.5, help="seconds a move for both engines")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="budgets in wall or CPU time")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.time = 2, 0.05
    harness.header("Murus: hard against the reference engine at equal time (bench/murus_reference.py)", argv)
    started = time.monotonic()
    tasks = [(i, args.seed, args.time, args.clock) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(_task, tasks))
    wins = sum(1 for winner, hard, _ in results if winner == hard)
    draws = sum(1 for winner, _, _ in results if winner is None)
    by_seat = [sum(1 for winner, hard, _ in results if winner == hard == s) for s in (0, 1)]
    from burrow.selfplay import wilson

    low, high = wilson(wins + draws / 2, len(results))
    rate = (wins + draws / 2) / len(results)
    harness.table(["games", "time a move", "hard wins", "reference wins", "draws", "hard as Romans / Gauls",
                   "hard win rate (95% CI)", "mean plies", "took"],
                  [[len(results), f"{args.time:g} s ({args.clock})", wins, len(results) - wins - draws, draws,
                    f"{by_seat[0]}/{sum(1 for _, h, _ in results if h == 0)} · "
                    f"{by_seat[1]}/{sum(1 for _, h, _ in results if h == 1)}",
                    f"{rate:.0%} ({low:.0%}–{high:.0%})", f"{sum(p for *_, p in results) / len(results):.0f}",
                    f"{time.monotonic() - started:.0f} s"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
