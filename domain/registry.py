"""The games Burrow knows, by their API name."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from types import ModuleType

from domain.catalog import GameInfo

_MODULES: dict[str, str] = {name: f"domain.{name}" for name in ("murus", "mouseguard", "squirrels", "commando")}
"""API name → the import path of its decider module (the package of ``domain/base.py``'s layout)."""


class _Names(Sequence[str]):
    """The names of the registered games, in registration order; a live view (``register`` adds to it)."""

    def __getitem__(self, index):  # type: ignore[override]
        return tuple(_MODULES)[index]

    def __len__(self) -> int:
        return len(_MODULES)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_MODULES))

    def __contains__(self, name: object) -> bool:
        return name in _MODULES

    def __repr__(self) -> str:
        return repr(tuple(_MODULES))


GAME_NAMES: Sequence[str] = _Names()


def register(name: str, module: str) -> None:
    """Make the decider module at import path ``module`` the game ``name`` (a game outside ``domain/``: the
    tests' tic-tac-toe). The module needs the shape of ``domain.base.Decider`` and a ``CATALOG``."""
    _MODULES[name] = module


def unregister(name: str) -> None:
    """Forget a game ``register`` added."""
    _MODULES.pop(name, None)


def game_module(name: str) -> ModuleType:
    """The decider module of game ``name``; ``KeyError`` for an unknown name."""
    return importlib.import_module(_MODULES[name])


def catalog() -> list[GameInfo]:
    """The catalog entry (``CATALOG``, ``domain/catalog.py``) of every game, in ``GAME_NAMES`` order."""
    return [game_module(name).CATALOG for name in GAME_NAMES]


def game_info(name: str) -> GameInfo:
    """The catalog entry of game ``name``; ``KeyError`` for an unknown name."""
    return game_module(name).CATALOG
