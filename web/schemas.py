"""Request bodies of the API as msgspec types: validation, clear messages, and the OpenAPI document."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

import msgspec
from flask import request

from domain import registry
from domain.text import Text
from services import bounds, errors


def levels() -> list[str]:
    """Every AI level some game of the catalog offers, in catalog order."""
    return list(dict.fromkeys(level for info in registry.catalog() for level in info.levels))


# A player is decoded as an object and nothing more: the service checks players once, against the game's catalog
# entry (``services/games/commands.py``). The schema below only documents them (OpenAPI), from that same catalog.
Player = Annotated[dict[str, Any], msgspec.Meta(
    title="Player",
    description='A seat: {"name", "ai"?} (a person, or an AI of that level), or {"open": true} (a seat left open '
                "for anyone to take, POST /api/games/<gid>/seats/<seat>).",
    extra_json_schema={"properties": {"name": {"type": "string"},
                                      "ai": {"anyOf": [{"enum": levels()}, {"type": "null"}]},
                                      "open": {"type": "boolean"}}})]


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, msgspec.Meta(description="a game's name in GET /api/catalog",
                                      extra_json_schema={"examples": [i.name for i in registry.catalog()]})]
    players: list[Player]
    options: Annotated[dict[str, Any], msgspec.Meta(
        description="the game's options (each one's type, default, choices and meaning: GET /api/catalog): "
                    + "; ".join(f"{i.name}: {', '.join(o.name for o in i.options) or 'none'}"
                                for i in registry.catalog()))] = {}
    seed: int | None = None
    position: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    """``{"initial": s, "increment": s}`` (Fischer) or ``{"per_move": s}`` (correspondence)."""


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    """None: the signed-in account takes the seat."""


class Command(msgspec.Struct, forbid_unknown_fields=True):
    move: Annotated[str, msgspec.Meta(max_length=bounds.MAX_MOVE)]
    expected_version: Annotated[int, msgspec.Meta(ge=0, le=bounds.MAX_VERSION)] | None = None
    command_id: Annotated[str, msgspec.Meta(max_length=bounds.MAX_COMMAND_ID)] | None = msgspec.field(default=None)


MAX_DEPTH = 64
"""How deep a request body may nest objects and arrays: deeper is refused (400) before any route reads it (a
recursive reader of the value, ours or a library's, would otherwise run out of stack: a 500)."""


def decode(body: bytes, kind: Any = dict[str, Any]):
    """The body decoded as ``kind`` (by default: any JSON object); ``ValueError`` with a message naming the field
    otherwise (a ``Text``: said in the reader's language). The one parser of request bodies."""
    if not body:
        raise ValueError(Text("the request body must be a JSON object"))
    if kind == dict[str, Any]:  # an open object, its fields checked by the route: the standard library's reader,
        try:                    # which keeps a lone surrogate for the route to name (msgspec refuses the body)
            value = json.loads(body)
        except RecursionError:
            raise ValueError(Text("the request body is nested too deep")) from None
        except ValueError:
            raise ValueError(Text("the request body is not valid JSON")) from None
        if not isinstance(value, dict):
            raise ValueError(Text("the request body must be a JSON object"))
        if _deeper_than(value, MAX_DEPTH):
            raise ValueError(Text("the request body is nested too deep"))
        return value
    try:
        value = msgspec.json.decode(body, type=kind)
    except msgspec.ValidationError as exc:
        raise ValueError(_wording(str(exc))) from exc
    except msgspec.DecodeError:
        raise ValueError(Text("the request body is not valid JSON")) from None
    except RecursionError:
        raise ValueError(Text("the request body is nested too deep")) from None
    if _deeper_than(value, MAX_DEPTH):
        raise ValueError(Text("the request body is nested too deep"))
    return value


def request_body(kind: Any = dict[str, Any], empty_ok: bool = False):
    """The current request's body decoded as ``kind`` (``decode``); ``errors.BadRequest`` (400) otherwise. An
    empty body is ``{}`` when ``empty_ok``."""
    raw = request.get_data()
    if not raw and empty_ok:
        return {}
    try:
        return decode(raw, kind)
    except ValueError as exc:
        raise errors.BadRequest(exc.args[0]) from None


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests objects or arrays (or structs) more than ``limit`` deep; without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        elif isinstance(item, msgspec.Struct):
            children = [getattr(item, name) for name in item.__struct_fields__]
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


# msgspec's own words for what it refuses, and ours (the field leads: "players: expected array, got str").
_PROBLEMS = (
    (re.compile(r"Expected `(\w+)`, got `(\w+)`"),
     lambda m: Text("expected {expected}, got {got}", expected=m[1], got=m[2])),
    (re.compile(r"Expected `(\w+)` of length <= (\d+)"),
     lambda m: Text("expected {expected} of length at most {limit}", expected=m[1], limit=int(m[2]))),
    (re.compile(r"Expected `(\w+)` >= (-?\d+)"),
     lambda m: Text("expected {expected} of at least {limit}", expected=m[1], limit=int(m[2]))),
    (re.compile(r"Expected `(\w+)` <= (-?\d+)"),
     lambda m: Text("expected {expected} of at most {limit}", expected=m[1], limit=int(m[2]))),
    (re.compile(r"Object missing required field `(.+)`"),
     lambda m: Text("the field {name} is missing", name=m[1])),
    (re.compile(r"Object contains unknown field `(.+)`"), lambda m: Text("unknown field {name}", name=m[1])),
)


def _wording(message: str) -> str:
    """msgspec's "Expected `str`, got `int` - at `$.players[0].name`" as "players[0].name: expected str, got
    int"."""
    text, _, where = message.partition(" - at `$.")
    problem: str = text[0].lower() + text[1:]
    for pattern, words in _PROBLEMS:
        if found := pattern.fullmatch(text):
            problem = words(found)
            break
    return Text("{field}: {message}", field=where.rstrip("`"), message=problem) if where else problem
