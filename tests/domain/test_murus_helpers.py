"""Helpers shared by the Murus tests (no tests here): start a game from a position, play commands, fold events."""

from __future__ import annotations

import random

from domain import murus
from domain.base import Setup


def fold(events, state=None):
    """The state after folding ``events`` over ``state``."""
    for event in events:
        state = murus.evolve(state, event)
    return state


def new_game(cells=None, turn="romans", variant="basic", max_plies=None):
    """A game from ``cells`` (position JSON; ``None`` = the opening) with ``turn`` to move."""
    position = {"turn": turn} if cells is None else {"turn": turn, "cells": cells}
    options = {"variant": variant} if max_plies is None else {"variant": variant, "max_plies": max_plies}
    return fold(murus.initial(Setup(seats=2, options=options, position=position), random.Random(0)))


def play(state, *texts):
    """Play ``texts`` in turn (each by the side to move); returns the final state and the last move's events."""
    events = []
    for text in texts:
        events = murus.decide(state, murus.to_act(state)[0], murus.parse(text), random.Random(0))
        state = fold(events, state)
    return state, events


def types(events):
    """The tags of ``events``."""
    return [event.__struct_config__.tag for event in events]
