"""A strong reference Murus Gallicus engine (basic variant), and the matches that measure against it.

    python bench/murus_strong.py [--opponent hard|old|self|classic] [--variant JSON] [--games 100] [--start 0]
                                 [--time 0.5] [--jobs 1] [--seed 2026] [--clock wall|cpu] [--quick]

Written apart from ``domain/ai/murus.py`` (it shares no code with its search; from ``domain.murus.board`` it
takes only the board's geometry, and its own move generator is checked against the rules' one in the tests): a
plain, well-made alpha-beta of the kind issue #32 describes —

* a compact board: four integers and the side to move (``(m1, m2, t1, t2, side)``: the cells where the side to
  move has at least one / two stones, the same for the other side), moves as small integers played from a table;
* iterative deepening with a transposition table (a dict keyed by the position; its move is searched first);
* principal-variation search (null windows after the first move) with late-move reductions (quiet moves from the
  fourth on, three plies or more from the leaves: one ply less, two from the tenth at six plies or more);
* move ordering: the table's move, sacrifices, moves that make a breakthrough threat, two killers, history;
* a threat extension at the leaves (the opponent breaks through next turn: one more ply, all replies) and a
  threat quiescence (at a quiet leaf the side to move may also play a move that makes a breakthrough threat);
* an evaluation of material, tower and wall advancement by row, mobility, and breakthrough threats (a penalty
  for each enemy tower that breaks through next turn, a larger one for two or more, and a bonus for own
  towers that would, were it their turn), plus a tempo bonus.

It thinks for its whole budget (checking the clock every 512 nodes) and answers with the best move of the deepest
complete iteration, or of the interrupted one once its first move was searched. ``--opponent old`` plays it
against ``bench/murus_reference.py`` (the earlier reference), ``--opponent hard`` plays ``hard`` against it,
``--opponent self`` plays it with the weights ``--variant`` changes against itself (the tuning matches), and
``--opponent classic`` plays #17's ``hard`` search against it. Seats
alternate every game; games i and i+1 start from the same opening (``OPENING_PLIES`` random plies by seed). The
figure printed is the first-named engine's (``hard``, or this one against ``old``) win rate with the 95% Wilson
interval. With ``--clock cpu`` budgets are CPU time of the game's process.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import harness

from domain.murus.board import COLS, FULL, GOAL_ROW, KING_STEPS, ROW_MASKS, ROWS, STEPS

WIN = 10**7
WON = WIN - 1000
MAX_PLY = 96
TIME_CHECK = 511

# -- tuned weights (self-play, see docs/ai.md) ----------------------------------------------------------------
TOWER_ROW = (0, 8, 24, 48, 80, 120, 0)
"""A tower's bonus by rows travelled from its home row (6 = the goal row, never reached in play)."""
WALL_ROW = (0, 0, 4, 8, 12, 16, 0)
MOBILITY = 10
THREAT = 120  # one enemy tower breaking through next turn (the side to move must answer it)
DOUBLE_THREAT = 600  # two or more
OWN_THREAT = 40  # each own tower that breaks through if left alone
TEMPO = 10
LMR_DEPTH, LMR_AFTER, LMR_MORE = 3, 3, 9
MAX_EXTENSIONS = 6

# -- geometry -------------------------------------------------------------------------------------------------
DIRECTIONS = tuple((offset, has1, has2) for offset, has1, has2 in STEPS)
FORWARD_OFFSETS = (tuple(8 * dr + dc for dc, dr in KING_STEPS if dr == 1),
                   tuple(8 * dr + dc for dc, dr in KING_STEPS if dr == -1))
HAS2 = {offset: has2 for offset, _, has2 in STEPS}
ROW_FROM_HOME = (tuple(ROW_MASKS), tuple(reversed(ROW_MASKS)))
THREAT_ROW = (ROW_MASKS[ROWS - 3], ROW_MASKS[2])
"""By side: the row from which a tower reaches the goal row with one distribution."""
CLOSE_ROWS = (ROW_MASKS[ROWS - 3] | ROW_MASKS[ROWS - 2] | ROW_MASKS[ROWS - 1],
              ROW_MASKS[0] | ROW_MASKS[1] | ROW_MASKS[2])
"""By side: the threat row and the two beyond it. A move makes a breakthrough threat only by raising a tower on
the threat row (a distribution landing on an own wall there) or by clearing a landing cell: a tower on these rows
leaving, or sacrificing (a wall does not block; the wall it removes is next to it)."""

_DIST = 0
_SAC = 4096
MOVE_TABLE: dict[int, tuple[int, int, bool]] = {}
"""Move code → (source bit, landing bits or the captured wall's bit, distribution?). A distribution from ``f`` to
the far cell ``g`` is ``64 f + g``, a sacrifice of the tower on ``f`` against ``g`` is ``4096 + 64 f + g``."""
for _offset, _has1, _has2 in DIRECTIONS:
    for _frm in range(COLS * ROWS):
        if _has2 >> _frm & 1:
            _cells = (1 << (_frm + _offset)) | (1 << (_frm + 2 * _offset))
            MOVE_TABLE[65 * _frm + 2 * _offset] = (1 << _frm, _cells, True)
        if _has1 >> _frm & 1:
            MOVE_TABLE[_SAC + 65 * _frm + _offset] = (1 << _frm, 1 << (_frm + _offset), False)
MOVES = [MOVE_TABLE.get(code) for code in range(8192)]


def _layers(weights: tuple[int, ...], side: int) -> tuple[tuple[int, int], ...]:
    """(mask, weight) pairs summing, over the masks holding a cell, to the cell's weight by row from home."""
    return tuple((ROW_FROM_HOME[side][row], weight) for row, weight in enumerate(weights) if weight)


WEIGHTS = {"tower_row": TOWER_ROW, "wall_row": WALL_ROW, "mobility": MOBILITY, "threat": THREAT,
           "double_threat": DOUBLE_THREAT, "own_threat": OWN_THREAT, "tempo": TEMPO}
"""The evaluation's weights by name (``--variant`` overrides some for a self-play tuning match)."""

Pos = tuple[int, int, int, int, int]


def from_board(position: tuple) -> Pos:
    """The compact board of a ``domain.murus.board`` position (basic variant: no catapults)."""
    m1, m2, _, t1, t2, _, side = position
    return (m1, m2, t1, t2, side)


def to_move(code: int) -> tuple[int, int, int]:
    """A move code as the rules' ``(kind, frm, to)``."""
    kind = 1 if code >= _SAC else 0
    code -= _SAC * kind
    return (kind, code >> 6, code & 63)


def from_move(move: tuple[int, int, int]) -> int:
    kind, frm, to = move
    return (_SAC if kind else 0) + 64 * frm + to


def play(pos: Pos, code: int) -> Pos:
    m1, m2, t1, t2, side = pos
    src, cells, distribution = MOVES[code]
    if distribution:
        return (t1, t2, (m1 & ~src) | cells, (m2 & ~src) | (m1 & cells), side ^ 1)
    return (t1 & ~cells, t2, m1, m2 & ~src, side ^ 1)


def generate(pos: Pos) -> list[int]:
    """Every legal move code of the side to move: distributions, then sacrifices."""
    m1, m2, t1, t2, _ = pos
    moves: list[int] = []
    add = moves.append
    landing = FULL & ~(t1 | m2)
    walls = t1 & ~t2
    for offset, has1, has2 in DIRECTIONS:
        if offset > 0:
            can = m2 & has2 & (landing >> offset) & (landing >> (2 * offset))
            cap = m2 & has1 & (walls >> offset)
        else:
            can = m2 & has2 & (landing << -offset) & (landing << (-2 * offset))
            cap = m2 & has1 & (walls << -offset)
        step = 2 * offset
        while can:
            low = can & -can
            frm = low.bit_length() - 1
            add(65 * frm + step)
            can ^= low
        while cap:
            low = cap & -cap
            frm = low.bit_length() - 1
            add(_SAC + 65 * frm + offset)
            cap ^= low
    return moves


def breakers(towers: int, landing: int, side: int) -> int:
    """Those of ``side``'s ``towers`` that put a stone on the goal row with one distribution over ``landing``."""
    towers &= THREAT_ROW[side]
    if not towers:
        return 0
    goal = landing & GOAL_ROW[side]
    found = 0
    if side == 0:
        for offset in FORWARD_OFFSETS[0]:
            found |= towers & HAS2[offset] & (landing >> offset) & (goal >> (2 * offset))
    else:
        for offset in FORWARD_OFFSETS[1]:
            found |= towers & HAS2[offset] & (landing << -offset) & (goal << (-2 * offset))
    return found


def distributions(towers: int, landing: int) -> int:
    """How many (tower, direction) distributions ``towers`` have over ``landing`` cells."""
    e = landing & (landing >> 1)
    n = landing & (landing >> 8)
    ne = landing & (landing >> 9)
    nw = landing & (landing >> 7)
    return ((towers & HAS2[1] & (e >> 1)).bit_count() + (towers & HAS2[-1] & (e << 2)).bit_count()
            + (towers & HAS2[8] & (n >> 8)).bit_count() + (towers & HAS2[-8] & (n << 16)).bit_count()
            + (towers & HAS2[9] & (ne >> 9)).bit_count() + (towers & HAS2[-9] & (ne << 18)).bit_count()
            + (towers & HAS2[7] & (nw >> 7)).bit_count() + (towers & HAS2[-7] & (nw << 14)).bit_count())


class Timeout(Exception):
    pass


class Engine:
    """One move decision: iterative deepening over a PVS alpha-beta until ``deadline`` of ``clock``."""

    def __init__(self, clock: Callable[[], float], deadline: float, weights: dict | None = None):
        self.clock, self.deadline = clock, deadline
        w = {**WEIGHTS, **(weights or {})}
        self.tower_layers = tuple(_layers(w["tower_row"], side) for side in (0, 1))
        self.wall_layers = tuple(_layers(w["wall_row"], side) for side in (0, 1))
        self.mobility, self.threat, self.double_threat = w["mobility"], w["threat"], w["double_threat"]
        self.own_threat, self.tempo = w["own_threat"], w["tempo"]
        self.tt: dict[Pos, tuple[int, int, int, int]] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2 * MAX_EXTENSIONS + 8)]
        self.history = ({}, {})
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.partial: int | None = None
        self.evals: dict[Pos, int] = {}

    # -- evaluation: the side to move's view -------------------------------------------------------------

    def evaluate(self, pos: Pos) -> int:
        score = self.evals.get(pos)
        if score is not None:
            return score
        m1, m2, t1, t2, side = pos
        score = self._side(m1, m2, t1, side) - self._side(t1, t2, m1, side ^ 1) + self.tempo
        threats = breakers(t2, FULL & ~(m1 | t2), side ^ 1)
        if threats:
            score -= self.threat if not threats & (threats - 1) else self.double_threat
        self.evals[pos] = score
        return score

    def _side(self, p1: int, p2: int, enemy: int, side: int) -> int:
        walls = p1 & ~p2
        score = 100 * (p1.bit_count() + p2.bit_count())
        for mask, weight in self.tower_layers[side]:
            score += weight * (p2 & mask).bit_count()
        for mask, weight in self.wall_layers[side]:
            score += weight * (walls & mask).bit_count()
        landing = FULL & ~(enemy | p2)
        score += self.mobility * distributions(p2, landing)
        own = breakers(p2, landing, side)
        if own:
            score += self.own_threat * own.bit_count()
        return score

    # -- search --------------------------------------------------------------------------------------------

    def search(self, pos: Pos, rng: random.Random) -> int:
        """The best move code found before the deadline (ties at the root broken by ``rng``)."""
        moves = generate(pos)
        rng.shuffle(moves)
        m1, m2, t1, t2, side = pos
        win = breakers(m2, FULL & ~(t1 | m2), side)
        if win:
            for code in moves:
                if play(pos, code)[2] & GOAL_ROW[side]:
                    self.score = WIN - 1
                    return code
        best = moves[0]
        try:
            for depth in range(1, MAX_PLY):
                score, code = self.root(pos, moves, depth)
                best, self.depth, self.score = code, depth, score
                moves.remove(code)
                moves.insert(0, code)
                if abs(score) > WON:
                    break
        except Timeout:
            if self.partial is not None:
                best = self.partial
        return best

    def root(self, pos: Pos, moves: list[int], depth: int) -> tuple[int, int]:
        alpha, best = -WIN - 1, moves[0]
        self.partial = None
        for i, code in enumerate(moves):
            child = play(pos, code)
            if i:
                score = -self.node(child, depth - 1, -alpha - 1, -alpha, 1, 0)
                if score > alpha:
                    score = -self.node(child, depth - 1, -WIN - 1, -alpha, 1, 0)
            else:
                score = -self.node(child, depth - 1, -WIN - 1, -alpha, 1, 0)
            if score > alpha:
                alpha, best = score, code
                self.partial = code
        return alpha, best

    def node(self, pos: Pos, depth: int, alpha: int, beta: int, ply: int, extended: int) -> int:
        self.nodes += 1
        if not self.nodes & TIME_CHECK and self.clock() >= self.deadline:
            raise Timeout
        m1, m2, t1, t2, side = pos
        landing = FULL & ~(t1 | m2)
        if breakers(m2, landing, side):
            return WIN - ply - 1  # we break through now
        if depth <= 0:
            if extended >= MAX_EXTENSIONS or not breakers(t2, FULL & ~(m1 | t2), side ^ 1):
                return self.quiesce(pos, alpha, beta, ply, extended)
            depth, extended = 1, extended + 1  # a threat to answer: every reply, one ply more
        entry = self.tt.get(pos)
        tt_move = 0
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                score = e_score - ply if e_score > WON else e_score + ply if e_score < -WON else e_score
                if e_flag == 0 or (e_flag > 0 and score >= beta) or (e_flag < 0 and score <= alpha):
                    return score
        moves = generate(pos)
        if not moves:
            return -(WIN - ply)  # stalemate: no legal move loses
        killers = self.killers[ply]
        history = self.history[side]
        near = THREAT_ROW[side]
        key = {}
        for code in moves:
            if code >= _SAC:
                key[code] = 1 << 40
            elif code == killers[0] or code == killers[1]:
                key[code] = 1 << 38
            else:
                key[code] = history.get(code, 0) + ((1 << 39) if MOVES[code][1] & near & m1 else 0)
        if tt_move in key:
            key[tt_move] = 1 << 45
        moves.sort(key=key.__getitem__, reverse=True)
        original, best_score, best_move = alpha, -WIN - 1, moves[0]
        for i, code in enumerate(moves):
            child = play(pos, code)
            if i == 0:
                score = -self.node(child, depth - 1, -beta, -alpha, ply + 1, extended)
            else:
                reduction = 0
                if depth >= LMR_DEPTH and i >= LMR_AFTER and key[code] < 1 << 38:
                    reduction = 2 if i >= LMR_MORE and depth >= 6 else 1
                score = -self.node(child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, extended)
                if score > alpha and reduction:
                    score = -self.node(child, depth - 1, -alpha - 1, -alpha, ply + 1, extended)
                if alpha < score < beta:
                    score = -self.node(child, depth - 1, -beta, -alpha, ply + 1, extended)
            if score > best_score:
                best_score, best_move = score, code
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if code < _SAC and code != killers[0]:
                            killers[1], killers[0] = killers[0], code
                        history[code] = history.get(code, 0) + depth * depth
                        break
        flag = 1 if best_score >= beta else -1 if best_score <= original else 0
        stored = best_score + ply if best_score > WON else best_score - ply if best_score < -WON else best_score
        self.tt[pos] = (depth, stored, flag, best_move)
        return best_score

    def quiesce(self, pos: Pos, alpha: int, beta: int, ply: int, extended: int) -> int:
        """A quiet leaf: the evaluation, unless a move that makes a breakthrough threat does better."""
        score = self.evaluate(pos)
        if score >= beta or extended >= MAX_EXTENSIONS:
            return score
        m1, m2, t1, t2, side = pos
        near = THREAT_ROW[side]
        walls = m1 & ~m2 & near
        close = CLOSE_ROWS[side]
        if not walls and not m2 & close:
            return score  # no wall to raise on the threat row, no tower near the goal: no threat to make
        if score > alpha:
            alpha = score
        for code in generate(pos):
            src, cells, distribution = MOVES[code]
            if distribution and not (cells & walls or src & close):
                continue
            if not distribution and not src & close:
                continue
            child = play(pos, code)
            c1, c2, c3, c4, _ = child  # c3, c4: the mover's planes
            if not breakers(c4, FULL & ~(c1 | c4), side):
                continue
            value = -self.node(child, 0, -beta, -alpha, ply + 1, extended + 1)
            if value > score:
                score = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return score


def choose(position: tuple, rng: random.Random, budget: float,
           clock: Callable[[], float] = time.monotonic, weights: dict | None = None) -> tuple[int, int, int]:
    """This engine's move (as the rules' ``(kind, frm, to)``) in a ``domain.murus.board`` position."""
    return to_move(Engine(clock, clock() + budget, weights).search(from_board(position), rng))


# -- the matches -------------------------------------------------------------------------------------------------

OPENING_PLIES = 2
PAIRINGS = {
    "hard": ("hard", "strong"),
    "old": ("strong", "old reference"),
    "self": ("strong variant", "strong"),
    "classic": ("hard before #32", "strong"),
}
"""``--opponent`` → (the first-named engine, whose win rate is measured; the other)."""


def _mover(name: str, weights: dict | None) -> Callable:
    """A function (``domain.murus.board`` position, rng, budget, clock) → move for the engine called ``name``."""
    if name == "old reference":
        import murus_reference

        return murus_reference.choose
    if name in ("hard", "hard before #32"):
        from domain.ai import murus as ours
        from domain.murus.notation import move_text
        from domain.murus.position import position_json

        def hard(pos, rng, budget, timer):
            moves = ours.generate(pos, False)
            if name == "hard":
                view = {"options": {"variant": "basic", "max_plies": None}, "position": position_json(pos),
                        "status": "playing"}
                text = ours.choose(view, pos[6], "hard", rng, budget, timer)
                return next(m for m in moves if move_text(m) == text)
            search = ours.Search(False, hard=True, clock=timer, deadline=timer() + ours.BUDGET_SHARE * budget)
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
        pos = board.play(pos, rng.choice(board.generate(pos, False)))
    return rng, pos


def play_game(index: int, seed: int, budget: float, clock: str = "wall", opponent: str = "hard",
              weights: dict | None = None, max_plies: int = 200) -> tuple[int | None, int, int]:
    """Game ``index`` of the pairing ``opponent`` (``PAIRINGS``): the first-named engine plays seat
    ``index % 2``. Returns (winning seat or None, that engine's seat, plies)."""
    from burrow.selfplay import CLOCKS
    from domain.murus import board

    timer = CLOCKS[clock]
    first, second = (_mover(name, weights) for name in PAIRINGS[opponent])
    rng, pos = opening(seed, index)
    first_seat = index % 2
    for ply in range(max_plies):
        m1, _, _, t1, _, _, side = pos
        if t1 & GOAL_ROW[side ^ 1] or not board.has_move(pos, False):
            return side ^ 1, first_seat, ply
        move = (first if side == first_seat else second)(pos, rng, budget, timer)
        pos = board.play(pos, move)
    return None, first_seat, max_plies


def _task(args):
    return play_game(*args)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--opponent", choices=tuple(PAIRINGS), default="hard",
                   help="hard: hard against this engine; old: this engine against bench/murus_reference.py; "
                        "self: this engine with --variant weights against itself; classic: hard before #32 "
                        "against this engine")
    p.add_argument("--variant", default="{}", help="self: the variant's weights as JSON, e.g. '{\"threat\": 150}'")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--start", type=int, default=0,
                   help="the first game's index: a long match may run as several shards (--start 0, 50, ...)")
    p.add_argument("--time", type=float, default=0.5, help="seconds a move for both engines")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="budgets in wall or CPU time")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.time = 2, 0.05
    first, second = PAIRINGS[args.opponent]
    weights = json.loads(args.variant)
    harness.header(f"Murus: {first} against {second} at equal time (bench/murus_strong.py)", argv)
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
