"""The command notation of docs/rules.md §4, both ways: ``roll``, ``map 4``, ``commit 1``, ``challenge 2``…"""

from __future__ import annotations

from typing import NamedTuple

from domain.base import BadNotation
from domain.text import Text

WORDS = ("roll", "buy weapon", "buy accessory", "done", "no challenge", "swap", "stay", "pay", "retreat",
         "use accessory", "accept")
"""Commands without a number."""

NUMBERED = {"map": "squares", "challenge": "seat", "commit": "weapons"}
"""Commands followed by a number, and what the number means."""


class Command(NamedTuple):
    """A parsed command: ``verb`` (one of ``WORDS`` or ``NUMBERED``) and its number, if any."""

    verb: str
    number: int | None = None


def parse(text: str) -> Command:
    """The command written as ``text`` (case and spacing are forgiven); ``BadNotation`` otherwise."""
    if not isinstance(text, str):
        raise BadNotation(Text("a command is a text such as 'roll' or 'commit 1'"))
    words = text.lower().split()
    joined = " ".join(words)
    if joined in WORDS:
        return Command(joined)
    if words and words[0] in NUMBERED:
        what = NUMBERED[words[0]]
        if len(words) != 2 or not words[1].isdigit() or not words[1].isascii():
            raise BadNotation(Text("'{words}' takes one number ({what}), e.g. '{words} 1'",
                                   words=words[0], what=what))
        return Command(words[0], int(words[1]))
    known = ", ".join([*WORDS, *(f"{verb} N" for verb in NUMBERED)])
    raise BadNotation(Text("'{text}' is not a Mission commando command (known: {known})", text=text, known=known))


def format(command: Command) -> str:
    """The canonical text of ``command``."""
    return command.verb if command.number is None else f"{command.verb} {command.number}"
