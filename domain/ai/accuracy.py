"""How well each player played a game: a class per move and an accuracy per player, from the winning chances.

The input is an analysis's plies in order (``{"seat", "move", "win", "best"}``: ``win`` each seat's chance in the
position before the move, by the engine, ``best`` its move there) and the chances after the last move (the
result). A move's **loss** is its mover's chance before it (the value of the engine's best move) minus the
mover's chance after it, never below 0; a move that is the engine's best loses nothing (the two estimates come
from different searches: their noise is no mistake of the player's).

**Classes** (on the mover's chance, 0..1; lichess uses 0.05 / 0.1 / 0.15 on the same scale, ours keeps the
blunder of ``domain.ai.analysis.BLUNDER``):

- ``inaccuracy``: a loss of at least ``INACCURACY`` (0.05);
- ``mistake``: at least ``MISTAKE`` (0.1);
- ``blunder``: at least ``BLUNDER`` (0.2).

**Accuracy** (0..100), lichess's (lila ``AccuracyPercent.scala``), with chances in percent:

- per move: ``103.1668 * exp(-0.04354 * loss%) - 3.1669 + 1`` clipped to 0..100 (the ``+ 1`` is lila's bonus for
  an imperfect engine; a loss of 0 is 100);
- per player: the mean of (a) the mean of their moves' accuracies weighted by the volatility around each move
  and (b) the harmonic mean of their moves' accuracies (each taken as at least 1, so one lost-everything move
  does not make it 0). The volatility of a move is the standard deviation (population) of the mover's chance
  over a window of ``clamp(moves / 10, 2, 8)`` positions around it (lila's windows: the first windows repeat
  the opening one), clipped to 0.5..12 percentage points. A seat that made no move has accuracy None.

Where lila follows white's chance only (two players), each move here follows its own mover's chance, so the same
formula serves games of three or more seats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

INACCURACY = 0.05
MISTAKE = 0.1
BLUNDER = 0.2
"""A move losing at least this much of its mover's chance (0..1) is an inaccuracy, a mistake, a blunder."""

WINDOW_MIN, WINDOW_MAX = 2, 8
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0
HARMONIC_FLOOR = 1.0


def losses(plies: Sequence[dict], end: Sequence[float] | None) -> list[float | None]:
    """Per ply, the mover's chance (0..1) lost by its move; None while the position after it is not analysed."""
    found: list[float | None] = []
    for i, ply in enumerate(plies):
        after = plies[i + 1]["win"] if i + 1 < len(plies) else end
        before = ply["win"]
        if before is None or after is None:
            found.append(None)
        elif ply["best"] is None or ply["move"] == ply["best"]:
            found.append(0.0)
        else:
            found.append(max(0.0, before[ply["seat"]] - after[ply["seat"]]))
    return found


def classify(loss: float | None, best: str | None = "", move: str | None = None) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None for a move that lost ``loss`` of its chance."""
    if loss is None or best is None or move == best:
        return None
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(loss: float) -> float:
    """A move's accuracy (0..100) for a loss (0..1) of its mover's chance."""
    if loss <= 0:
        return 100.0
    raw = 103.1668 * math.exp(-0.04354 * loss * 100) - 3.1669 + 1
    return max(0.0, min(100.0, raw))


def _pstdev(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def players(plies: Sequence[dict], end: Sequence[float] | None, seats: int) -> list[dict]:
    """Per seat: ``{"seat", "accuracy", "inaccuracies", "mistakes", "blunders"}`` over the plies analysed (a ply
    whose following position is not analysed yet counts for nothing)."""
    lost = losses(plies, end)
    count = len(plies)
    window = max(WINDOW_MIN, min(WINDOW_MAX, count // 10))
    by_seat: dict[int, list[tuple[float, float]]] = {s: [] for s in range(seats)}
    counts = {s: {"inaccuracy": 0, "mistake": 0, "blunder": 0} for s in range(seats)}
    for i, (ply, loss) in enumerate(zip(plies, lost)):
        if loss is None:
            continue
        seat = ply["seat"]
        kind = classify(loss, ply["best"], ply["move"])
        if kind:
            counts[seat][kind] += 1
        # The positions 0..count (after the last move: the result), as the mover's chance; lila's windows.
        start = max(0, i - (window - 2))
        series = []
        for j in range(start, min(start + window, count + 1)):
            chances = plies[j]["win"] if j < count else end
            if chances is not None:
                series.append(chances[seat] * 100)
        weight = max(WEIGHT_MIN, min(WEIGHT_MAX, _pstdev(series))) if series else WEIGHT_MIN
        by_seat[seat].append((move_accuracy(loss), weight))
    answer = []
    for seat in range(seats):
        moves = by_seat[seat]
        accuracy = None
        if moves:
            weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
            harmonic = len(moves) / sum(1 / max(HARMONIC_FLOOR, a) for a, _ in moves)
            accuracy = round((weighted + harmonic) / 2, 1)
        answer.append({"seat": seat, "accuracy": accuracy, "inaccuracies": counts[seat]["inaccuracy"],
                       "mistakes": counts[seat]["mistake"], "blunders": counts[seat]["blunder"]})
    return answer
