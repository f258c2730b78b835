"""Murus Gallicus (RULES.md §1): the decider of the ``murus`` game.

Seat 0 plays the Romans (home row 1, moving first), seat 1 the Gauls (home row 7). Options: ``variant``
("basic" | "advanced": catapults, delayed breakthrough) and ``max_plies`` (a draw after that many plies).
The board lives in bitboards (``board``); notation in ``notation``; the position JSON in ``position``.

``view(state, viewer)`` is the same for every viewer (perfect information)::

    {"options": {"variant", "max_plies"}, "turn": "romans"|"gauls", "cells": {"a1": "RR", ...},
     "ply": int, "position": {"turn", "cells"}, "last_move": "a1-a3"|None, "last_cells": [changed cells],
     "stack_limit": 2|3, "intruders": [cells where a stone stands on the enemy home row],
     "status": "playing"|"finished", "result": None|{"winners", "reason"}}
"""

from domain.murus.events import EVENTS, Captured, GameCreated, GameEnded, Moved
from domain.murus.game import (
    NAME,
    SEATS,
    MurusState,
    decide,
    describe,
    dump_position,
    evolve,
    initial,
    legal,
    perft,
    redact,
    render,
    result,
    status,
    to_act,
    view,
)
from domain.murus.notation import Command, format, parse

__all__ = [
    "EVENTS",
    "NAME",
    "SEATS",
    "Captured",
    "Command",
    "GameCreated",
    "GameEnded",
    "Moved",
    "MurusState",
    "decide",
    "describe",
    "dump_position",
    "evolve",
    "format",
    "initial",
    "legal",
    "parse",
    "perft",
    "redact",
    "render",
    "result",
    "status",
    "to_act",
    "view",
]
