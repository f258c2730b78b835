"""The tutorials: for each game a scripted first game on the real board and rules (README "Learn").

A tutorial is a list of ``Step``s: a position in the game's own position format (as ``position`` in
``POST /api/games`` takes it, with the game's options beside it), a text saying what to do and why, the moves of
the seat to act that complete the step (each legal there: ``tests/domain/test_tutorials.py`` asks the decider),
and a text explaining why another move is not the one (shown after a wrong move). Pure data and pure functions:
the state of a step comes from the game's own ``initial`` with a fixed seed. A step of one move may go on with
``then``: the next moves of the same turn (Mission commando's shop, challenge and fight come after a move onto
their square, and a position always starts a turn), each asked for in the state the moves before it made.
"""

from __future__ import annotations

from domain.tutorials.lesson import SEED, Step, Tutorial, after, seat_of, state_of

__all__ = ["SEED", "Step", "Tutorial", "after", "seat_of", "state_of", "tutorials"]


def tutorials() -> dict[str, Tutorial]:
    """Every game's tutorial, by game name, in the registry's order."""
    from domain.tutorials import commando, mouseguard, murus, squirrels
    return {t.game: t for t in (murus.TUTORIAL, mouseguard.TUTORIAL, squirrels.TUTORIAL, commando.TUTORIAL)}
