"""Murus Gallicus (docs/rules.md §1): the decider of the ``murus`` game.

Seat 0 plays the Romans (home row 1, moving first), seat 1 the Gauls (home row 7). Options: ``variant``
("basic" | "advanced": catapults, delayed breakthrough) and ``max_plies`` (a draw after that many plies).
The layout of every game package: ``events``, ``state`` (state and ``evolve``), ``rules`` (``initial``,
``decide``, ``legal``, ``to_act``, ``status``, ``result``), ``notation``, ``position``, ``view`` (``view``,
``redact``, ``describe``, ``render``); beside them the bitboards (``board``) and ``explain`` (why a move is
illegal).

``view(state, viewer)`` is the same for every viewer (perfect information)::

    {"options": {"variant", "max_plies"}, "turn": "romans"|"gauls", "cells": {"a1": "RR", ...},
     "ply": int, "position": {"turn", "cells"}, "last_move": "a1-a3"|None, "last_cells": [changed cells],
     "stack_limit": 2|3, "intruders": [cells where a stone stands on the enemy home row],
     "status": "playing"|"finished", "result": None|{"winners", "reason"}}
"""

from domain.game_type import GameType
from domain.murus.catalog import CATALOG
from domain.murus.events import EVENTS, Captured, GameCreated, GameEnded, Moved
from domain.murus.notation import PLAYER_NAMES as SIDES
from domain.murus.notation import Command, format, parse
from domain.murus.position import dump_position
from domain.murus.rules import NAME, OPTIONS, SEATS, decide, initial, legal, perft, result, status, to_act
from domain.murus.state import MurusState, State, evolve
from domain.murus.view import describe, redact, render, view

GAME = GameType(decider=__name__, catalog=CATALOG, ai="domain.ai.murus", perft=perft, board="murus.js")
"""Murus Gallicus as the registry knows it: perfect information, nothing hidden."""

__all__ = [
    "CATALOG",
    "EVENTS",
    "GAME",
    "NAME",
    "OPTIONS",
    "SEATS",
    "SIDES",
    "Captured",
    "Command",
    "GameCreated",
    "GameEnded",
    "Moved",
    "MurusState",
    "State",
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
