"""Bounds on what a client sends, checked before any game code or store sees it: each a 422 naming the field.

* JSON values (``options``, ``position``): nesting at most ``MAX_DEPTH`` deep, at most ``MAX_NODES`` values in all,
  lists of at most ``MAX_LIST`` items, strings of at most ``MAX_TEXT`` characters, integers within ±``MAX_INT``
  (2⁵³ − 1: what a JSON number holds exactly in every client, far inside what Redis, Lua and msgpack store);
  the game's own checks then bound what it computes with (``max_plies``, board sizes: ``domain/*/catalog.py``).
* Names: letters, marks, digits, spaces, punctuation and symbols; no control, format (bidirectional overrides,
  zero-width characters), separator other than the plain space, private-use or unassigned characters; no two
  spaces in a row; NFC-normalised; never ending like an AI's rating line (``" (hard AI)"``).
* Game ids: exactly the form ``new_game_id()`` makes (``services/store/streams.py``), wherever an id comes in.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from domain.text import Text
from services import errors

MAX_DEPTH = 12
MAX_NODES = 20_000
MAX_LIST = 2_000
MAX_TEXT = 60_000
MAX_INT = 2**53 - 1
MAX_SEED = MAX_INT
MAX_MOVE = 200  # characters of one command in notation
MAX_COMMAND_ID = 128
MAX_VERSION = 2**63 - 1  # stream IDs are 64-bit: a larger number is no version of any game (and Redis refuses it)

GAME_ID = re.compile(r"[0-9a-f]{12}\Z")
STREAM_ID = re.compile(r"([0-9]{1,20})-([0-9]{1,20})\Z")  # ASCII digits only: str.isdigit() takes "²" and "١"
MAX_STREAM_PART = 2**64 - 1  # each half of a Redis stream id is an unsigned 64-bit number
AI_SUFFIX = re.compile(r"\(\s*[^()]*\bai\s*\)\s*\Z", re.IGNORECASE)
REFUSED_CATEGORIES = ("C", "Z")  # control, format, surrogate, private use, unassigned; separators but " "


def unprocessable(field: str, message: str) -> errors.Unprocessable:
    return errors.Unprocessable(Text("{field}: {message}", field=field, message=message), field=field)


def is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: JSON's ``\\ud800`` escapes decode to lone surrogates, which no UTF-8
    (Redis, a hash, a log line) can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_unicode(value: Any, field: str) -> None:
    """A 422 naming ``field`` when ``value`` is a string that is not valid Unicode (anything else passes here)."""
    if isinstance(value, str) and not is_unicode(value):
        raise errors.Unprocessable(Text("{field}: not valid Unicode (a lone surrogate)", field=field), field=field)


def check_json(value: Any, field: str) -> None:
    """Refuse a JSON value (decoded) beyond the bounds above; iterative, so no depth can exhaust the stack."""
    stack = [(value, field, 1)]
    nodes = 0
    while stack:
        item, where, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise unprocessable(field, f"too large: at most {MAX_NODES} values in all")
        if depth > MAX_DEPTH:
            raise unprocessable(where, f"nested too deep: at most {MAX_DEPTH} levels")
        if isinstance(item, dict):
            if len(item) > MAX_LIST:
                raise unprocessable(where, f"at most {MAX_LIST} fields")
            for key, sub in item.items():
                if not isinstance(key, str) or len(key) > 100:
                    raise unprocessable(where, "field names are strings of at most 100 characters")
                check_unicode(key, where)
                stack.append((sub, f"{where}.{key}", depth + 1))
        elif isinstance(item, list):
            if len(item) > MAX_LIST:
                raise unprocessable(where, f"at most {MAX_LIST} items, not {len(item)}")
            stack.extend((sub, f"{where}[{i}]", depth + 1) for i, sub in enumerate(item))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                raise unprocessable(where, f"must be between {-MAX_INT} and {MAX_INT}")
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")) or abs(item) > MAX_INT:
                raise unprocessable(where, f"must be a number between {-MAX_INT} and {MAX_INT}")
        elif isinstance(item, str):
            if len(item) > MAX_TEXT:
                raise unprocessable(where, f"at most {MAX_TEXT} characters")
            check_unicode(item, where)
        else:
            raise unprocessable(where, f"not a JSON value: {type(item).__name__}")


def is_stream_id(value: Any) -> bool:
    """Whether ``value`` is a Redis stream id (``<ms>-<seq>``, each at most 2⁶⁴ − 1): one that Redis refuses would
    be its error, a 500, instead of the client's."""
    found = STREAM_ID.match(value) if isinstance(value, str) else None
    return found is not None and all(int(part) <= MAX_STREAM_PART for part in found.groups())


def check_int(value: Any, field: str, low: int, high: int) -> int:
    """``value`` if it is an integer from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise unprocessable(field, f"must be an integer from {low} to {high}, not {value!r}")
    return value


def parse_int(raw: str | None, name: str, minimum: int = 0, maximum: int = MAX_VERSION) -> int | None:
    """The integer a query or header argument ``name`` spells (None when absent); ``errors.BadRequest`` naming it
    otherwise. The one reader of integers (versions, counts, positions) in a request's text."""
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise errors.BadRequest(Text("{name}: must be an integer, not {raw}", name=name, raw=repr(raw))) from None
    if value < minimum:
        raise errors.BadRequest(Text("{name}: must be at least {minimum}", name=name, minimum=minimum))
    if value > maximum:
        raise errors.BadRequest(Text("{name}: must be at most {max_version}", name=name, max_version=maximum))
    return value


def check_name(name: Any, field: str, max_length: int = 40) -> str:
    """The name, stripped and NFC-normalised, if a person may be called that; else a 422 naming ``field``."""
    if not isinstance(name, str) or not name.strip():
        raise unprocessable(field, "a non-empty name is required")
    name = unicodedata.normalize("NFC", name.strip(" "))
    if len(name) > max_length:
        raise unprocessable(field, f"at most {max_length} characters")
    for ch in name:
        if ch != " " and unicodedata.category(ch)[0] in REFUSED_CATEGORIES:
            raise unprocessable(field, f"letters, digits, spaces and punctuation only, not U+{ord(ch):04X} "
                                       f"({unicodedata.name(ch, 'a control or invisible character').lower()})")
    if "  " in name:
        raise unprocessable(field, "no two spaces in a row")
    if AI_SUFFIX.search(name):
        raise unprocessable(field, "a name ending in \"(… AI)\" is reserved for the AI players")
    return name


def is_game_id(gid: Any) -> bool:
    """Whether ``gid`` has the form of the ids the service makes (12 lower-case hex digits)."""
    return isinstance(gid, str) and GAME_ID.match(gid) is not None

