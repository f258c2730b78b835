"""One retry budget for every optimistic write: a game's (``services/games/round.py``), an account's, the ratings'.

An optimistic write decides on what it has read and is stored only if nothing was written meanwhile (the expected
version, checked by the write's own script); when something was, it reads and decides again. ``retry`` runs such
an attempt until it is written, at most ``BUDGET`` times, then answers the writer's "too busy".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from services.store.streams import ConcurrencyError

T = TypeVar("T")

BUDGET = 32
"""Attempts of one write. Each lost attempt means another writer won that version: a game racing 32 writers at
once still answers each of them (one wins, the others are refused on the new version or write after it)."""


class Again(Exception):
    """The attempt must be made again on what is stored now: its version moved on, or it was decided on a cached
    state that may be stale."""


def retry(attempt: Callable[[], T], too_busy: Callable[[], Exception]) -> T:
    """``attempt()``'s answer, made again while it raises ``Again`` or ``ConcurrencyError``; ``too_busy()`` is
    raised after ``BUDGET`` attempts."""
    for _ in range(BUDGET):
        try:
            return attempt()
        except (Again, ConcurrencyError):
            continue
    raise too_busy()
