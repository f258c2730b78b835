"""The shape every game module shares (the functional "decider") and its errors.

A game module (``domain/murus/``, ``domain/mouseguard/``, ...) exposes, at module level:

``NAME``                       the game's name in the API (``"murus"``)
``SEATS``                      ``(min, max)`` number of seats
``EVENTS``                     tuple of its event classes (``Event`` subclasses, one tag each)
``initial(setup, rng)``        the events that create a game (``GameCreated`` first; deck shuffles, colours…)
``evolve(state, event)``       the next state; ``state`` is ``None`` before the first event. Pure: never
                               mutates its input, never rolls dice, never reads a clock.
``decide(state, seat, cmd, rng)``  the events a command produces; raises ``IllegalMove`` with the reason.
``to_act(state)``              seats that may send a command now (several during simultaneous phases)
``legal(state, seat)``         every legal command of that seat, in notation (empty when not to act); a command
                               whose number is chosen in a range is one entry ``verb a..b`` (``commit 0..5``:
                               ``commit 0`` … ``commit 5``, see ``commands``), not one entry per number
``status(state)``              ``"setup"`` | ``"playing"`` | ``"finished"``
``result(state)``              ``None`` or ``{"winners": [seats], "reason": "...", "termination": "rules" |
                               "max_plies"}`` (a draw: no winners; see ``Result``)
``view(state, viewer)``        JSON-ready dict of what ``viewer`` may see (see ``Viewer``)
``redact(event, viewer)``      the event as ``viewer`` may see it (hidden fields set to ``None``)
``describe(event)``            one readable line for a move list ("Romans: a1-a3")
``parse(text)`` / ``format(cmd)``  the notation of docs/rules.md, both ways; ``parse`` raises ``BadNotation``
``dump_position(state)``       the position JSON of docs/rules.md
``render(state)``              a plain-text board for the terminal (``burrow replay``)

``initial`` validates ``setup`` (seat count, options, position) and raises ``BadSetup`` naming the field.
``evolve`` raises ``BadEvent`` (and nothing else) for an event that is not the game's, malformed or out of place.

``Decider`` below is this shape as a ``typing.Protocol``, generic over the game's state type; a game module
satisfies it (a module is an instance of a protocol whose members are its functions and constants), and
``decider_problems(module)`` checks one at run time (``tests/domain/test_conformance.py`` checks every registered
game). Every game package has one layout: ``events.py``; ``state.py`` (``State`` and ``evolve``); ``rules.py``
(``NAME``, ``SEATS``, ``OPTIONS``, ``initial``, ``decide``, ``legal``, ``to_act``, ``status``, ``result``);
``notation.py``; ``position.py``; ``view.py`` (``view``, ``redact``, ``describe``, ``render``); ``catalog.py``;
modules of its own beside them (bitboards, card data, a turn's flow …).
"""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol, TypedDict, TypeVar

import msgspec

from domain.catalog import Option
from domain.text import Text, match_plural, plain

REVEAL_ALL: Literal["all"] = "all"
"""Viewer that sees everything: finished games, the CLI, tests. Never given to a player or an AI."""

Viewer = int | None | Literal["all"]
"""A seat number, ``None`` for a spectator, or ``REVEAL_ALL``."""


RULES: Literal["rules"] = "rules"
"""``result.termination`` of a game that ended by its own rules (a win, a loss, a draw the rules declare)."""
MAX_PLIES: Literal["max_plies"] = "max_plies"
"""``result.termination`` of a game stopped by the ``max_plies`` option (a server limit, not a rule)."""
TERMINATIONS = (RULES, MAX_PLIES, "resigned", "draw_agreed", "timeout", "aborted", "abandoned")
"""Every kind of ``result.termination`` (docs/api.md, "Tables"): the deciders end games by ``rules`` or
``max_plies``; the platform's table commands and clocks add the others on top of a game."""


class Result(TypedDict):
    """What ``result(state)`` returns once a game is over: ``winners`` (seats; empty for a draw or no result),
    ``reason`` (a sentence) and ``termination`` (one of ``TERMINATIONS``)."""

    winners: list[int]
    reason: str
    termination: str


def limit_reached(plies: int) -> Text:
    """The reason of a draw by the ``max_plies`` limit (in players' words: moves, not plies)."""
    return Text.plural("Draw: the limit of {n} move was reached", "Draw: the limit of {n} moves was reached",
                       n=plies)


def read_limit_reached(reason: str) -> Text | None:
    """``limit_reached``'s reason read back from its English (a stored ``game_ended`` event; games stored before
    it said "ply" read as it says now), else None."""
    found = limit_reached(0)
    now = _OLD_LIMIT.sub(lambda m: f"{m[1]} {'move' if m[2] == 'ply' else 'moves'} was reached", reason)
    return match_plural(now, found.id, found.plural_id)


_OLD_LIMIT = re.compile(r"\b(\d+) (ply|plies) was reached$")


def plain_result(result: Result | None) -> Result | None:
    """A result for a view (JSON): its reason as plain English (the document's ``result`` says it)."""
    return None if result is None else {**result, "reason": str(result["reason"])}


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
    """A user mistake, with a sentence that explains it (a ``domain.text.Text``, said in the reader's language by
    the web layer; ``str(error)`` is its English)."""

    @property
    def text(self) -> Text:
        return plain(self.args[0] if self.args else "")


class BadNotation(DomainError):
    """The text is not a command of this game's notation (HTTP 400)."""


class IllegalMove(DomainError):
    """A well-formed command that the rules forbid now (HTTP 422)."""


class OutOfTurn(DomainError):
    """A move of a seat that is not to act, or of any seat once the game is over (HTTP 403)."""


class BadEvent(DomainError):
    """An event ``evolve`` cannot apply: not one of the game's event types, malformed (a field of the wrong type,
    a cell or card that does not exist), or contradicting the state it is folded into (a card the hand does not
    hold, a move from an empty cell). Every game's ``evolve`` raises this and nothing else for a bad event; the
    events a ``decide`` returns never raise it. A stored stream that raises it is corrupt or from another game."""


class BadSetup(DomainError):
    """Bad seat count, option or position (HTTP 422); ``field`` names the culprit."""

    def __init__(self, field: str, message: str):
        super().__init__(Text("{field}: {message}", field=field, message=message))
        self.field = field


Rng = random.Random


def event_type(event: Event) -> str:
    """The snake_case tag of an event."""
    return event.__struct_config__.tag  # type: ignore[return-value]


def event_data(event: Event) -> dict[str, Any]:
    """An event's fields as JSON-ready builtins, without the tag."""
    data = msgspec.to_builtins(event, enc_hook=str)  # a Text (``domain/text.py``) is kept as its English
    data.pop("type", None)
    return data


def check_options(options: dict[str, Any], specs: Sequence[Option]) -> dict[str, Any]:
    """Options merged over their defaults; unknown names or values the option's type refuses raise ``BadSetup``.

    ``specs`` are the game's options as its catalog declares them (``CATALOG.options``, ``domain/catalog.py``).
    """
    if not isinstance(options, dict):
        raise BadSetup("options", Text("must be an object, not {value}", value=repr(options)[:60]))
    by_name = {spec.name: spec for spec in specs}
    merged = {spec.name: spec.default for spec in specs}
    for name, value in options.items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise BadSetup(f"options.{name}", Text("unknown option (known: {known})", known=known))
        problem = spec.problem(value)
        if problem:
            raise BadSetup(f"options.{name}", problem)
        merged[name] = value
    return merged


StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")


class Decider(Protocol[StateT, CommandT]):
    """The shape of a game module, generic over its state type and its parsed command type."""

    NAME: str
    SEATS: tuple[int, int]
    OPTIONS: dict[str, Any]
    EVENTS: tuple[type[Event], ...]

    def initial(self, setup: Setup, rng: Rng) -> list[Event]: ...
    def evolve(self, state: StateT | None, event: Event) -> StateT: ...
    def decide(self, state: StateT, seat: int, cmd: CommandT, rng: Rng) -> list[Event]: ...
    def to_act(self, state: StateT) -> list[int]: ...
    def legal(self, state: StateT, seat: int) -> list[str]: ...
    def status(self, state: StateT) -> str: ...
    def result(self, state: StateT) -> Result | None: ...
    def view(self, state: StateT, viewer: Viewer) -> dict[str, Any]: ...
    def redact(self, event: Event, viewer: Viewer) -> Event: ...
    def describe(self, event: Event) -> str: ...
    def parse(self, text: str) -> CommandT: ...
    def format(self, cmd: CommandT) -> str: ...
    def dump_position(self, state: StateT) -> dict[str, Any]: ...
    def render(self, state: StateT) -> str: ...


_RANGE = re.compile(r"(\S.*) (\d+)\.\.(\d+)\Z")


def commands(legal: Iterable[str]) -> list[str]:
    """Every command the entries of ``legal`` stand for, in order: an entry ``verb a..b`` (a number chosen in a
    range, as Mission commando's ``commit 0..5``) stands for ``verb a`` … ``verb b``, any other for itself. For
    tests and tools that try every command; a page shows a range as a number to choose."""
    out = []
    for entry in legal:
        found = _RANGE.match(entry)
        if found:
            out += [f"{found[1]} {n}" for n in range(int(found[2]), int(found[3]) + 1)]
        else:
            out.append(entry)
    return out


def allows(legal: Iterable[str], text: str) -> bool:
    """Whether ``text`` (in canonical notation) is one of the commands ``legal`` stands for (``commands``), without
    listing a range's."""
    verb, _, number = text.rpartition(" ")
    for entry in legal:
        if entry == text:
            return True
        found = _RANGE.match(entry)
        if found and found[1] == verb and number.isascii() and number.isdigit() and str(int(number)) == number \
                and int(found[2]) <= int(number) <= int(found[3]):
            return True
    return False


def decider_problems(module: Any) -> list[str]:
    """What keeps ``module`` from having the ``Decider`` shape (empty: none): a missing member, a constant of the
    wrong type, or a function whose positional parameters differ from the protocol's."""
    problems = []
    constants = {"NAME": str, "SEATS": tuple, "OPTIONS": dict, "EVENTS": tuple}
    for name, kind in constants.items():
        if not isinstance(getattr(module, name, None), kind):
            problems.append(f"{name} is missing or not a {kind.__name__}")
    if isinstance(getattr(module, "SEATS", None), tuple) and not (
            len(module.SEATS) == 2 and all(isinstance(n, int) for n in module.SEATS)
            and 1 <= module.SEATS[0] <= module.SEATS[1]):
        problems.append(f"SEATS must be (min, max) with 1 <= min <= max, not {module.SEATS!r}")
    for event in getattr(module, "EVENTS", None) or ():
        if not (isinstance(event, type) and issubclass(event, Event)):
            problems.append(f"EVENTS holds {event!r}, not an Event class")
    for name, member in vars(Decider).items():
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        function = getattr(module, name, None)
        if not callable(function):
            problems.append(f"{name}() is missing")
            continue
        wanted = list(inspect.signature(member).parameters)[1:]  # without self
        try:
            got = [p.name for p in inspect.signature(function).parameters.values()
                   if p.default is inspect.Parameter.empty
                   and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            continue  # a builtin without a signature
        if len(got) != len(wanted):
            problems.append(f"{name}({', '.join(got)}) should take ({', '.join(wanted)})")
    return problems
