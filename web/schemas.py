"""Request bodies of the API as msgspec types: validation, messages said from the types (``services/declared.py``),
and the OpenAPI document."""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any, Literal

import msgspec
from flask import request

from domain import registry
from domain.text import Text
from services import bounds, declared, errors
from services.games.players import LEVELS, Player
from services.people.chat import ROOMS
from web.bridge import BODY
from web.i18n import LANGUAGES


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


# -- the bodies of accounts, meeting people, learning, mail (``request_body``'s ``refused``: their routes answer
# 422 naming the field, the meeting routes 400 for a field they do not take); the services check the values.

class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    """Sign up or in."""
    username: str
    password: str


class PasskeyOptionsRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Signed out: the username of the account a new passkey makes; signed in: no field (the account's)."""
    username: str | None = None


class NewPassword(msgspec.Struct, forbid_unknown_fields=True):
    password: str
    current_password: str | None = None  # required when the account has a password


class Language(msgspec.Struct, forbid_unknown_fields=True):
    """The language picked with the page's switch, kept for the account."""

    lang: Literal[LANGUAGES]


class TutorialProgress(msgspec.Struct, forbid_unknown_fields=True):
    """A tutorial step done."""
    step: int  # its index, from 0


class DeckAnswer(msgspec.Struct, forbid_unknown_fields=True):
    """A review's answer."""
    move: str  # in the game's notation, at most 200 characters


class EmailAddress(msgspec.Struct, forbid_unknown_fields=True):
    email: str


class LinkToken(msgspec.Struct, forbid_unknown_fields=True):
    token: str  # from a mailed, signed and expiring link


class NewPasswordByLink(msgspec.Struct, forbid_unknown_fields=True):
    token: str
    password: str


class Vacation(msgspec.Struct, forbid_unknown_fields=True):
    on: bool


# A room's name is checked by the chat (400 for another): the type documents the two.
Room = Annotated[str, msgspec.Meta(extra_json_schema={"enum": list(ROOMS)})]


class ChatMessage(msgspec.Struct, forbid_unknown_fields=True):
    text: str  # at most 140 characters
    room: Room = "players"


class ChatReport(msgspec.Struct, forbid_unknown_fields=True):
    room: Room
    id: str  # the message's id


class GameRequest(msgspec.Struct, forbid_unknown_fields=True):
    """What a seek or a challenge asks for (checked against the game's catalog entry)."""
    game: str
    options: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None


class SeekRequest(GameRequest, forbid_unknown_fields=True):
    seats: int | None = None  # the game's fewest by default
    rating_range: list[float] | None = None  # [lowest, highest] of the opponents' ratings
    rated: bool = True  # an account's seek is rated unless false; a guest's never
    name: str | None = None  # a guest's name (a guest session is made for it)


class ChallengeRequest(GameRequest, forbid_unknown_fields=True):
    to: str | None = None  # a username; without it, an invite anyone may accept at its url
    side: int | str = "random"  # the challenger's seat, 0 or 1, or "random"
    name: str | None = None  # a guest's name, for a guest's invite


class GuestName(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None  # a guest accepting an invite (an account sends no body)


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
    bound = nesting(kind)
    if (bound is None or bound > MAX_DEPTH) and _deeper_than(value, MAX_DEPTH):
        raise ValueError(Text("the request body is nested too deep"))
    return value


@functools.cache
def nesting(kind: Any) -> int | None:
    """How deep a value decoded as ``kind`` can nest objects and arrays (0: a scalar), or None when the type leaves
    it open (``Any`` inside, a recursive type): only then is the decoded value walked (``_deeper_than``). A
    command's body (``Command``) nests one deep."""
    return _nesting(msgspec.inspect.type_info(kind), frozenset())


def _nesting(t: msgspec.inspect.Type, within: frozenset) -> int | None:
    mi = msgspec.inspect
    if isinstance(t, mi.Metadata):
        return _nesting(t.type, within)
    if isinstance(t, mi.AnyType):
        return None
    if isinstance(t, mi.UnionType | mi.TupleType):
        inner = [_nesting(x, within) for x in (t.types if isinstance(t, mi.UnionType) else t.item_types)]
        return None if None in inner else (isinstance(t, mi.TupleType)) + max(inner, default=0)
    if isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType | mi.DictType):
        inner = _nesting(t.value_type if isinstance(t, mi.DictType) else t.item_type, within)
        return None if inner is None else 1 + inner
    if isinstance(t, mi.StructType | mi.TypedDictType | mi.DataclassType | mi.NamedTupleType):
        if t.cls in within:  # a type inside itself: as deep as a client likes
            return None
        inner = [_nesting(f.type, within | {t.cls}) for f in t.fields]
        return None if None in inner else 1 + max(inner, default=0)
    return 0


def _refusal(body: bytes, kind: Any, error: msgspec.ValidationError) -> ValueError:
    """Why the body is not a ``kind``, said from the type (``services/declared.py``): the body is read again as
    plain JSON to find the value msgspec refused (one nested too deep is refused for that first)."""
    try:
        value = json.loads(body)  # the standard library's reader: it reads what msgspec reads, and more (1e400)
    except RecursionError:
        return ValueError(Text("the request body is nested too deep"))
    except ValueError:
        return ValueError(Text("the request body is not valid JSON"))
    if _deeper_than(value, MAX_DEPTH):
        return ValueError(Text("the request body is nested too deep"))
    return declared.refusal(kind, value, error)


def request_body(kind: Any = dict[str, Any], empty_ok: bool = False,
                 refused: type[errors.ServiceError] = errors.BadRequest,
                 unknown: type[errors.ServiceError] | None = None):
    """The current request's body decoded as ``kind`` (``decode``); an empty body is ``{}`` when ``empty_ok``.

    A body that is no JSON object is a 400; one that does not fit ``kind`` is a ``refused`` naming the field (400
    by default: the accounts' routes answer 422), or an ``unknown`` for a field ``kind`` does not have (as
    ``refused`` unless given: the meeting routes answer 400 for it, 422 for a value)."""
    raw = request.environ.get(BODY)  # as the front read it (``web/bridge.py``); else (no front) Flask's
    if raw is None:
        raw = request.get_data()
    if not raw and empty_ok:
        raw = b"{}"
    try:
        return decode(raw, kind)
    except declared.Refused as exc:
        error = unknown if exc.unknown and unknown is not None else refused
        raise error(exc.text, **({"field": exc.field} if exc.field else {})) from None
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
