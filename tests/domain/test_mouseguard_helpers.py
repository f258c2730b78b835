"""Helpers shared by the Mouse Guard tests (no tests here): positions, playing commands, folding events."""

from __future__ import annotations

import random

import pytest

from domain import mouseguard as mg
from domain.base import IllegalMove, Setup, event_type

CARDS = ("sword", "stronghold", "diplomacy")


def fold(events, state=None):
    """The state after folding ``events`` over ``state``."""
    for event in events:
        state = mg.evolve(state, event)
    return state


def position(mice, turn="black", hands=None, **fields):
    """A position from ``mice``; captured counts default to what is missing from the board, hands to one
    card of each type (black) and three diplomacies (white)."""
    on_board = {c: sum(1 for v in mice.values() if v == c) for c in ("black", "white")}
    result = {"turn": turn, "mice": mice, "captured": {c: 4 - n for c, n in on_board.items()},
              "hands": hands or {"black": ["sword", "stronghold", "diplomacy"],
                                 "white": ["diplomacy", "diplomacy", "diplomacy"]}}
    result.update(fields)
    return result


def start(pos=None, seed=0, **options):
    """A game from position ``pos`` (``None``: the opening) with ``options``."""
    return fold(mg.initial(Setup(seats=2, options=options, position=pos), random.Random(seed)))


def seat(state, colour):
    """The seat playing ``colour``."""
    return state.black if colour == "black" else 1 - state.black


def play(state, *texts, seed=0):
    """Play ``texts`` in turn by the seat to move; the final state and the last command's events."""
    events = []
    for text in texts:
        events = mg.decide(state, mg.to_act(state)[0], mg.parse(text), random.Random(seed))
        state = fold(events, state)
    return state, events


def refused(state, text, reason):
    """Assert that the seat to move may not play ``text`` and that ``reason`` is in the explanation."""
    with pytest.raises(IllegalMove) as error:
        mg.decide(state, mg.to_act(state)[0], mg.parse(text), random.Random(0))
    assert reason in str(error.value)
    assert text not in mg.legal(state, mg.to_act(state)[0])


def legal(state):
    """The legal commands of the seat to move."""
    return mg.legal(state, mg.to_act(state)[0])


def types(events):
    """The tags of ``events``."""
    return [event_type(event) for event in events]


def mice(state):
    """The ``mice`` map of the state's position."""
    return mg.dump_position(state)["mice"]
