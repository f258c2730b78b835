"""What decides Foraging Squirrels with three or four seats, and how far a stronger player could go (issue #17).

    python bench/squirrels_seats.py --ai hard,normal,normal [--games 60] [--time 0.1] [--seed 11] [--quick]

Plays ``--games`` games, seats rotated every game as ``burrow selfplay`` does (same seeds: game i is dealt by
``seed * 100003 + i``), each player thinking ``--time`` seconds of this process's CPU time (hard twice that), and
prints the first player's win share (a win shared by k counts 1/k) with its 95% Wilson interval, the share of
every level by turn order (0 = the first player), how many games end in a shared win, the winning margins and
which turns use the dig. Players are levels (``easy``, ``normal``, ``hard``), a level with a factor on its time
(``hard*10``: ten times hard's time), or one of two ceilings, which no real player could be:

* ``oracle``: knows how the others play, because it *is* them: for each of its actions it plays the game out once
  with ``normal``'s own search (same time) at every turn, its own included, and with exact max-n (every seat
  maximising its own reward, ``Simulator.reward``) once at most ``EXACT_CARDS`` food cards are left — where
  ``normal`` plays the max-n move in nine positions of ten — and takes the action that did best; from
  ``EXACT_CARDS`` cards it plays max-n itself. Its time is not limited.
* ``grabbers``: knows that every other seat grabs (``easy``) and plays the exact expectimax against that from the
  deal (``domain.ai.squirrels.grabbers``), without a time limit.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import domain.squirrels as game
from burrow.selfplay import wilson
from domain.ai import budget_for
from domain.ai import squirrels as ai
from domain.ai.squirrels import mcts
from domain.base import Setup

EXACT_CARDS = 11


class MaxN:
    """Exact max-n to the end: every seat picks the action best for its own reward (first of equals)."""

    def __init__(self, rules):
        self.rules, self.table = rules, {}

    def best(self, sim):
        best_value, best_action = None, None
        for action in self.rules.actions(sim):
            child = sim.copy()
            self.rules.play(child, action)
            value = tuple(self.rules.reward(child)) if child.over else self.value(child)
            if best_value is None or value[sim.turn] > best_value[sim.turn]:
                best_value, best_action = value, action
        return best_value, best_action

    def value(self, sim):
        key = self.rules.key(sim)
        if key not in self.table:
            self.table[key] = self.best(sim)[0]
        return self.table[key]


def _cards(sim) -> int:
    return sum(card >= 0 for card in sim.grid)


def _normal(rules, sim, rng, seconds):
    """``normal``'s move at ``sim``, as ``choose`` searches it."""
    actions = rules.actions(sim)
    return actions[0] if len(actions) == 1 else mcts.search(rules, sim, rng, seconds * 0.85, time.process_time,
                                                            0.0)[0]


def oracle(view, seat, rng, seconds):
    rules, sim = ai.rebuild(view)
    if _cards(sim) <= EXACT_CARDS:
        return ai.notation(MaxN(rules).best(sim)[1])
    best, choice = None, None
    for action in rules.actions(sim):
        trial = sim.copy()
        rules.play(trial, action)
        while not trial.over and _cards(trial) > EXACT_CARDS:
            rules.play(trial, _normal(rules, trial, rng, seconds))
        value = (rules.reward(trial) if trial.over else MaxN(rules).value(trial))[seat]
        if best is None or value > best:
            best, choice = value, action
    return ai.notation(choice)


def grabbers(view, seat, rng, seconds):
    rules, sim = ai.rebuild(view)
    return ai.notation(ai.Grabbers(rules, seat, time.process_time, float("inf")).best(sim)[0])


CEILINGS = {"oracle": oracle, "grabbers": grabbers}


def player(spec: str):
    """A function (view, seat, rng, seconds, history) -> command for ``spec`` (see the module's docstring)."""
    name, _, factor = spec.partition("*")
    if name in CEILINGS:
        return lambda view, seat, rng, seconds, history: CEILINGS[name](view, seat, rng, seconds)
    scale = float(factor or 1)
    return lambda view, seat, rng, seconds, history: ai.choose(
        view, seat, name, rng, budget_for(name, seconds) * scale, time.process_time, history=history)


def play(specs: list[str], seed: int, seconds: float) -> dict:
    rng = random.Random(seed)
    players = [player(spec) for spec in specs]
    state, states = None, []
    for event in game.initial(Setup(seats=len(specs), options={}), rng):
        state = game.evolve(state, event)
        states.append(state)
    seen, moves = [[] for _ in specs], []
    while game.status(state) != "finished":
        seat = state.turn
        seen[seat].extend(game.view(s, seat) for s in states[len(seen[seat]):])
        move = players[seat](seen[seat][-1], seat, rng, seconds, seen[seat])
        moves.append((seat, move))
        for event in game.decide(state, seat, game.parse(move), rng):
            state = game.evolve(state, event)
            states.append(state)
    view = game.view(state, 0)
    return {"specs": specs, "first": view["first"], "winners": view["result"]["winners"],
            "points": [row["points"] for row in view["scores"]], "moves": moves}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ai", required=True, help="players by seat; the first is the one measured")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--time", type=float, default=0.1, help="seconds of CPU a move (hard: twice)")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--quick", action="store_true", help="a smoke run: 3 games at 0.02 s")
    args = p.parse_args()
    specs = args.ai.split(",")
    games, seconds = (3, 0.02) if args.quick else (args.games, args.time)
    seats = len(specs)
    share, shared, by_turn, at_turn = 0.0, 0, collections.Counter(), collections.Counter()
    margins, digs = collections.Counter(), collections.Counter()
    for i in range(games):
        shift = i % seats
        rotated = specs[shift:] + specs[:shift]
        record = play(rotated, args.seed * 100_003 + i, seconds)
        me, winners = (seats - shift) % seats, record["winners"]
        share += (me in winners) / len(winners)
        shared += len(winners) > 1
        for seat, spec in enumerate(rotated):
            turn = (seat - record["first"]) % seats
            at_turn[spec, turn] += 1
            by_turn[spec, turn] += (seat in winners) / len(winners)
        top = sorted(record["points"], reverse=True)
        margins[top[0] - top[1]] += 1
        mine = 0
        for seat, move in record["moves"]:
            if seat == me:
                mine += 1
                if "dig" in move:
                    digs[mine] += 1
        print(f"{i + 1}/{games}: {specs[0]} {share:g}", file=sys.stderr)
    lo, hi = wilson(share, games)
    print(f"| players | games | {specs[0]} win share (95% CI) | by turn order | shared wins | margins "
          "| digs by turn |")
    print("|---|---|---|---|---|---|---|")
    turns = "; ".join(f"{spec} " + " ".join(f"{by_turn[spec, t]:.1f}/{at_turn[spec, t]}" for t in range(seats))
                      for spec in dict.fromkeys(specs))
    print(f"| {args.ai} | {games} | {share / games:.0%} ({lo:.0%}–{hi:.0%}) | {turns} | {shared} | "
          f"{dict(sorted(margins.items()))} | {dict(sorted(digs.items()))} |")


if __name__ == "__main__":
    main()
