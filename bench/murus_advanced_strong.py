"""A strong reference engine for Murus' advanced game (catapults, fire, the delayed breakthrough), and the matches
that measure ``hard`` against it.

    python bench/murus_advanced_strong.py [--opponent hard|old|self] [--variant JSON] [--games 100] [--start 0]
                                          [--time 0.1] [--jobs 1] [--seed 2026] [--clock wall|cpu] [--quick]

Written apart from ``domain/ai/murus_advanced*.py`` (it shares no code with hard's search; from
``domain.murus.board`` it takes only the board's geometry and, for the matches, the referee: ``play`` and
``outcome``; its own move generator is checked against the rules' one in the tests): a plain, well-made
alpha-beta in Python of the kind ``bench/murus_strong.py`` is for the basic game —

* the rules' six planes (``(m1, m2, m3, t1, t2, t3, side)``: where the side to move has at least one, two, three
  stones, the same for the other side), moves as tuples ``(kind, source bit, first cell bit, second cell bit)``;
* iterative deepening with a transposition table (a dict keyed by the position; its move is searched first);
* principal-variation search (null windows after the first move) with late-move reductions (quiet moves from the
  fourth on, three plies or more from the leaves: one ply less, two from the tenth at six plies or more);
* move ordering: the table's move, intrusions (a stone put on the goal row), captures (sacrifices and fire at an
  enemy stack), moves on the four rows nearest the goal, two killers, history;
* a threat extension: a side facing an intruder (an enemy stone on its home row, MS-A4) searches every answer one
  ply deeper (a tower, a catapult or two intruders lose at once: no single action clears them); and a threat
  quiescence (at a quiet leaf the side to move may also intrude);
* an evaluation of material (wall, tower, catapult), advancement by row, distributions and fires available,
  catapults within range of the goal row, and intrusion threats (goal-row cells a side reaches next move, worth
  more where no enemy tower stands next to the cell and no enemy catapult covers it), plus a tempo bonus.

It thinks for its whole budget (checking the clock every 512 nodes) and answers with the best move of the deepest
complete iteration, or of the interrupted one once its first move was searched. ``--opponent hard`` plays
``hard`` (through ``domain.ai.murus.choose``, as a player meets it) against it; ``--opponent old`` plays the
Python search hard used in the advanced game before #45 (``domain.ai.murus.Search``) against it; ``--opponent
self`` plays it with the weights ``--variant`` changes against itself. Seats alternate every game; games i and
i+1 start from the same opening (``OPENING_PLIES`` random plies by seed). The figure printed is the first-named
engine's win rate with the 95% Wilson interval. With ``--clock cpu`` budgets are CPU time of the game's process.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import harness

from domain.murus.board import CELLS, COLS, FULL, GOAL_ROW, KING_STEPS, ROW_MASKS, ROWS

WIN = 10**7
WON = WIN - 1000
MAX_PLY = 96
TIME_CHECK = 511
MAX_EXTENSIONS = 6
LMR_DEPTH, LMR_AFTER, LMR_MORE = 3, 3, 9

# -- weights ----------------------------------------------------------------------------------------------------
WEIGHTS = {
    "wall": 100, "tower": 250, "catapult": 360,
    "wall_row": (0, 0, 4, 8, 14, 22, 0),
    "tower_row": (0, 10, 25, 45, 80, 60, 0),
    "catapult_row": (0, 15, 35, 60, 70, 50, 0),
    "mobility": 6, "fire": 4, "intrusion": 40, "open_intrusion": 180, "tempo": 10,
}
"""The evaluation's weights by name (``--variant`` overrides some for a self-play tuning match). Rows are counted
from the side's home row (6 = the goal row): a tower distributes onto the goal row from row 4, a catapult fires
onto it from rows 3 and 4."""

# -- geometry ---------------------------------------------------------------------------------------------------
DISTRIBUTE, SACRIFICE, DOUBLE, FIRE = 0, 1, 2, 3


def _cell(col: int, row: int) -> int | None:
    return COLS * row + col if 0 <= col < COLS and 0 <= row < ROWS else None


STEP_CELLS = tuple(
    tuple((c1, c2) for dc, dr in KING_STEPS
          if (c1 := _cell(i % COLS + dc, i // COLS + dr)) is not None
          for c2 in (_cell(i % COLS + 2 * dc, i // COLS + 2 * dr),))
    for i in range(CELLS))
"""Per cell, per direction on the board: (the next cell, the one after it or None)."""
FIRE_CELLS = tuple(
    tuple(tuple(t for dc, dr in ((-1, 0), (1, 0), (0, fwd), (-1, fwd), (1, fwd)) for k in (2, 3)
                if (t := _cell(i % COLS + k * dc, i // COLS + k * dr)) is not None)
          for i in range(CELLS))
    for fwd in (1, -1))
"""Per side, per cell: the cells a catapult there fires at (2 or 3 away: left, right, forward, its diagonals)."""
NEIGHBOURS = tuple(sum(1 << c1 for c1, _ in STEP_CELLS[i]) for i in range(CELLS))
ROW_FROM_HOME = (tuple(ROW_MASKS), tuple(reversed(ROW_MASKS)))
NEAR_GOAL = tuple(rows[3] | rows[4] | rows[5] | rows[6] for rows in ROW_FROM_HOME)

Pos = tuple[int, int, int, int, int, int, int]
Move = tuple[int, int, int, int]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def generate(pos: Pos) -> list[Move]:
    """Every legal move of the side to move (MS-4, MS-5, MS-A1…MS-A3), cell by cell."""
    m1, m2, m3, t1, t2, t3, side = pos
    moves: list[Move] = []
    add = moves.append
    landing = FULL & ~(t1 | m3)
    victims = (t1 & ~t2) | t3
    for i in _bits(m2 & ~m3):
        source = 1 << i
        for c1, c2 in STEP_CELLS[i]:
            near = 1 << c1
            if c2 is not None and landing & near and landing >> c2 & 1:
                add((DISTRIBUTE, source, near, 1 << c2))
            if victims & near:
                add((SACRIFICE, source, near, 0))
                if t3 & near:
                    add((DOUBLE, source, near, 0))
    if m3:
        free = FULL & ~m1
        for i in _bits(m3):
            for target in FIRE_CELLS[side][i]:
                if free >> target & 1:
                    add((FIRE, 1 << i, 1 << target, 0))
    return moves


def _remove(p1: int, p2: int, p3: int, cell: int) -> tuple[int, int, int]:
    if p3 & cell:
        return p1, p2, p3 & ~cell
    if p2 & cell:
        return p1, p2 & ~cell, p3
    return p1 & ~cell, p2, p3


def play(pos: Pos, move: Move) -> Pos:
    m1, m2, m3, t1, t2, t3, side = pos
    kind, source, first, second = move
    if kind == DISTRIBUTE:
        cells = first | second
        return (t1, t2, t3, (m1 & ~source) | cells, (m2 & ~source) | (m1 & cells), m3 | (m2 & cells), side ^ 1)
    if kind == SACRIFICE:
        return (*_remove(t1, t2, t3, first), m1, m2 & ~source, m3, side ^ 1)
    if kind == DOUBLE:
        return (t1, t2 & ~first, t3 & ~first, m1 & ~source, m2 & ~source, m3, side ^ 1)
    if t1 & first:
        return (*_remove(t1, t2, t3, first), m1, m2, m3 & ~source, side ^ 1)
    return (t1, t2, t3, m1 | first, m2, m3 & ~source, side ^ 1)


def to_move(move: Move) -> tuple[int, int, int]:
    """A move as the rules' ``(kind, frm, to)``."""
    kind, source, first, second = move
    return (kind, source.bit_length() - 1, (second or first).bit_length() - 1)


def intrudes(move: Move, pos: Pos) -> bool:
    """``move`` puts a stone of the mover on its goal row."""
    kind, _, first, second = move
    goal = GOAL_ROW[pos[6]]
    if kind == DISTRIBUTE:
        return bool(second & goal)
    return kind == FIRE and bool(first & goal) and not (pos[0] | pos[3]) & first


class Timeout(Exception):
    pass


class Engine:
    """One move decision: iterative deepening over a PVS alpha-beta until ``deadline`` of ``clock``."""

    def __init__(self, clock: Callable[[], float], deadline: float, weights: dict | None = None):
        self.clock, self.deadline = clock, deadline
        w = self.w = {**WEIGHTS, **(weights or {})}
        self.layers = tuple(
            tuple((kind, tuple((ROW_FROM_HOME[side][row], w[kind] + bonus)
                               for row, bonus in enumerate(w[f"{kind}_row"]))) for kind in ("wall", "tower",
                                                                                             "catapult"))
            for side in (0, 1))
        self.tt: dict[Pos, tuple[int, int, int, Move | None]] = {}
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2 * MAX_EXTENSIONS + 8)]
        self.history: tuple[dict, dict] = ({}, {})
        self.evals: dict[Pos, int] = {}
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.partial: Move | None = None

    # -- evaluation: the side to move's view -------------------------------------------------------------

    def evaluate(self, pos: Pos) -> int:
        score = self.evals.get(pos)
        if score is None:
            m1, m2, m3, t1, t2, t3, side = pos
            score = (self._side(m1, m2, m3, t1, t2, t3, side) - self._side(t1, t2, t3, m1, m2, m3, side ^ 1)
                     + self.w["tempo"])
            self.evals[pos] = score
        return score

    def _side(self, p1: int, p2: int, p3: int, e1: int, e2: int, e3: int, side: int) -> int:
        w = self.w
        walls, towers = p1 & ~p2, p2 & ~p3
        score = 0
        for (_, layers), plane in zip(self.layers[side], (walls, towers, p3)):
            if plane:
                for mask, weight in layers:
                    score += weight * (plane & mask).bit_count()
        landing = FULL & ~(e1 | p3)
        goal = GOAL_ROW[side]
        reach = 0
        moves = 0
        for i in _bits(towers):
            for c1, c2 in STEP_CELLS[i]:
                if c2 is not None and landing >> c1 & 1 and landing >> c2 & 1:
                    moves += 1
                    reach |= (1 << c2) & goal
        fires = 0
        if p3:
            free = FULL & ~p1
            empty_goal = goal & ~(p1 | e1)
            for i in _bits(p3):
                for target in FIRE_CELLS[side][i]:
                    if free >> target & 1:
                        fires += 1
                        reach |= (1 << target) & empty_goal
        score += w["mobility"] * moves + w["fire"] * fires
        if reach:
            guarded = 0
            for i in _bits(e2 & ~e3):
                guarded |= NEIGHBOURS[i]
            for i in _bits(e3):
                for target in FIRE_CELLS[side ^ 1][i]:
                    guarded |= 1 << target
            score += w["intrusion"] * reach.bit_count() + w["open_intrusion"] * (reach & ~guarded).bit_count()
        return score

    # -- search --------------------------------------------------------------------------------------------

    def search(self, pos: Pos, rng: random.Random) -> Move:
        """The best move found before the deadline (ties at the root broken by ``rng``)."""
        moves = generate(pos)
        rng.shuffle(moves)
        best = moves[0]
        try:
            for depth in range(1, MAX_PLY):
                score, move = self.root(pos, moves, depth)
                best, self.depth, self.score = move, depth, score
                moves.remove(move)
                moves.insert(0, move)
                if abs(score) > WON:
                    break
        except Timeout:
            if self.partial is not None:
                best = self.partial
        return best

    def root(self, pos: Pos, moves: list[Move], depth: int) -> tuple[int, Move]:
        alpha, best = -WIN - 1, moves[0]
        self.partial = None
        for i, move in enumerate(moves):
            child = play(pos, move)
            if i:
                score = -self.node(child, depth - 1, -alpha - 1, -alpha, 1, 0)
                if score > alpha:
                    score = -self.node(child, depth - 1, -WIN - 1, -alpha, 1, 0)
            else:
                score = -self.node(child, depth - 1, -WIN - 1, -alpha, 1, 0)
            if score > alpha:
                alpha, best = score, move
                self.partial = move
        return alpha, best

    def node(self, pos: Pos, depth: int, alpha: int, beta: int, ply: int, extended: int) -> int:
        self.nodes += 1
        if not self.nodes & TIME_CHECK and self.clock() >= self.deadline:
            raise Timeout
        m1, m2, m3, t1, t2, t3, side = pos
        if m1 & GOAL_ROW[side]:
            return WIN - ply  # our stone held the goal row a turn
        intruders = t1 & GOAL_ROW[side ^ 1]
        if intruders:
            if intruders & (intruders - 1) or intruders & t2:
                return -(WIN - ply - 1)  # nothing clears two intruders, a tower or a catapult in one action
            if depth <= 0 and extended < MAX_EXTENSIONS:
                depth, extended = 1, extended + 1
        if depth <= 0:
            return self.quiesce(pos, alpha, beta, ply, extended)
        entry = self.tt.get(pos)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                score = e_score - ply if e_score > WON else e_score + ply if e_score < -WON else e_score
                if e_flag == 0 or (e_flag > 0 and score >= beta) or (e_flag < 0 and score <= alpha):
                    return score
        moves = generate(pos)
        if intruders:
            moves = [move for move in moves if move[0] != DISTRIBUTE and move[2] == intruders]
            if not moves:
                return -(WIN - ply - 1)
        elif not moves:
            return -(WIN - ply)  # stalemate: no legal action loses
        killers = self.killers[ply]
        history = self.history[side]
        near = NEAR_GOAL[side]
        key = {}
        for move in moves:
            if move == tt_move:
                key[move] = 1 << 46
            elif intrudes(move, pos):
                key[move] = 1 << 44
            elif move[0] != DISTRIBUTE and move[2] & t1:
                key[move] = (1 << 42) + history.get(move, 0)
            elif move == killers[0] or move == killers[1]:
                key[move] = 1 << 40
            else:
                key[move] = history.get(move, 0) + ((1 << 39) if (move[1] | move[2] | move[3]) & near else 0)
        moves.sort(key=key.__getitem__, reverse=True)
        original, best_score, best_move = alpha, -WIN - 1, moves[0]
        for i, move in enumerate(moves):
            child = play(pos, move)
            if i == 0:
                score = -self.node(child, depth - 1, -beta, -alpha, ply + 1, extended)
            else:
                reduction = 0
                if depth >= LMR_DEPTH and i >= LMR_AFTER and key[move] < 1 << 39:
                    reduction = 2 if i >= LMR_MORE and depth >= 6 else 1
                score = -self.node(child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, extended)
                if score > alpha and reduction:
                    score = -self.node(child, depth - 1, -alpha - 1, -alpha, ply + 1, extended)
                if alpha < score < beta:
                    score = -self.node(child, depth - 1, -beta, -alpha, ply + 1, extended)
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if key[move] < 1 << 42 and move != killers[0]:
                            killers[1], killers[0] = killers[0], move
                        history[move] = history.get(move, 0) + depth * depth
                        break
        flag = 1 if best_score >= beta else -1 if best_score <= original else 0
        stored = best_score + ply if best_score > WON else best_score - ply if best_score < -WON else best_score
        self.tt[pos] = (depth, stored, flag, best_move)
        return best_score

    def quiesce(self, pos: Pos, alpha: int, beta: int, ply: int, extended: int) -> int:
        """A quiet leaf: the evaluation, unless an intrusion does better."""
        score = self.evaluate(pos)
        if score >= beta or extended >= MAX_EXTENSIONS or not pos[1]:
            return score
        if score > alpha:
            alpha = score
        for move in generate(pos):
            if not intrudes(move, pos):
                continue
            value = -self.node(play(pos, move), 0, -beta, -alpha, ply + 1, extended + 1)
            if value > score:
                score = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return score


def choose(position: tuple, rng: random.Random, budget: float,
           clock: Callable[[], float] = time.monotonic, weights: dict | None = None) -> tuple[int, int, int]:
    """This engine's move (as the rules' ``(kind, frm, to)``) in a ``domain.murus.board`` advanced position."""
    return to_move(Engine(clock, clock() + budget, weights).search(position, rng))


# -- the matches -------------------------------------------------------------------------------------------------

OPENING_PLIES = 2
PAIRINGS = {
    "hard": ("hard", "strong"),
    "old": ("hard before #45", "strong"),
    "self": ("strong variant", "strong"),
}
"""``--opponent`` → (the first-named engine, whose win rate is measured; the other)."""


def _mover(name: str, weights: dict | None) -> Callable:
    """A function (``domain.murus.board`` position, rng, budget, clock) → move for the engine called ``name``."""
    if name in ("hard", "hard before #45"):
        from domain.ai import murus as ours
        from domain.murus.notation import move_text
        from domain.murus.position import position_json

        def hard(pos, rng, budget, timer):
            moves = ours.generate(pos, True)
            if name == "hard":
                view = {"options": {"variant": "advanced", "max_plies": None}, "position": position_json(pos),
                        "status": "playing"}
                text = ours.choose(view, pos[6], "hard", rng, budget, timer)
                return next(m for m in moves if move_text(m) == text)
            search = ours.Search(True, hard=True, clock=timer, deadline=timer() + ours.BUDGET_SHARE * budget)
            return search.best_move(pos, moves, rng)

        return hard
    chosen = weights if name == "strong variant" else None
    return lambda pos, rng, budget, timer: choose(pos, rng, budget, timer, chosen)


def opening(seed: int, index: int) -> tuple[random.Random, tuple]:
    """Game ``index``'s random generator and its opening: ``OPENING_PLIES`` random plies from the start, the same
    for games 2k and 2k+1 (both seatings)."""
    from domain.murus import board

    rng = random.Random(seed * 1_000_003 + index // 2)
    pos = board.start_position()
    for _ in range(OPENING_PLIES):
        pos = board.play(pos, rng.choice(board.generate(pos, True)))
    return rng, pos


def play_game(index: int, seed: int, budget: float, clock: str = "wall", opponent: str = "hard",
              weights: dict | None = None, max_plies: int = 300) -> tuple[int | None, int, int]:
    """Game ``index`` of the pairing ``opponent`` (``PAIRINGS``): the first-named engine plays seat
    ``index % 2``. Returns (winning seat or None, that engine's seat, plies)."""
    from burrow.selfplay import CLOCKS
    from domain.murus import board

    timer = CLOCKS[clock]
    first, second = (_mover(name, weights) for name in PAIRINGS[opponent])
    rng, pos = opening(seed, index)
    first_seat = index % 2
    for ply in range(max_plies):
        over = board.outcome(pos, True)
        if over is not None:
            return over[0], first_seat, ply
        move = (first if pos[6] == first_seat else second)(pos, rng, budget, timer)
        pos = board.play(pos, move)
    return None, first_seat, max_plies


def _task(args):
    return play_game(*args)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--opponent", choices=tuple(PAIRINGS), default="hard",
                   help="hard: hard against this engine; old: hard's advanced search before #45 against this "
                        "engine; self: this engine with --variant weights against itself")
    p.add_argument("--variant", default="{}", help="self: the variant's weights as JSON, e.g. '{\"fire\": 8}'")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--start", type=int, default=0,
                   help="the first game's index: a long match may run as several shards (--start 0, 50, ...)")
    p.add_argument("--time", type=float, default=0.1, help="seconds a move for both engines")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="budgets in wall or CPU time")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.time = 2, 0.05
    first, second = PAIRINGS[args.opponent]
    weights = json.loads(args.variant)
    harness.header(f"Murus, advanced: {first} against {second} at equal time (bench/murus_advanced_strong.py)",
                   argv)
    started = time.monotonic()
    tasks = [(i, args.seed, args.time, args.clock, args.opponent, weights)
             for i in range(args.start, args.start + args.games)]
    results = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for result in pool.map(_task, tasks):
            results.append(result)
            if not args.quick:
                wins = sum(1 for winner, seat, _ in results if winner == seat)
                print(f"# game {len(results)}: {first} {'won' if result[0] == result[1] else 'lost'} "
                      f"as {'Romans' if result[1] == 0 else 'Gauls'} in {result[2]} plies; "
                      f"{wins}/{len(results)}", file=sys.stderr, flush=True)
    wins = sum(1 for winner, seat, _ in results if winner == seat)
    draws = sum(1 for winner, _, _ in results if winner is None)
    by_seat = [sum(1 for winner, seat, _ in results if winner == seat == s) for s in (0, 1)]
    at_seat = [sum(1 for _, seat, _ in results if seat == s) for s in (0, 1)]
    from burrow.selfplay import wilson

    low, high = wilson(wins + draws / 2, len(results))
    rate = (wins + draws / 2) / len(results)
    harness.table(["games", "time a move", f"{first} wins", f"{second} wins", "draws",
                   f"{first} as Romans · as Gauls", f"{first} win rate (95% CI)", "mean plies", "took"],
                  [[len(results), f"{args.time:g} s ({args.clock})", wins, len(results) - wins - draws, draws,
                    f"{by_seat[0]}/{at_seat[0]} · {by_seat[1]}/{at_seat[1]}",
                    f"{rate:.0%} ({low:.0%}–{high:.0%})", f"{sum(p for *_, p in results) / len(results):.0f}",
                    f"{time.monotonic() - started:.0f} s"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
