"""The one description of a game: what ``GET /api/catalog`` serves and everything else is made from.

Each game package declares one ``GameInfo`` in ``domain/<game>/catalog.py`` (exported as ``CATALOG``): its API
name, title, seat range, options (type, default, label, help, choices), AI levels, a short summary of the rules in
our words, and examples of its notation. The API's validation of players and options, the OpenAPI document, the
lobby's form, the page titles and the README's games table are all derived from it: no game fact is typed twice.

Option types (``Option.type``):

``bool``    ``true``/``false``
``choice``  one of ``choices`` (strings)
``count``   a positive integer, or ``null`` for "none" (``max_plies``)
``int``     a whole number, 0 or more
``text``    a string, or ``null`` (long data such as a card list: the API's, not the lobby's)
``object``  a JSON object, or ``null`` (a board: the API's, not the lobby's); the game checks its content
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.text import Text

MAX_PLIES = 100_000
"""The largest ``max_plies``: far beyond any real game, small enough for every counter that holds it."""
MAX_AMOUNT = 1_000
"""The largest amount option (money, prices, cards held): any larger makes no playable game."""
MAX_TEXT = 60_000
"""The longest ``text`` option (a card list)."""

LEVELS = ("easy", "normal", "hard")
"""The AI levels a game may offer (``GameInfo.levels``; the players themselves are ``domain/ai/``)."""

OptionType = Literal["bool", "choice", "count", "int", "text", "object"]
FORM_TYPES = ("bool", "choice", "count", "int")
"""The option types a form offers; ``text`` and ``object`` options are set through the API."""


class Choice(msgspec.Struct, frozen=True):
    """One value of a ``choice`` option and how a form shows it."""

    value: str
    label: str


class Option(msgspec.Struct, frozen=True, omit_defaults=True):
    """One option of a game: its name in ``options``, type, default, a form label and a longer help text."""

    name: str
    type: OptionType
    default: Any
    label: str
    help: str = ""
    choices: tuple[Choice, ...] | None = None
    maximum: int | None = None  # the largest ``count``/``int`` (what the game stores and computes with)
    max_length: int | None = None  # the longest ``text``

    def problem(self, value: Any) -> Text | None:
        """Why ``value`` is not a value of this option ("must be …"), or None if it is one."""
        shown = repr(value)[:60]
        if self.type == "bool":
            return None if isinstance(value, bool) else Text("must be true or false, not {value}", value=shown)
        if self.type == "choice":
            values = [c.value for c in self.choices or ()]
            if value in values:
                return None
            return Text("must be one of {choices}, not {value}", choices=", ".join(f'"{v}"' for v in values),
                        value=shown)
        whole = isinstance(value, int) and not isinstance(value, bool)
        top = self.maximum
        if self.type == "count":
            if value is None or (whole and 0 < value <= (top or value)):
                return None
            if top:
                return Text("must be a positive integer of at most {top} or null, not {value}", top=top,
                            value=shown)
            return Text("must be a positive integer or null, not {value}", value=shown)
        if self.type == "int":
            if whole and 0 <= value <= (value if top is None else top):
                return None
            if top is not None:
                return Text("must be a whole number from 0 to {top}, not {value}", top=top, value=shown)
            return Text("must be a whole number from 0 or more, not {value}", value=shown)
        if self.type == "text":
            if value is not None and not isinstance(value, str):
                return Text("must be text or null, not {value}", value=shown)
            if value is not None and self.max_length is not None and len(value) > self.max_length:
                return Text("must be at most {limit} characters, not {length}", limit=self.max_length,
                            length=len(value))
            return None
        if value is None or isinstance(value, dict):
            return None
        return Text("must be an object or null, not {value}", value=shown)


class Notation(msgspec.Struct, frozen=True):
    """An example command of the game's notation and what it does."""

    move: str
    meaning: str = ""


class GameInfo(msgspec.Struct, frozen=True):
    """A game as the catalog describes it (``GET /api/catalog``)."""

    name: str
    title: str
    seats: tuple[int, int]
    levels: tuple[str, ...]
    options: tuple[Option, ...]
    rules: str
    seats_note: str = ""
    notation: tuple[Notation, ...] = ()

    def defaults(self) -> dict[str, Any]:
        """Every option's default, by name."""
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        """The option ``name``; ``KeyError`` if the game has none of that name."""
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def seat_range(self) -> str:
        """"2", "2 to 4": the number of seats in words."""
        low, high = self.seats
        return str(low) if low == high else f"{low} to {high}"


def to_builtins(info: GameInfo) -> dict[str, Any]:
    """The catalog entry of ``info`` as JSON-ready builtins (``GET /api/catalog``)."""
    return msgspec.to_builtins(info)
