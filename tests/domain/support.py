"""What the conformance suite (``test_conformance.py``) needs to know of each game beyond its decider.

A game without an entry here gets ``Support()``: no hidden information, the notation's own near misses as
candidates, no invariants of its own. Each entry may give: the ``max_plies`` values random play uses (bounded games
end; ``None`` lets a game end by its rules alone), near-miss ``candidates`` for the legal-equals-decide check,
``check`` (the game's invariants, after every command) and, for a game with secrets, ``secret_pair``: two event
histories that differ only in what ``viewers`` may not know.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from domain import commando, murus
from domain import mouseguard as mg
from domain.base import Event, Setup, commands
from domain.commando.constants import FULL_DECK
from domain.commando.notation import NUMBERED, WORDS
from domain.mouseguard.board import CORNERS, N_POINTS, NAMES, NEIGHBOURS, SQUARES_AROUND
from domain.squirrels.board import CELLS as SQUIRREL_CELLS
from domain.squirrels.board import COLORS, DIRECTIONS, SQUIRREL

SecretPair = tuple[list[Event], list[Event], list[int | None]]


@dataclass(frozen=True)
class Support:
    public: bool = True
    """Nothing is hidden: every viewer gets the same view and ``redact`` changes no event."""
    max_plies: tuple[int | None, ...] = (None,)
    steps: int = 3000
    candidates: Callable[[Any, int, random.Random], Iterable[str]] | None = None
    check: Callable[[Any], None] | None = None
    secret_pair: Callable[[random.Random], SecretPair | None] | None = None
    positionable: Callable[[Any], bool] = lambda state: True
    """States whose position JSON describes them whole (a game mid-fight has no position)."""


def fold(module, events, state=None):
    for event in events:
        state = module.evolve(state, event)
    return state


# Murus -------------------------------------------------------------------------------------------------------

MURUS_CELLS = [f"{c}{r}" for r in range(1, 8) for c in "abcdefgh"]


def murus_candidates(state, seat: int, rng: random.Random) -> list[str]:
    """Random well-formed commands, most of them from one of the mover's own stacks."""
    own = [cell for cell, stack in murus.dump_position(state)["cells"].items() if stack[0] == "RG"[seat]]
    texts = []
    for _ in range(30):
        frm = rng.choice(own) if own and rng.random() < 0.8 else rng.choice(MURUS_CELLS)
        texts.append(f"{frm}{rng.choice(['-', 'x', 'xx', '*'])}{rng.choice(MURUS_CELLS)}")
    return texts


# Mouse Guard -------------------------------------------------------------------------------------------------

def mouseguard_candidates(state, seat: int, rng: random.Random) -> set[str]:
    """A superset of the legal commands, rich in near misses."""
    colour = state.colour_of(seat)
    own = [loc for loc, cell in enumerate(state.board) if cell == colour]
    enemy = [loc for loc, cell in enumerate(state.board) if cell == 1 - colour]
    texts = {f"pass {card}" for card in ("sword", "stronghold", "diplomacy")}
    texts |= {f"rescue {NAMES[p]}" for p in range(N_POINTS)}
    for frm in [loc for loc in own if loc < N_POINTS] + [loc for loc in enemy if loc < N_POINTS][:1]:
        for to in NEIGHBOURS[frm]:
            if to < 0:
                continue
            step = f"{NAMES[frm]}-{NAMES[to]}"
            texts.add(step)
            texts |= {f"{step} rescue {NAMES[p]}" for p in rng.sample(range(N_POINTS), 4)}  # MG-18's option
            for a in NEIGHBOURS[to]:
                texts |= {f"{step} sword {NAMES[a]} {NAMES[b]}" for b in NEIGHBOURS[a] if a >= 0 and b >= 0}
            texts |= {f"{step} stronghold {NAMES[s]}" for s in SQUARES_AROUND[to] + SQUARES_AROUND[frm]}
            for target in enemy + own[:1]:
                if target < N_POINTS:
                    texts.add(f"{step} diplomacy {NAMES[target]}")
                else:
                    texts |= {f"{step} diplomacy {NAMES[target]} {NAMES[c]}" for c in CORNERS[target - N_POINTS]}
    for square in [loc for loc in own + enemy if loc >= N_POINTS]:
        for corner in CORNERS[square - N_POINTS]:
            texts.add(f"exit {NAMES[square]} {NAMES[corner]}")
            texts |= {f"exit {NAMES[square]} {NAMES[corner]} {NAMES[s]}" for s in NEIGHBOURS[corner] if s >= 0}
    if state.phase == "setup":
        texts |= {f"place {' '.join(rng.sample(NAMES[:N_POINTS], 4))}" for _ in range(10)}
    return texts


def mouseguard_check(state) -> None:
    """Thirty cards, always; four mice a side, on the board or captured."""
    cards = Counter(state.deck) + Counter(state.discard) + Counter(state.hands[0]) + Counter(state.hands[1])
    assert cards == {"sword": 10, "stronghold": 10, "diplomacy": 10}
    on_board = Counter(cell for cell in state.board if cell >= 0)
    if state.phase != "setup":
        assert on_board[0] + state.captured[0] == 4 and on_board[1] + state.captured[1] == 4


def mouseguard_pair(rng: random.Random) -> SecretPair | None:
    """Either the other seat's secret placement (two different ones), or a position whose other hand and deck
    (below the next four cards) differ."""
    seed = rng.randrange(10**6)
    if rng.random() < 0.5:
        start = mg.initial(Setup(seats=2), random.Random(seed))
        state = fold(mg, start)
        me = rng.randrange(2)
        first, second = rng.sample(mg.legal(state, 1 - me), 2)
        histories = [start + mg.decide(state, 1 - me, mg.parse(text), random.Random(seed))
                     for text in (first, second)]
        return histories[0], histories[1], [me, None]
    game_rng = random.Random(seed)
    state = fold(mg, mg.initial(Setup(seats=2), game_rng))
    for _ in range(rng.randrange(2, 14)):
        if mg.status(state) == "finished":
            return None
        seat = game_rng.choice(mg.to_act(state))
        text = game_rng.choice(mg.legal(state, seat))
        state = fold(mg, mg.decide(state, seat, mg.parse(text), game_rng), state)
    if mg.status(state) != "playing":
        return None
    position = mg.dump_position(state)
    mine = rng.choice(["black", "white"])
    theirs = "white" if mine == "black" else "black"
    pool = position["hands"][theirs] + position["deck"][4:]
    rng.shuffle(pool)
    other = {**position, "hands": {**position["hands"], theirs: pool[:len(position["hands"][theirs])]},
             "deck": position["deck"][:4] + pool[len(position["hands"][theirs]):]}
    histories = [mg.initial(Setup(seats=2, position=p), random.Random(seed)) for p in (position, other)]
    me = fold(mg, histories[0]).seat_of(0 if mine == "black" else 1)
    return histories[0], histories[1], [me, None]


# Foraging Squirrels ------------------------------------------------------------------------------------------

def squirrels_candidates(state, seat: int, rng: random.Random) -> list[str]:
    """Every plain move and a sample of digs, most of them near-legal."""
    texts = [f"{c} {d}" for c in COLORS for d in DIRECTIONS]
    occupied = [SQUIRREL_CELLS[i] for i, c in enumerate(state.grid) if c is not None]
    for _ in range(25):
        frm = rng.choice(occupied if occupied and rng.random() < 0.8 else SQUIRREL_CELLS)
        to = rng.choice(SQUIRREL_CELLS)
        move = rng.choice(texts)
        texts.append(f"dig {frm} {to}; {move}" if rng.random() < 0.5 else f"{move}; dig {frm} {to}")
    return texts


def squirrels_check(state) -> None:
    """FS-2: every card is in exactly one place: the grid, a pile or set aside."""
    if SQUIRREL not in state.grid:
        return  # packs opened, not dealt yet
    places = [c for c in state.grid if c is not None and c != SQUIRREL]
    places += [c for pile in state.piles for c in pile] + list(state.set_aside)
    counts = Counter(places)
    assert set(counts) == set(state.cards) and max(counts.values()) == 1


# Mission commando --------------------------------------------------------------------------------------------

COMMANDO_UNIVERSE = [*WORDS, *(f"{verb} {n}" for verb in NUMBERED for n in range(7))]
"""Every command text worth trying (numbers beyond any seat, weapon count or map move included)."""


def commando_check(state) -> None:
    board = state.board
    for agent in state.agents:
        assert min(agent.money, agent.weapons, agent.accessories, agent.maps) >= 0
        assert agent.accessories <= state.options["accessory_limit"]
        assert 0 <= agent.square < len(board.kind)
    # an agent waiting at the wall has not landed yet; a fight's loser leaves the square when it is resolved
    squares = [a.square for seat, a in enumerate(state.agents)
               if a.square != board.start and not board.is_green(a.square)
               and not (state.phase == "wall" and seat == state.turn)]
    if state.fight is None:
        assert len(squares) == len(set(squares)), "two agents share a square"
    cards = [*state.deck, *state.discard, *([state.card] if state.card else [])]
    assert sorted(cards) == sorted(FULL_DECK)
    limit = state.options["max_plies"]
    assert limit is None or state.turns <= limit


def commando_pair(rng: random.Random) -> SecretPair | None:
    """Either two caution decks in different orders, or the first of two fighters committing two different
    weapon counts."""
    seats = rng.randint(2, 5)
    seed = rng.randrange(10**6)
    if rng.random() < 0.4:
        decks = [list(FULL_DECK), list(FULL_DECK)]
        rng.shuffle(decks[0])
        rng.shuffle(decks[1])
        histories = [commando.initial(Setup(seats=seats, position={"caution_deck": deck}), random.Random(seed))
                     for deck in decks]
        return histories[0], histories[1], [*range(seats), None]
    game_rng = random.Random(seed)
    events = commando.initial(Setup(seats=seats, options={"start_money": 8}), game_rng)
    state = fold(commando, events)
    for _ in range(400):
        if commando.status(state) == "finished":
            return None
        if len(commando.to_act(state)) == 2:
            break
        seat = game_rng.choice(commando.to_act(state))
        new = commando.decide(state, seat, commando.parse(game_rng.choice(commands(commando.legal(state, seat)))),
                              game_rng)
        state = fold(commando, new, state)
        events = events + new
    else:
        return None
    seat = rng.choice(commando.to_act(state))
    choices = commands(commando.legal(state, seat))
    if len(choices) < 2:
        return None
    texts = rng.sample(choices, 2)
    histories = [events + commando.decide(state, seat, commando.parse(text), random.Random(seed))
                 for text in texts]
    return histories[0], histories[1], [v for v in [*range(seats), None] if v != seat]


SUPPORT: dict[str, Support] = {
    "murus": Support(max_plies=(150,), candidates=murus_candidates),
    "mouseguard": Support(public=False, max_plies=(80,), candidates=mouseguard_candidates, check=mouseguard_check,
                          secret_pair=mouseguard_pair),
    "squirrels": Support(max_plies=(None, 8), candidates=squirrels_candidates, check=squirrels_check),
    "commando": Support(public=False, max_plies=(None, 40), candidates=lambda state, seat, rng: COMMANDO_UNIVERSE,
                        check=commando_check, secret_pair=commando_pair,
                        positionable=lambda state: state.phase == "turn"),
}


def support_for(name: str) -> Support:
    """The entry of game ``name``, or the defaults."""
    return SUPPORT.get(name, Support())
