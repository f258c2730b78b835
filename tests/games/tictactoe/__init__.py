"""Tic-tac-toe: the smallest game with the shape of ``domain/base.py``, living only in the tests.

It proves the shape: the conformance suite (``tests/domain/test_conformance.py``) runs on it and a test plays it
through the HTTP API, with no change outside this package and the one line that registers it
(``registry.register("tictactoe", "tests.games.tictactoe")``, in the ``tictactoe`` fixture of
``tests/conftest.py``). Seat 0 plays X and moves first, seat 1 plays O; a command is a cell, ``b2``.
"""

from tests.games.tictactoe.catalog import CATALOG
from tests.games.tictactoe.events import EVENTS
from tests.games.tictactoe.notation import format, parse
from tests.games.tictactoe.position import dump_position
from tests.games.tictactoe.rules import NAME, OPTIONS, SEATS, decide, initial, legal, result, status, to_act
from tests.games.tictactoe.state import State, evolve
from tests.games.tictactoe.view import describe, redact, render, view

__all__ = ["CATALOG", "EVENTS", "NAME", "OPTIONS", "SEATS", "State", "decide", "describe", "dump_position",
           "evolve", "format", "initial", "legal", "parse", "redact", "render", "result", "status", "to_act",
           "view"]
