"""AI against AI over the pure deciders: the engine of ``burrow selfplay`` and of strength measurements."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from domain import ai
from domain.base import Setup
from domain.registry import game_module


@dataclass
class GameRecord:
    levels: list[str]
    winners: list[int]
    plies: int
    reason: str
    think: list[tuple[str, float]] = field(default_factory=list)  # (level, seconds) per AI decision


MAX_PLIES = 2000  # a game still running then is stopped and counted as no one's win
CLOCKS = {"wall": time.monotonic, "cpu": time.process_time}
"""What an AI's budget is measured in: wall time (as a server plays) or this process's CPU time (a match on a
busy machine: every search gets the same work done whatever else runs)."""


def play_one(game: str, levels: list[str], seed: int, budget: float, options: dict | None = None,
             max_plies: int = MAX_PLIES, clock: str = "wall") -> GameRecord:
    """One AI-vs-AI game; seat i is played by ``levels[i]``, thinking ``budget`` seconds of ``clock``."""
    module = game_module(game)
    rng = random.Random(seed)
    reads = ai.reads_history(game)
    state, states = None, []  # states: the game at every version, for an AI that reads the history
    for event in module.initial(Setup(seats=len(levels), options=options or {}), rng):
        state = module.evolve(state, event)
        if reads:
            states.append(state)
    plies, think, timer = 0, [], CLOCKS[clock]
    history = [[] for _ in levels] if reads else None  # per seat: its views so far
    while module.status(state) != "finished" and plies < max_plies:
        seat = module.to_act(state)[0]
        level = levels[seat]
        seen = None
        if history is not None:
            seen = history[seat]
            seen.extend(module.view(s, seat) for s in states[len(seen):])
        view = seen[-1] if seen else module.view(state, seat)  # the history ends with the view of now
        started = timer()
        move = ai.choose(game, view, seat, level, rng, ai.budget_for(level, budget), timer, history=seen)
        think.append((level, timer() - started))
        for event in module.decide(state, seat, module.parse(move), rng):
            state = module.evolve(state, event)
            if reads:
                states.append(state)
        plies += 1
    result = module.result(state) or {"winners": [], "reason": f"stopped after {plies} plies"}
    return GameRecord(list(levels), list(result["winners"]), plies, result["reason"], think)


def _task(args):
    return play_one(*args)


def run_match(game: str, levels: list[str], games: int, seed: int, budget: float, jobs: int = 1,
              options: dict | None = None, progress=None, clock: str = "wall") -> list[GameRecord]:
    """``games`` games, seats rotated each game so every level plays every seat equally."""
    tasks = []
    for i in range(games):
        shift = i % len(levels)
        rotated = levels[shift:] + levels[:shift]
        tasks.append((game, rotated, seed * 100_003 + i, budget, options, MAX_PLIES, clock))
    records: list[GameRecord] = []
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            for record in pool.map(_task, tasks):
                records.append(record)
                if progress:
                    progress(len(records))
    else:
        for task in tasks:
            records.append(_task(task))
            if progress:
                progress(len(records))
    return records


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(records: list[GameRecord], levels: list[str]) -> list[list[str]]:
    """Rows of the results table, one per level: games, wins (a win shared by k winners counts 1/k), wins by seat
    (wins/games the level played at that seat; seats rotate every game), shared wins, draws (games nobody won),
    win rate with its 95% Wilson interval, mean game length in plies, mean and 95th-percentile think time."""
    n = len(records)
    rows = [["level", "games", "wins", "wins by seat", "shared", "draws", "win rate (95% CI)", "mean plies",
             "mean think", "p95 think"]]
    for level in dict.fromkeys(levels):
        wins, draws, shared, by_seat, at_seat = 0.0, 0, 0, {}, {}
        for r in records:
            seats = [i for i, lv in enumerate(r.levels) if lv == level]
            for s in seats:
                at_seat[s] = at_seat.get(s, 0) + 1
            won = [s for s in seats if s in r.winners]
            if not r.winners:
                draws += 1
            elif won:
                wins += len(won) / len(r.winners)  # a shared win counts shared
                shared += len(r.winners) > len(won)
                for s in won:
                    by_seat[s] = by_seat.get(s, 0) + 1
        think = sorted(t for r in records for lv, t in r.think if lv == level)
        lo, hi = wilson(wins, n)
        rows.append([level, str(n), f"{wins:g}",
                     " ".join(f"s{s}:{by_seat.get(s, 0)}/{g}" for s, g in sorted(at_seat.items())) or "-",
                     str(shared), str(draws), f"{wins / n:.0%} ({lo:.0%}–{hi:.0%})" if n else "-",
                     f"{sum(r.plies for r in records) / n:.1f}" if n else "-",
                     f"{sum(think) / len(think) * 1000:.0f} ms" if think else "-",
                     f"{think[min(len(think) - 1, int(0.95 * len(think)))] * 1000:.0f} ms" if think else "-"])
    return rows


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
