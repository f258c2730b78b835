"""The shape every game module shares (the functional "decider") and its errors.

A game module (``domain/murus.py``, ``domain/mouseguard/``, ...) exposes, at module level:

``NAME``                       the game's name in the API (``"murus"``)
``SEATS``                      ``(min, max)`` number of seats
``EVENTS``                     tuple of its event classes (``Event`` subclasses, one tag each)
``initial(setup, rng)``        the events that create a game (``GameCreated`` first; deck shuffles, colours…)
``evolve(state, event)``       the next state; ``state`` is ``None`` before the first event. Pure: never
                               mutates its input, never rolls dice, never reads a clock.
``decide(state, seat, cmd, rng)``  the events a command produces; raises ``IllegalMove`` with the reason.
``to_act(state)``              seats that may send a command now (several during simultaneous phases)
``legal(state, seat)``         every legal command of that seat, in notation (empty when not to act)
``status(state)``              ``"setup"`` | ``"playing"`` | ``"finished"``
``result(state)``              ``None`` or ``{"winners": [seats], "reason": "..."}`` (a draw: no winners)
``view(state, viewer)``        JSON-ready dict of what ``viewer`` may see (see ``Viewer``)
``redact(event, viewer)``      the event as ``viewer`` may see it (hidden fields set to ``None``)
``describe(event)``            one readable line for a move list ("Romans: a1-a3")
``parse(text)`` / ``format(cmd)``  the notation of RULES.md, both ways; ``parse`` raises ``BadNotation``
``dump_position(state)``       the position JSON of RULES.md
``render(state)``              a plain-text board for the terminal (``burrow replay``)

``initial`` validates ``setup`` (seat count, options, position) and raises ``BadSetup`` naming the field.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, TypedDict

import msgspec

from domain.catalog import Option

REVEAL_ALL: Literal["all"] = "all"
"""Viewer that sees everything: finished games, the CLI, tests. Never given to a player or an AI."""

Viewer = int | None | Literal["all"]
"""A seat number, ``None`` for a spectator, or ``REVEAL_ALL``."""


RULES: Literal["rules"] = "rules"
"""``result.termination`` of a game that ended by its own rules (a win, a loss, a draw the rules declare)."""
MAX_PLIES: Literal["max_plies"] = "max_plies"
"""``result.termination`` of a game stopped by the ``max_plies`` option (a server limit, not a rule)."""
TERMINATIONS = (RULES, MAX_PLIES, "resigned", "draw_agreed", "timeout", "aborted")
"""Every kind of ``result.termination`` (CONTRACT.md, "Tables"): the deciders end games by ``rules`` or
``max_plies``; the platform's table commands and clocks add the others on top of a game."""


class Result(TypedDict):
    """What ``result(state)`` returns once a game is over: ``winners`` (seats; empty for a draw or no result),
    ``reason`` (a sentence) and ``termination`` (one of ``TERMINATIONS``)."""

    winners: list[int]
    reason: str
    termination: str


def outcome(winners: list[int] | tuple[int, ...], reason: str, termination: str) -> Result:
    """A fresh ``Result`` (lists copied, so callers may change it)."""
    return {"winners": list(winners), "reason": reason, "termination": termination}


class Event(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of every domain event. Subclasses set ``tag="snake_case_name"``.

    Shared vocabulary where it fits: game_created, moved, captured, card_drawn, card_played,
    deck_shuffled, dice_rolled, turn_passed, game_ended. Schema evolution: only add fields with defaults.
    """


class Setup(msgspec.Struct, frozen=True):
    """What a new game is created from."""

    seats: int
    options: dict[str, Any] = {}
    position: dict[str, Any] | None = None


class DomainError(Exception):
    """A user mistake, with a sentence that explains it."""


class BadNotation(DomainError):
    """The text is not a command of this game's notation (HTTP 400)."""


class IllegalMove(DomainError):
    """A well-formed command that the rules forbid now (HTTP 422)."""


class BadEvent(DomainError):
    """An event ``evolve`` cannot apply: not one of the game's event types, malformed (a field of the wrong type,
    a cell or card that does not exist), or contradicting the state it is folded into (a card the hand does not
    hold, a move from an empty cell). Every game's ``evolve`` raises this and nothing else for a bad event; the
    events a ``decide`` returns never raise it. A stored stream that raises it is corrupt or from another game."""


class BadSetup(DomainError):
    """Bad seat count, option or position (HTTP 422); ``field`` names the culprit."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


Rng = random.Random


def event_type(event: Event) -> str:
    """The snake_case tag of an event."""
    return event.__struct_config__.tag  # type: ignore[return-value]


def event_data(event: Event) -> dict[str, Any]:
    """An event's fields as JSON-ready builtins, without the tag."""
    data = msgspec.to_builtins(event)
    data.pop("type", None)
    return data


def check_options(options: dict[str, Any], specs: Sequence[Option]) -> dict[str, Any]:
    """Options merged over their defaults; unknown names or values the option's type refuses raise ``BadSetup``.

    ``specs`` are the game's options as its catalog declares them (``CATALOG.options``, ``domain/catalog.py``).
    """
    if not isinstance(options, dict):
        raise BadSetup("options", f"must be an object, not {options!r}")
    by_name = {spec.name: spec for spec in specs}
    merged = {spec.name: spec.default for spec in specs}
    for name, value in options.items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise BadSetup(f"options.{name}", f"unknown option (known: {known})")
        problem = spec.problem(value)
        if problem:
            raise BadSetup(f"options.{name}", problem)
        merged[name] = value
    return merged
