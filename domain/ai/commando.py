"""AI for Mission commando: greedy (easy) and determinised Monte Carlo search (normal, hard).

The seat's view is the only input. The search rebuilds a game state from it and, at every sample, draws what
the seat cannot know: the order of the caution deck (its contents are public: the ten cards minus the discard
pile) and the weapons an opponent has already committed in secret (uniform over what it holds). Dice come from
the rng inside the simulation, as the real game rolls them.

- easy: greedy — each legal command is played a few times up to the next decision and the outcome judged by a
  race evaluation (distance to the base with the teleport shortcut, banknotes, weapons, accessories, maps).
- normal: paired Monte Carlo — each sample plays every legal command under the same luck, then every seat
  follows a rule-of-thumb ``policy`` for one round before the evaluation judges. The policy's own command is
  kept unless another beats it by more than one standard error of the paired difference.
- hard: the same with three-round playouts and a stricter test (1.5 standard errors), so buying, fights and
  challenges show their worth and chance rarely talks the search into a worse command.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import msgspec

from domain.commando import rules
from domain.commando.notation import parse
from domain.commando.state import Agent, Fight, State, board_from_option, evolve, full_deck_minus

ROUNDS = {"normal": 1, "hard": 3}
"""Playout length in rounds (one turn per seat) before the evaluation judges the race."""

GREEDY_SAMPLES = 4
"""Paired samples per command for the greedy (easy) level."""

CONFIDENCE = {"normal": 1.0, "hard": 1.5}
"""Standard errors by which a command must beat the policy's to replace it."""

MIN_SAMPLES = 8
"""Below this many samples the standard error is itself too uncertain: the policy's command stands."""

SAFETY = 0.9
"""Share of the budget the search may use: the answer must come before the budget runs out."""

MONEY_CAP = 8
"""Banknotes beyond this add nothing to the evaluation (there is little left to buy)."""

TELEPORT_WITH_MAP, TELEPORT_BY_DICE = 0.9, 0.3
"""Chance to land on a teleport entry still ahead, holding a map or by the dice alone (the evaluation's guess)."""

MAP_VALUE = 1.5
"""A map's worth in squares once no teleport is ahead (an exact landing on the base or a good square)."""


# Rebuilding a game from the view -----------------------------------------------------------------------------

def _base_state(view: dict[str, Any]) -> State:
    """The public part of the game as a state (deck empty and secret commitments blank until sampled)."""
    options = dict(view["options"])
    agents = tuple(Agent(square=a["square"], money=a["money"], weapons=a["weapons"],
                         accessories=a["accessories"], maps=a["maps"], skip=a["skip"]) for a in view["agents"])
    fight = None
    if view["fight"] is not None:
        f = view["fight"]
        fight = Fight(kind=f["kind"], attacker=f["attacker"], defender=f["defender"], square=f["square"],
                      then=f["then"], commits=(f["commits"]["attacker"], f["commits"]["defender"]),
                      revealed=f["revealed"], dice=tuple(f["dice"]), winner=f["winner"])
    caution = view["caution"]
    return State(board=board_from_option(options["board"]), options=options, agents=agents, turn=view["turn"],
                 phase=view["phase"], discard=tuple(caution["discard"]), card=caution["card"], fight=fight,
                 steps_left=view["wall"]["steps_left"], wall_moved=view["wall"]["moved"],
                 bought=tuple(view["bought"]), challenged=view["challenged"], last_die=view["last_die"],
                 turns=view["turns"])


def _unknown_cards(view: dict[str, Any]) -> list[str]:
    """The cards of the draw pile (public as a set, secret as an order)."""
    caution = view["caution"]
    return full_deck_minus([*caution["discard"], *([caution["card"]] if caution["card"] else [])])


def determinise(base: State, view: dict[str, Any], rng: random.Random) -> State:
    """One complete state consistent with the view: a deck order and the opponents' secret commitments."""
    deck = _unknown_cards(view)
    rng.shuffle(deck)
    fight = base.fight
    if fight is not None and not fight.revealed:
        committed = view["fight"]["committed"]
        commits = list(fight.commits)
        for i, seat in enumerate((fight.attacker, fight.defender)):
            if commits[i] is None and seat in committed:
                commits[i] = rng.randint(0, base.agents[seat].weapons)
        fight = msgspec.structs.replace(fight, commits=(commits[0], commits[1]))
    return msgspec.structs.replace(base, deck=tuple(deck), fight=fight)


# The rule-of-thumb policy (the search's default, and every seat inside the playouts) ---------------------------

def _walk(state: State, square: int, steps: int) -> int:
    following = state.board.following
    for _ in range(steps):
        square = following[square]
    return square


def _weapons_at_stake(state: State) -> int:
    """How many weapons a fight deserves: more when the loser is sent far back or a swap moves far."""
    fight = state.fight
    assert fight is not None
    board, agents = state.board, state.agents
    to_base = board.to_base
    setback = to_base[board.green_entry(fight.square)] - to_base[fight.square]
    if fight.kind == "challenge":
        apart = to_base[agents[fight.attacker].square] - to_base[agents[fight.defender].square]
        setback = max(setback, abs(apart))
    return 0 if setback < 4 else 1 if setback < 8 else 2


COMMIT_CHOICES = 8
"""Commitments the AI weighs: 0 to 7 weapons, and all it holds (a die gives 0 to 5: a few weapons decide a fight,
and a seat may hold any number)."""


def candidates(state: State, seat: int) -> list[str]:
    """The commands the AI weighs: ``legal``, its ``commit 0..N`` cut to ``COMMIT_CHOICES`` counts and N."""
    out = []
    for entry in rules.legal(state, seat):
        if entry.startswith("commit "):
            held = state.agents[seat].weapons
            out += [f"commit {n}" for n in sorted({*range(min(held, COMMIT_CHOICES - 1) + 1), held})]
        else:
            out.append(entry)
    return out


def policy(state: State, seat: int, rng: random.Random) -> str:
    """A quick sensible command for ``seat`` (only public facts and its own commitment are used)."""
    legal = candidates(state, seat)
    if len(legal) == 1:
        return legal[0]
    board, agent, phase = state.board, state.agents[seat], state.phase
    to_base = board.to_base
    if phase == "turn":
        for steps in range(5, 0, -1):
            target = _walk(state, agent.square, steps)
            if f"map {steps}" in legal and (target == board.base or target in board.teleports):
                return f"map {steps}"
        return "roll"
    if phase == "wall":
        return "pay"
    if phase == "commit":
        stake = min(agent.weapons, _weapons_at_stake(state))
        return f"commit {rng.randint(max(stake - 1, 0), stake)}"  # a little unpredictable
    if phase == "challenge":
        targets = [int(text.split()[1]) for text in legal if text.startswith("challenge ")]
        ahead = [t for t in targets if to_base[state.agents[t].square] + 3 <= to_base[agent.square]
                 and state.agents[t].weapons <= agent.weapons + 1]
        if ahead:
            return f"challenge {min(ahead, key=lambda t: to_base[state.agents[t].square])}"
        return "no challenge"
    if phase == "choice":
        fight = state.fight
        assert fight is not None and fight.loser is not None
        return "swap" if to_base[state.agents[fight.loser].square] < to_base[agent.square] else "stay"
    if phase == "fine":
        setback = to_base[board.green_entry(agent.square)] - to_base[agent.square]
        return "pay" if setback >= 3 else "retreat"
    if phase == "caution":
        return "accept" if state.card == "trap" else "use accessory"
    if phase == "shop":
        if "buy weapon" in legal and agent.weapons < 3:
            return "buy weapon"
        if "buy accessory" in legal and agent.accessories < 2:
            return "buy accessory"
        return "done"
    return rng.choice(legal)


# Search ------------------------------------------------------------------------------------------------------

def _play(state: State, seat: int, text: str, rng: random.Random) -> State:
    for event in rules.decide(state, seat, parse(text), rng):
        state = evolve(state, event)
    return state


def _score(state: State, seat: int) -> float:
    """How well an agent stands in the race, in squares (a teleport still ahead counts as a likely shortcut)."""
    agent, board = state.agents[seat], state.board
    to_base = board.to_base
    distance = to_base[agent.square]
    shortcut = 0.0
    for entry, exit_ in board.teleports.items():
        saving = to_base[entry] - to_base[exit_]
        if distance > to_base[entry] and saving > 0:
            # a map makes landing on the entry almost sure; dice alone about one time in three
            shortcut = max(shortcut, saving * (TELEPORT_WITH_MAP if agent.maps else TELEPORT_BY_DICE))
    map_value = 0.0 if shortcut and agent.maps else MAP_VALUE * agent.maps
    return (-distance + shortcut + 0.5 * min(agent.money, MONEY_CAP) + 2.0 * agent.weapons
            + 1.0 * agent.accessories + map_value - 2.5 * agent.skip)


def evaluate(state: State, seat: int) -> float:
    """The seat's reward in [0, 1]: the result when finished, else its lead over the best opponent."""
    if state.winners is not None:
        if not state.winners:
            return 1 / state.seats
        return 1.0 if seat in state.winners else 0.0
    mine = _score(state, seat)
    best_other = max(_score(state, other) for other in range(state.seats) if other != seat)
    return 1 / (1 + math.exp(-(mine - best_other) / 6))


def playout(state: State, rounds: int, rng: random.Random) -> State:
    """Every seat follows ``policy`` for ``rounds`` rounds or to the end of the game."""
    stop = state.turns + rounds * state.seats
    while state.phase != "finished" and state.turns < stop:
        acting = rules.to_act(state)
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        state = _play(state, seat, policy(state, seat, rng), rng)
    return state


def _greedy(view: dict[str, Any], seat: int, legal: list[str], base: State, rng: random.Random) -> str:
    """The command whose immediate outcome (up to the next decision) evaluates best, over a few paired samples."""
    seeds = [rng.getrandbits(64) for _ in range(GREEDY_SAMPLES)]
    scores = []
    for text in legal:
        total = 0.0
        for seed in seeds:
            luck = random.Random(seed)
            total += evaluate(_play(determinise(base, view, luck), seat, text, luck), seat)
        scores.append(total + rng.random() * 1e-9)  # ties broken at random
    return legal[max(range(len(legal)), key=scores.__getitem__)]


def _search(view: dict[str, Any], seat: int, level: str, legal: list[str], base: State, rng: random.Random,
            budget: float, clock: Callable[[], float]) -> str:
    """The policy's command, unless another one beats it clearly over paired samples.

    Every sample plays each command under the same luck (deck order, secret commitments, dice), so two commands
    are compared by their paired difference; a command replaces the policy's only when its mean gain exceeds
    ``CONFIDENCE`` standard errors (with a few samples among many commands, chance alone would pick a bad one).
    """
    default = legal.index(policy(base, seat, random.Random(rng.getrandbits(64))))
    start = clock()
    gain = [0.0] * len(legal)
    gain_squares = [0.0] * len(legal)
    samples = 0
    per_sample = 0.0
    # a sample is started only if it should end within the budget, judged by the mean time of those before
    while clock() - start + per_sample < budget * SAFETY:
        seed = rng.getrandbits(64)
        rewards = []
        for text in legal:
            luck = random.Random(seed)
            state = _play(determinise(base, view, luck), seat, text, luck)
            rewards.append(evaluate(playout(state, ROUNDS[level], luck), seat))
        for i, reward in enumerate(rewards):
            diff = reward - rewards[default]
            gain[i] += diff
            gain_squares[i] += diff * diff
        samples += 1
        per_sample = (clock() - start) / samples
    best = max(range(len(legal)), key=lambda i: gain[i])
    if samples < MIN_SAMPLES or best == default:
        return legal[default]
    mean = gain[best] / samples
    variance = max(gain_squares[best] / samples - mean * mean, 0.0) / (samples - 1)
    return legal[best] if mean > CONFIDENCE[level] * math.sqrt(variance) else legal[default]


def choose(view: dict[str, Any], seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float]) -> str:
    """The command the ``level`` AI sends for ``seat`` from that seat's ``view``."""
    if seat not in view["to_act"]:
        raise ValueError(f"seat {seat} has nothing to decide now")
    base = _base_state(view)
    legal = candidates(base, seat)
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return _greedy(view, seat, legal, base, rng)
    return _search(view, seat, level, legal, base, rng, budget, clock)
