"""Foraging Squirrels (docs/rules.md §3): the MH2 minigame of a squirrel foraging a 5 × 5 grid of Magic cards.

The decider interface of ``domain/base.py``. Everything is face up: the grid, every pile, the scores and the cards
set aside (packs are opened at the table), so ``view`` is the same for every viewer and ``redact`` is the
identity. The layout of every game package: ``events``, ``state`` (state and ``evolve``), ``rules``
(``initial``, ``decide``, ``legal``, ``to_act``, ``status``, ``result``), ``notation``, ``position``, ``view``
(``view``, ``redact``, ``describe``, ``render``); beside them ``cards`` (card facts), ``boosters`` (FS-11 packs),
``board`` (grid, scan) and ``scoring`` (FS-9/FS-10).
"""

from __future__ import annotations

from domain.game_type import GameType
from domain.squirrels.catalog import CATALOG
from domain.squirrels.events import EVENTS
from domain.squirrels.notation import format, parse
from domain.squirrels.position import dump_position
from domain.squirrels.rules import NAME, OPTIONS, SEATS, decide, initial, leave, legal, result, status, to_act
from domain.squirrels.state import State, evolve
from domain.squirrels.view import describe, redact, render, view

GAME = GameType(decider=__name__, catalog=CATALOG, ai="domain.ai.squirrels",
                hidden=("the deal: the cards in the packs and where they land",), board="squirrels.js")

__all__ = ["CATALOG", "EVENTS", "GAME", "NAME", "OPTIONS", "SEATS", "State", "decide", "describe",
           "dump_position", "evolve", "format", "initial", "leave", "legal", "parse", "redact", "render", "result",
           "status", "to_act", "view"]
