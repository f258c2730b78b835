"""One game's registration: every fact the rest of Burrow looks up about a game, in one frozen object.

A game package declares its ``GAME = GameType(...)`` once, in ``domain/<game>/__init__.py``, and the registry
takes it (``domain/registry.py``: ``register(GAME)``), as OpenSpiel's ``GameType`` and ``register_game`` do. The
AI dispatch (``domain/ai``), ``burrow perft``, the page's board script (``web/pages.py``) and the conformance
suite (whose secrets to check) read a game's parts from here, never from a naming convention. (Fairness no longer
asks for the hidden parts: any position a client chooses is disclosed and unrated, ``services/games/fairness.py``.)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from domain.catalog import GameInfo

Perft = Callable[[Any, int], int]
"""``perft(state, depth)``: the number of move sequences of ``depth`` plies from a game state."""


@dataclass(frozen=True)
class GameType:
    """A game as the registry knows it.

    ``decider`` is the import path of the module with the shape of ``domain.base.Decider`` (the game's package:
    ``__name__`` where the package declares its ``GAME``); ``catalog`` its ``CATALOG``; ``ai`` the import path of
    its AI module (``choose``, ``domain/ai/__init__.py``), or None for a game without AI players; ``hidden`` the
    parts of a state a seat does not see (hands, deck order, placements; empty for a game of perfect
    information: the conformance suite checks that none of them leaks); ``perft`` its move-generation count, or
    None; ``board`` the page's board script, a file name under ``web/static/boards/``, or None (the generic
    board: the legal commands as buttons).
    """

    decider: str
    catalog: GameInfo
    ai: str | None = None
    hidden: tuple[str, ...] = ()
    perft: Perft | None = None
    board: str | None = None

    def __post_init__(self) -> None:
        if self.board is not None and (not self.board.endswith(".js") or "/" in self.board or "\\" in self.board
                                       or self.board.startswith(".")):
            raise ValueError(f"{self.name}: board must be a file name under web/static/boards/ such as "
                             f"'{self.name}.js', not {self.board!r}")
        if bool(self.ai) != bool(self.catalog.levels):
            raise ValueError(f"{self.name}: a game offers AI levels in its catalog exactly when it names an AI "
                             f"module (levels {self.catalog.levels!r}, ai {self.ai!r})")
        if isinstance(self.hidden, str):
            raise ValueError(f"{self.name}: hidden must be a tuple of names, not the string {self.hidden!r}")

    @property
    def name(self) -> str:
        """The game's API name (its catalog's)."""
        return self.catalog.name

    @property
    def hidden_information(self) -> bool:
        """Whether a position can fix something a seat does not see."""
        return bool(self.hidden)

    def module(self) -> ModuleType:
        """The decider module."""
        return importlib.import_module(self.decider)

    def ai_module(self) -> ModuleType | None:
        """The AI module, or None for a game without AI players."""
        return importlib.import_module(self.ai) if self.ai else None
