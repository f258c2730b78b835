"""Commands of Mouse Guard and their notation (docs/rules.md §2 "Notation"), both ways.

``place b2 c3 d2 e3`` · ``c3-c4`` · ``c3-c4 sword c5 d5`` · ``c3-c4 stronghold C4`` · ``c3-c4 diplomacy e6`` ·
``c3-c4 diplomacy D5 e6`` · ``exit D5 d6`` · ``rescue c2`` · ``pass sword``.

Extension for option ``exit_extra_step`` (MG-13): the exit names the extra step's point after the corner,
``exit D5 d6 e6`` (leave D5 onto d6, then step to e6). Placements are a set: ``parse`` sorts their points
canonically (by column, then row), so ``place c3 b2 d2 e3`` means ``place b2 c3 d2 e3``.
"""

from __future__ import annotations

import re

import msgspec

from domain.base import BadNotation
from domain.mouseguard.board import LOCATIONS, point_sort_key
from domain.mouseguard.cards import CARDS
from domain.text import Text

_POINT = re.compile(r"[a-g][1-9]")
_SQUARE = re.compile(r"[A-F][1-8]")
_STEP = re.compile(r"([a-g][1-9])-([a-g][1-9])")


class Place(msgspec.Struct, frozen=True):
    """MG-4: the secret setup, points in canonical order."""

    points: tuple[str, ...]


class Turn(msgspec.Struct, frozen=True):
    """MG-6 (a): a step, then optionally one card on the moved mouse with its notation arguments."""

    frm: str
    to: str
    card: str | None = None
    args: tuple[str, ...] = ()


class Exit(msgspec.Struct, frozen=True):
    """MG-13: leave the stronghold on ``square`` onto corner ``to`` (then ``step`` with exit_extra_step)."""

    square: str
    to: str
    step: str | None = None


class Rescue(msgspec.Struct, frozen=True):
    """MG-18: put a captured mouse back on ``at``."""

    at: str


class Pass(msgspec.Struct, frozen=True):
    """MG-6 (d): a forced pass, discarding ``card``."""

    card: str


Command = Place | Turn | Exit | Rescue | Pass
RESCUE_AFTER_MOVE = "rescue"  # a Turn's "card" when a rescue takes its place (option rescue_after_move)


def _point(token: str, what: str = "point") -> str:
    if not _POINT.fullmatch(token):
        raise BadNotation(Text("{token} is not a {what} (a point is a1–g9, lower case)",
                               token=repr(token), what=what))
    return token


def _square(token: str) -> str:
    if not _SQUARE.fullmatch(token):
        raise BadNotation(Text("{token} is not a square (A1–F8, upper case)", token=repr(token)))
    return token


def _card(token: str) -> str:
    if token not in CARDS:
        raise BadNotation(Text("{token} is not a card (sword, stronghold, diplomacy)", token=repr(token)))
    return token


def _arity(words: list[str], count: int | tuple[int, ...], example: str) -> None:
    counts = (count,) if isinstance(count, int) else count
    if len(words) - 1 not in counts:
        raise BadNotation(Text("expected {example}", example=repr(example)))


def _parse_card(card: str, args: list[str]) -> tuple[str, ...]:
    if card == "sword":
        if len(args) != 2:
            raise BadNotation(Text("a sword names the two points of its L: 'c3-c4 sword c5 d5'"))
        return _point(args[0]), _point(args[1])
    if card == "stronghold":
        if len(args) != 1:
            raise BadNotation(Text("a stronghold names its square: 'c3-c4 stronghold C4'"))
        return (_square(args[0]),)
    if len(args) == 1:
        if _SQUARE.fullmatch(args[0]):
            raise BadNotation(Text("a pull-out names the square and the corner: 'c3-c4 diplomacy D5 e6'"))
        return (_point(args[0]),)
    if len(args) == 2:
        return _square(args[0]), _point(args[1])
    raise BadNotation(Text("diplomacy names the enemy mouse: 'c3-c4 diplomacy e6' or 'c3-c4 diplomacy D5 e6'"))


def _rescue_after(frm: str, to: str, rest: list[str]) -> Turn | None:
    """MG-18 with option rescue_after_move: ``c3-c4 rescue c2``, the rescue in place of the card; None for a
    turn of another kind."""
    if rest[0] != RESCUE_AFTER_MOVE:
        return None
    if len(rest) != 2:
        raise BadNotation(Text("a rescue after the step names its point: 'c3-c4 rescue c2'"))
    return Turn(frm, to, RESCUE_AFTER_MOVE, (_point(rest[1]),))


def parse(text: str) -> Command:
    """The command written in ``text``; ``BadNotation`` if it is not Mouse Guard notation."""
    words = text.split()
    if not words:
        raise BadNotation(Text("empty command"))
    head = words[0]
    if head == "place":
        if len(words) < 2:
            raise BadNotation(Text("expected 'place' and four points, e.g. 'place b2 c3 d2 e3'"))
        points = (_point(word) for word in words[1:])
        return Place(tuple(sorted(points, key=lambda p: point_sort_key(LOCATIONS[p]))))
    if head == "exit":
        _arity(words, (2, 3), "exit D5 d6")
        return Exit(_square(words[1]), _point(words[2]), _point(words[3]) if len(words) == 4 else None)
    if head == "rescue":
        _arity(words, 1, "rescue c2")
        return Rescue(_point(words[1]))
    if head == "pass":
        _arity(words, 1, "pass sword")
        return Pass(_card(words[1]))
    step = _STEP.fullmatch(head)
    if not step:
        raise BadNotation(Text("{strip} is not a Mouse Guard command (e.g. 'c3-c4', 'c3-c4 sword c5 d5', 'exit "
                               "D5 d6', 'rescue c2', 'pass sword', 'place b2 c3 d2 e3')",
                               strip=repr(text.strip())))
    if len(words) == 1:
        return Turn(step[1], step[2])
    rescue = _rescue_after(step[1], step[2], words[1:])
    if rescue is not None:
        return rescue
    card = _card(words[1])
    return Turn(step[1], step[2], card, _parse_card(card, words[2:]))


def format(cmd: Command) -> str:
    """The canonical notation of a command."""
    match cmd:
        case Place(points=points):
            return " ".join(("place", *points))
        case Turn(frm=frm, to=to, card=card, args=args):
            return " ".join((f"{frm}-{to}", card, *args)) if card else f"{frm}-{to}"
        case Exit(square=square, to=to, step=step):
            return " ".join(("exit", square, to) + ((step,) if step else ()))
        case Rescue(at=at):
            return f"rescue {at}"
        case Pass(card=card):
            return f"pass {card}"
    raise TypeError(f"not a Mouse Guard command: {cmd!r}")
