"""The games Burrow knows, by their API name."""

from __future__ import annotations

import importlib
from types import ModuleType

from domain.catalog import GameInfo

GAME_NAMES = ("murus", "mouseguard", "squirrels", "commando")


def game_module(name: str) -> ModuleType:
    """The decider module of game ``name``; ``KeyError`` for an unknown name."""
    if name not in GAME_NAMES:
        raise KeyError(name)
    return importlib.import_module(f"domain.{name}")


def catalog() -> list[GameInfo]:
    """The catalog entry (``CATALOG``, ``domain/catalog.py``) of every game, in ``GAME_NAMES`` order."""
    return [game_module(name).CATALOG for name in GAME_NAMES]


def game_info(name: str) -> GameInfo:
    """The catalog entry of game ``name``; ``KeyError`` for an unknown name."""
    return game_module(name).CATALOG
