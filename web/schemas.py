"""Request bodies of the API as msgspec types: validation, messages said from the types (``services/declared.py``),
and the OpenAPI document."""

from __future__ import annotations

import json
from typing import Annotated, Any

import msgspec
from flask import request

from domain import registry
from domain.text import Text
from services import bounds, declared, errors
from services.games.players import LEVELS, Player


def levels() -> list[str]:
    """Every AI level some game of the catalog offers, in catalog order."""
    return list(LEVELS)


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, msgspec.Meta(description="a game's name in GET /api/catalog",
                                      extra_json_schema={"examples": [i.name for i in registry.catalog()]})]
    players: Annotated[list[Player], msgspec.Meta(
        description="one per seat, in seat order: a person, an AI of a level the game offers, a seat left open, "
                    "or the signed-in account's (GET /api/catalog: each game's seats and levels)")]
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
        raise _refusal(body, kind, exc) from None
    except msgspec.DecodeError:
        raise ValueError(Text("the request body is not valid JSON")) from None
    except RecursionError:
        raise ValueError(Text("the request body is nested too deep")) from None
    if _deeper_than(value, MAX_DEPTH):
        raise ValueError(Text("the request body is nested too deep"))
    return value


def _refusal(body: bytes, kind: Any, error: msgspec.ValidationError) -> ValueError:
    """Why the body is not a ``kind``, said from the type (``services/declared.py``): the body is read again as
    plain JSON to find the value msgspec refused (one nested too deep is refused for that first)."""
    try:
        value = json.loads(body)  # the standard library's reader: it reads what msgspec reads, and more (1e400)
    except RecursionError:
        return ValueError(Text("the request body is nested too deep"))
    if _deeper_than(value, MAX_DEPTH):
        return ValueError(Text("the request body is nested too deep"))
    return declared.refusal(kind, value, error)


def request_body(kind: Any = dict[str, Any], empty_ok: bool = False):
    """The current request's body decoded as ``kind`` (``decode``); ``errors.BadRequest`` (400) otherwise. An
    empty body is ``{}`` when ``empty_ok``."""
    raw = request.get_data()
    if not raw and empty_ok:
        return {}
    try:
        return decode(raw, kind)
    except declared.Refused as exc:
        raise errors.BadRequest(exc.text, **({"field": exc.field} if exc.field else {})) from None
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
