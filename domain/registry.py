"""The games Burrow knows, by their API name: each one's registration (``domain/game_type.py``).

Every game package declares its ``GAME = GameType(...)`` once; this module takes the built-in ones (listed at the
bottom, the one place they are listed) and anyone may ``register`` another (the tests' tic-tac-toe).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType

from domain import commando, mouseguard, murus, squirrels
from domain.catalog import GameInfo
from domain.game_type import GameType

_GAMES: dict[str, GameType] = {}


class _Names(Sequence[str]):
    """The names of the registered games, in registration order; a live view (``register`` adds to it)."""

    def __getitem__(self, index):  # type: ignore[override]
        return tuple(_GAMES)[index]

    def __len__(self) -> int:
        return len(_GAMES)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_GAMES))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in _GAMES  # (a list or an object from a request: no game)

    def __repr__(self) -> str:
        return repr(tuple(_GAMES))


GAME_NAMES: Sequence[str] = _Names()


def register(game: GameType) -> None:
    """Make ``game`` known by its name. Registering the same object again changes nothing; another game under a
    name already taken is a ``ValueError``."""
    if not isinstance(game, GameType):
        raise TypeError(f"register takes a GameType, not {type(game).__name__}")
    known = _GAMES.get(game.name)
    if known is not None and known != game:
        raise ValueError(f"a game named {game.name!r} is registered already (from {known.decider})")
    _GAMES[game.name] = game


def unregister(name: str) -> None:
    """Forget the game ``name`` (nothing if it is unknown)."""
    _GAMES.pop(name, None)


@contextmanager
def registered(game: GameType) -> Iterator[str]:
    """``game`` registered for the ``with`` block (its name is the value), forgotten after it."""
    register(game)
    try:
        yield game.name
    finally:
        unregister(game.name)


def game_type(name: str) -> GameType:
    """The registration of game ``name``; ``KeyError`` for an unknown name."""
    return _GAMES[name]


def game_types() -> list[GameType]:
    """Every registration, in ``GAME_NAMES`` order."""
    return list(_GAMES.values())


def game_module(name: str) -> ModuleType:
    """The decider module of game ``name``; ``KeyError`` for an unknown name."""
    return _GAMES[name].module()


def catalog() -> list[GameInfo]:
    """The catalog entry (``CATALOG``, ``domain/catalog.py``) of every game, in ``GAME_NAMES`` order."""
    return [game.catalog for game in _GAMES.values()]


def game_info(name: str) -> GameInfo:
    """The catalog entry of game ``name``; ``KeyError`` for an unknown name."""
    return _GAMES[name].catalog


# The built-in games, in the catalog's order: the one list of them.
for _package in (murus, mouseguard, squirrels, commando):
    register(_package.GAME)
