"""Mouse Guard: Swords & Strongholds (docs/rules.md §2, MG-1…MG-20) as a decider (see ``domain/base.py``).

The layout of every game package: ``events``, ``state`` (state and ``evolve``), ``rules`` (``initial``,
``decide``, ``legal``, ``to_act``, ``status``, ``result``), ``notation``, ``position``, ``view`` (``view``,
``redact``, ``describe``, ``render``); beside them ``board`` (geometry), ``cards`` (deck, draws) and ``turns``
(what one action does on the board). Notation extension: with option ``exit_extra_step`` an exit names its extra
step, ``exit D5 d6 e6``.
"""

from domain.game_type import GameType
from domain.mouseguard.catalog import CATALOG
from domain.mouseguard.events import EVENTS
from domain.mouseguard.notation import format, parse
from domain.mouseguard.position import dump_position
from domain.mouseguard.rules import NAME, OPTIONS, SEATS, decide, initial, legal, result, status, to_act
from domain.mouseguard.state import State, evolve
from domain.mouseguard.view import describe, redact, render, sides, view

GAME = GameType(decider=__name__, catalog=CATALOG, ai="domain.ai.mouseguard",
                hidden=("hands", "deck order", "secret placements"), board="mouseguard.js")

__all__ = [
           "CATALOG",
           "EVENTS",
           "GAME",
           "NAME",
           "OPTIONS",
           "SEATS",
           "State",
           "decide",
           "describe",
           "dump_position",
           "evolve",
           "format",
           "initial",
           "legal",
           "parse",
           "redact",
           "render",
           "result",
           "sides",
           "status",
           "to_act",
           "view",
]
