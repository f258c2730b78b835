"""Mission commando (docs/rules.md §4): a roll-and-move race to the enemy base, with fights and caution cards.

The decider interface of ``domain/base.py``. The board is data (``default-board.json``, schema in
``docs/commando-board.md``); option ``board`` replaces it with a board object (the domain reads no file).
The layout of every game package: ``events``, ``state`` (state and ``evolve``), ``rules`` (``initial``,
``decide``, ``legal``, ``to_act``, ``status``, ``result``), ``notation``, ``position``, ``view`` (``view``,
``redact``, ``describe``, ``render``); beside them ``board`` (the board data), ``constants`` (every value
docs/rules.md fixes), ``flow`` (a turn, step by step) and ``fights``.
"""

from __future__ import annotations

from domain.base import Viewer
from domain.commando.catalog import CATALOG
from domain.commando.events import EVENTS
from domain.commando.notation import Command, format, parse
from domain.commando.position import dump_position
from domain.commando.rules import NAME, OPTIONS, SEATS, decide, initial, leave, legal, result, status, to_act
from domain.commando.state import State, evolve
from domain.commando.view import describe, redact, render, view
from domain.game_type import GameType

GAME = GameType(decider=__name__, catalog=CATALOG, ai="domain.ai.commando",
                hidden=("caution deck order", "committed weapons"), board="commando.js")

__all__ = [
    "CATALOG",
    "EVENTS",
    "GAME",
    "NAME",
    "OPTIONS",
    "SEATS",
    "Command",
    "State",
    "Viewer",
    "decide",
    "describe",
    "dump_position",
    "evolve",
    "format",
    "initial",
    "leave",
    "legal",
    "parse",
    "redact",
    "render",
    "result",
    "status",
    "to_act",
    "view",
]
