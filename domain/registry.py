"""The games Burrow knows, by their API name."""

from __future__ import annotations

import importlib
from types import ModuleType

GAME_NAMES = ("murus", "mouseguard", "squirrels", "commando")


def game_module(name: str) -> ModuleType:
    """The decider module of game ``name``; ``KeyError`` for an unknown name."""
    if name not in GAME_NAMES:
        raise KeyError(name)
    return importlib.import_module(f"domain.{name}")
