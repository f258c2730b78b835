"""Post-game analysis: each seat's winning chance in a position, by the hard engine at a budget, and its best move.

Pure like the rest of ``domain/``: the state, the randomness and the clock come from the caller. Positions are
analysed with everything revealed (finished games only: ``services/reads/analysis.py`` checks):

- **Murus Gallicus**: hard's alpha-beta (``domain.ai.murus_search.Search`` in the basic game,
  ``domain.ai.murus_advanced.Search`` in the advanced one) for the whole budget; its score for the side to move
  becomes a probability by a logistic ``1 / (1 + exp(-(score + MURUS_OFFSET) / MURUS_SCALE))`` (in the advanced
  game ``MURUS_ADVANCED_OFFSET`` and ``MURUS_ADVANCED_SCALE``), whose scales and offsets were fitted by maximum
  likelihood on the outcomes of selfplay positions (``bench/calibrate.py``, ``docs/ai.md``); a proven win or loss
  is 1 or 0.
- **Mouse Guard**: hard's MCTS run on the true hands and deck order (no determinisation: nothing is hidden any
  more); the chance is the mean reward of the most visited move (the search's leaves are its fitted logistic
  model of the winning chance). The placement phase has no search: every seat gets an equal share.
- **Foraging Squirrels**: with two seats the exact solver when it finishes within half the budget (a win is 1, a
  shared win 0.5 each); otherwise hard's max-n tree search, the most visited move's mean win share per seat.
- **Mission commando**: hard's decision from the mover's view for the best move, and the share of games each seat
  wins when every seat follows the rule-of-thumb policy to the end from the true state (the dice still rolled).

A **blunder** is a move whose mover's chance drops by at least ``BLUNDER`` from the position before it (its
value under the engine's best move) to the position after it, when the move played is not the engine's best.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from domain.ai import commando
from domain.ai import mouseguard as mg
from domain.ai import squirrels as sq
from domain.ai.accuracy import BLUNDER  # one threshold for the flag and the class
from domain.base import REVEAL_ALL
from domain.mouseguard.cards import CARDS
from domain.mouseguard.state import board_from_mice
from domain.murus.board import SIDE
from domain.murus.notation import move_text
from domain.murus.position import load_position

MURUS_SCALE = 50.0
MURUS_OFFSET = -10.0
"""Centi-stones per unit of log-odds in Murus' basic game, and centi-stones added to the side to move's score
(``bench/calibrate.py`` fits both; see ``docs/ai.md``)."""
MURUS_ADVANCED_SCALE = 50.0
MURUS_ADVANCED_OFFSET = -10.0
"""The same for the advanced game, whose search and evaluation are its own (``domain/ai/murus_advanced.py``):
``bench/calibrate.py --games murus:advanced --positions 200 --clock cpu --seed 5`` fitted 50 and -10 over 152
unproven positions (Brier 0.130 with the first guess of 100, 0.125 with 50; docs/ai.md)."""

SLOPES = {"mouseguard": 1.6, "commando": 0.75}
"""Per game, the slope ``a`` by which a search's chance ``p`` is stretched: ``sigmoid(a * logit(p))`` (fitted by
``bench/calibrate.py``: a search's mean reward is drawn toward the middle)."""


@dataclass(frozen=True)
class Evaluation:
    """Each seat's winning chance in a position (summing to 1 where the game has one winner) and the engine's
    move there (None when it did not search)."""

    win: tuple[float, ...]
    best: str | None


def evaluate(module: ModuleType, state: Any, seats: int, seat: int, budget: float, rng: random.Random,
             clock: Callable[[], float]) -> Evaluation:
    """The position ``state`` of ``module``'s game of ``seats`` seats, with ``seat`` to move, analysed for
    ``budget`` seconds."""
    game = module.NAME
    if module.status(state) == "finished":
        return Evaluation(final(module, state, seats), None)
    if game == "murus":
        return _murus(module.view(state, REVEAL_ALL), budget, rng, clock)
    if game == "mouseguard":
        return _stretched(game, _mouseguard(module.view(state, REVEAL_ALL), seat, budget, rng, clock))
    if game == "squirrels":
        return _squirrels(module.view(state, REVEAL_ALL), budget, rng, clock)
    if game == "commando":
        return _stretched(game, _commando(module, state, seat, budget, rng, clock))
    return Evaluation(tuple(1 / seats for _ in range(seats)), None)


def _stretched(game: str, evaluation: Evaluation) -> Evaluation:
    """``evaluation`` with each uncertain chance stretched by the game's slope, then normalised to sum 1."""
    slope = SLOPES.get(game, 1.0)
    if slope == 1.0:
        return evaluation
    stretched = [w if w in (0.0, 1.0) else 1 / (1 + math.exp(-slope * math.log(w / (1 - w))))
                 for w in evaluation.win]
    total = sum(stretched) or 1.0
    return Evaluation(tuple(w / total for w in stretched), evaluation.best)


def final(module: ModuleType, state: Any, seats: int) -> tuple[float, ...]:
    """The chances a finished game ends with: a win shared by k winners is 1/k each; nobody won: equal shares."""
    result = module.result(state) or {"winners": []}
    winners = result["winners"]
    if not winners:
        return tuple(1 / seats for _ in range(seats))
    return tuple(1 / len(winners) if s in winners else 0.0 for s in range(seats))


def blunders(plies: list[dict], end: tuple[float, ...] | list[float] | None) -> list[bool]:
    """Per ply (``{"seat", "move", "win", "best"}``, in order; ``win`` None while not analysed): whether its move
    lost at least ``BLUNDER`` of the mover's chance against the best move. ``end``: the chances after the last
    move (the result), or None if unknown."""
    flags = []
    for i, ply in enumerate(plies):
        after = plies[i + 1]["win"] if i + 1 < len(plies) else end
        before, seat = ply["win"], ply["seat"]
        flags.append(bool(before is not None and after is not None and ply["best"] is not None
                          and ply["move"] != ply["best"] and before[seat] - after[seat] >= BLUNDER))
    return flags


# --- Murus -------------------------------------------------------------------------------------------------------

def murus_chance(score: int, advanced: bool = False) -> float:
    """The side to move's winning chance for a search score of the basic or the ``advanced`` game (see
    ``MURUS_SCALE``, ``MURUS_ADVANCED_SCALE``)."""
    from domain.ai.murus import WON  # the engines (below) load compiled code: only where a search runs

    if score > WON:
        return 1.0
    if score < -WON:
        return 0.0
    scale, offset = (MURUS_ADVANCED_SCALE, MURUS_ADVANCED_OFFSET) if advanced else (MURUS_SCALE, MURUS_OFFSET)
    return 1.0 / (1.0 + math.exp(-(score + offset) / scale))


def murus_search(view: dict, budget: float, rng: random.Random,
                 clock: Callable[[], float]) -> tuple[int, str, int]:
    """Hard's search for the whole ``budget``: (score for the side to move, best move, side to move). The Murus
    engines are imported here, not with this module: they load (or compile) numba code, which a web process that
    only reads analyses never needs."""
    from domain.ai import murus_advanced
    from domain.ai import murus_search as murus_fast

    advanced = view["options"]["variant"] == "advanced"
    pos = load_position(view["position"], advanced)
    if not advanced:  # hard's basic-game search
        fast = murus_fast.Search(clock, clock() + budget)
        code = fast.best_move(murus_fast.compact(pos), rng)
        return fast.score, move_text(murus_fast.to_move(code)), pos[SIDE]
    compiled = murus_advanced.Search(clock, clock() + budget)  # hard's advanced-game search
    code = compiled.best_move(pos, rng)
    return compiled.score, move_text(murus_advanced.to_move(code)), pos[SIDE]


def _murus(view: dict, budget: float, rng: random.Random, clock: Callable[[], float]) -> Evaluation:
    score, best, side = murus_search(view, budget, rng, clock)
    chance = murus_chance(score, view["options"]["variant"] == "advanced")
    return Evaluation((chance, 1.0 - chance) if side == 0 else (1.0 - chance, chance), best)


# --- Mouse Guard -------------------------------------------------------------------------------------------------

def _mouseguard(view: dict, seat: int, budget: float, rng: random.Random,
                clock: Callable[[], float]) -> Evaluation:
    deadline = clock() + budget
    black = view["seats"]["black"]
    if view["phase"] != "playing":  # the secret placements: nothing to search
        return Evaluation((0.5, 0.5), None)
    me = 0 if seat == black else 1
    game = mg.GameRules(view["options"])
    hands = [[0, 0, 0], [0, 0, 0]]
    for colour, name in enumerate(("black", "white")):
        for card in view["hands"][name]:
            hands[colour][CARDS.index(card)] += 1
    deck = [CARDS.index(card) for card in reversed(view["deck"])]  # the state's deck is top first, Sim's top last
    root = mg.Sim(board_from_mice(view["mice"]), hands, deck, [CARDS.index(c) for c in view["discard"]],
                  [view["captured"]["black"], view["captured"]["white"]], me, view["plies"])
    tree = mg.Node(1 - me)
    tree.expand_moves(game, root, ordered=True)
    winning = [m[mg.TEXT] for m in mg.available(root, tree.moves, tree.rescue_spots) if m[mg.WON]]
    if winning:
        chance, best = 1.0, winning[0]
    else:
        best, _ = mg._ismcts(game, tree, root, me, None, [], True, rng, deadline, clock)
        child = tree.children.get(best) if best else None
        chance = child.reward / child.visits if child and child.visits else 0.5
    win = [0.0, 0.0]
    win[black], win[1 - black] = (chance, 1.0 - chance) if me == 0 else (1.0 - chance, chance)
    return Evaluation(tuple(win), best)


# --- Foraging Squirrels ------------------------------------------------------------------------------------------

def _squirrels(view: dict, budget: float, rng: random.Random, clock: Callable[[], float]) -> Evaluation:
    start = clock()
    rules, sim = sq.rebuild(view)
    mover, seats = sim.turn, rules.seats
    if seats == 2:
        try:
            value, action = sq.Solver(rules, clock, start + budget / 2).best(sim)
        except sq.Unsolved:
            pass
        else:
            chance = (1.0 + value) / 2  # win 1, shared 0.5, loss 0
            win = [0.0, 0.0]
            win[mover], win[1 - mover] = chance, 1.0 - chance
            return Evaluation(tuple(win), sq.notation(action))
    root, _ = sq.grow(rules, sim, rng, budget - (clock() - start), clock, greedy=sq.GREEDY[seats])
    if not root.children:  # one action only (or no time): its outcome by playouts
        totals = [0.0] * seats
        runs = 0
        while runs < 8 or clock() - start < budget:
            trial = sim.copy()
            rules.play(trial, root.actions[0])
            reward = rules.reward(trial) if trial.over else sq.playout(rules, trial, rng, sq.GREEDY[seats], True)
            totals = [t + r for t, r in zip(totals, reward)]
            runs += 1
        means, best = [t / runs for t in totals], root.actions[0]
    else:
        i = sq.most_visited(root)
        child = root.children[i]
        means, best = [t / child.visits for t in child.totals], root.actions[i]
    shares = [min(1.0, max(0.0, m)) for m in means]  # the reward's margin term moves it slightly off [0, 1]
    total = sum(shares) or 1.0
    return Evaluation(tuple(s / total for s in shares), sq.notation(best))


# --- Mission commando --------------------------------------------------------------------------------------------

def _commando(module: ModuleType, state: Any, seat: int, budget: float, rng: random.Random,
              clock: Callable[[], float]) -> Evaluation:
    start = clock()
    best = commando.choose(module.view(state, seat), seat, "hard", rng, budget / 2, clock)
    seats = state.seats
    wins = [0.0] * seats
    games = 0
    while games < 4 or clock() - start < budget:
        end = commando.playout(state, 10_000, rng)
        winners = end.winners or tuple(range(seats))
        for s in winners:
            wins[s] += 1 / len(winners)
        games += 1
    return Evaluation(tuple(w / games for w in wins), best)
