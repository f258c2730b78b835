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
from typing import Any, Literal

import msgspec

REVEAL_ALL: Literal["all"] = "all"
"""Viewer that sees everything: finished games, the CLI, tests. Never given to a player or an AI."""

Viewer = int | None | Literal["all"]
"""A seat number, ``None`` for a spectator, or ``REVEAL_ALL``."""


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


def check_options(options: dict[str, Any], allowed: dict[str, Any]) -> dict[str, Any]:
    """Options merged over their defaults; unknown names or wrongly typed values raise ``BadSetup``.

    ``allowed`` maps each option name to its default value; a default of ``None`` accepts ``int`` or ``None``.
    """
    merged = dict(allowed)
    for name, value in options.items():
        if name not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise BadSetup(f"options.{name}", f"unknown option (known: {known})")
        default = allowed[name]
        if default is None:
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0)
            expected = "a positive integer or null"
        elif isinstance(default, bool):
            ok, expected = isinstance(value, bool), "true or false"
        elif isinstance(default, (int, float)):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            expected = "a number"
        else:
            ok, expected = isinstance(value, type(default)), f"a {type(default).__name__}"
        if not ok:
            raise BadSetup(f"options.{name}", f"must be {expected}, not {value!r}")
        merged[name] = value
    return merged
