"""Mouse Guard: Swords & Strongholds (RULES.md §2, MG-1…MG-20) as a decider (see ``domain/base.py``).

Modules: ``board`` (geometry), ``cards`` (deck, draws), ``notation`` (commands), ``rules`` (what a turn does
on the board), ``position`` (the position JSON), ``state`` (state and ``evolve``), ``game`` (the decider),
``view`` (what each viewer sees). Notation extension: with option ``exit_extra_step`` an exit names its extra
step, ``exit D5 d6 e6``.
"""

from domain.mouseguard.events import EVENTS
from domain.mouseguard.game import decide, initial, legal, result, status, to_act
from domain.mouseguard.notation import format, parse
from domain.mouseguard.position import dump_position
from domain.mouseguard.state import State, evolve
from domain.mouseguard.view import describe, redact, render, view

NAME = "mouseguard"
SEATS = (2, 2)

__all__ = [
           "EVENTS",
           "NAME",
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
           "status",
           "to_act",
           "view",
]
