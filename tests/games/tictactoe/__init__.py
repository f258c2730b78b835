"""Tic-tac-toe: the smallest game with the shape of ``domain/base.py``, living only in the tests.

It proves that a new game needs one package and one line: the package declares its registration (``GAME``
below: the decider, its catalog, its AI, its perft; no hidden parts, no board script of its own), and the one
line ``registry.register(GAME)`` (the ``tictactoe`` fixture of ``tests/conftest.py``) gives it the whole
conformance suite (``tests/domain/test_conformance.py``), ``burrow perft``, an AI seat and the HTTP API with its
page, with no change outside this package. Seat 0 plays X and moves first, seat 1 plays O; a command is a cell,
``b2``.
"""

from domain.game_type import GameType
from tests.games.tictactoe.catalog import CATALOG
from tests.games.tictactoe.events import EVENTS
from tests.games.tictactoe.notation import format, parse
from tests.games.tictactoe.position import dump_position
from tests.games.tictactoe.rules import NAME, OPTIONS, SEATS, decide, initial, legal, perft, result, status, to_act
from tests.games.tictactoe.state import State, evolve
from tests.games.tictactoe.view import describe, redact, render, view

GAME = GameType(decider=__name__, catalog=CATALOG, ai="tests.games.tictactoe.ai", perft=perft)

__all__ = ["CATALOG", "EVENTS", "GAME", "NAME", "OPTIONS", "SEATS", "State", "decide", "describe", "dump_position",
           "evolve", "format", "initial", "legal", "parse", "redact", "render", "result", "status", "to_act",
           "view"]
