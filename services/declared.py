"""Why a value does not fit a declared msgspec type, said from the type: the one wording of refused request bodies
(``web/schemas.py``) and of the players a service is handed as plain objects (``services/games/players.py``).

msgspec finds *where* a value goes wrong (its error's location, ``$.players[0].name``); the sentence is made
here from the type declared at that place (``msgspec.inspect.type_info``: its kind, its bounds, its fields) and the
value found there ("players[0].name: must be a text, not 5"), never from msgspec's English.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

import msgspec
import msgspec.inspect as mi

from domain.text import Text

T = TypeVar("T")

ABSENT = object()
"""The value at a place the body does not reach (a field it lacks, a key msgspec does not name)."""

_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
SHOWN = 60
"""At most this many characters of a refused value are shown."""
MIN_INT, MAX_INT = -(2**63), 2**64 - 1
"""The integers msgspec reads (64 bits, signed or not): an integer field refuses any beyond them."""


class Refused(ValueError):
    """A value that does not fit its declared type: ``text`` says why, ``field`` is where ("players[0].name"), or
    None for the value as a whole; ``unknown`` when it is a field the type does not have."""

    def __init__(self, text: Text, field: str | None, unknown: bool = False):
        super().__init__(text)
        self.text, self.field, self.unknown = text, field, unknown


def convert(value: Any, kind: type[T], name: str | None = None) -> T:
    """``value`` (plain JSON-like data) as ``kind``; ``Refused`` naming the field otherwise, its path starting at
    ``name`` (the value's own name, e.g. "players")."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as exc:
        raise refusal(kind, value, exc, name) from None


def refusal(kind: Any, value: Any, error: msgspec.ValidationError, name: str | None = None) -> Refused:
    """Why ``value`` is not a ``kind``, as msgspec's ``error`` locates it: said from the type at that place."""
    steps = location(error)
    info, found = mi.type_info(kind), value
    for step in steps:
        info = _container(info, step)
        if step is Ellipsis or found is ABSENT:
            found = ABSENT
        elif isinstance(step, int):
            found = found[step] if isinstance(found, list) and step < len(found) else ABSENT
        else:
            found = found.get(step, ABSENT) if isinstance(found, dict) else ABSENT
        info = _element(info, step)
    where = _path(name, steps)
    struct = _container(info, "") if isinstance(found, dict) else _plain(info)  # of a union, its struct
    if isinstance(struct, mi.StructType) and isinstance(found, dict):
        known = [f.encode_name for f in struct.fields]
        if struct.forbid_unknown_fields:
            for key in found:
                if key not in known:
                    field = _path(where, [key[:SHOWN]])
                    return Refused(Text("{field}: {message}", field=field, message=Text(
                        "unknown field (known: {fields})", fields=", ".join(known))), field, unknown=True)
        for f in struct.fields:
            if f.required and f.encode_name not in found:
                return _refused(where, Text("the field {name} is missing", name=f.encode_name),
                                _path(where, [f.encode_name]))
    return _refused(where, problem(info, found), where)


def location(error: msgspec.ValidationError) -> list[str | int | Any]:
    """The steps to where msgspec's ``error`` happened, from its ``- at `$.players[0].name``` suffix: field names,
    list indexes, and ``...`` for a key of a dict (msgspec does not name it)."""
    _, at, where = str(error).rpartition(" - at `$")
    if not at:
        return []
    steps: list[str | int | Any] = []
    for name, index in _STEP.findall(where.rstrip("`")):
        steps.append(name if name else Ellipsis if index == "..." else int(index))
    return steps


def problem(info: mi.Type, value: Any) -> Text:
    """What ``value`` should be, from its declared type ``info``: "must be a text, not 5"."""
    info = _plain(info)
    if isinstance(info, mi.UnionType):
        options = [_plain(t) for t in info.types if not isinstance(_plain(t), mi.NoneType)]
        info = next((t for t in options if _kind_fits(t, value)), options[0] if options else mi.AnyType())
    shown = _shown(value)
    fits = _kind_fits(info, value)
    if isinstance(info, mi.StrType):
        if fits and info.max_length is not None and len(value) > info.max_length:
            return Text("must be at most {limit} characters, not {length}", limit=info.max_length,
                        length=len(value))
        return Text("must be a text, not {value}", value=shown)
    if isinstance(info, mi.BoolType):
        return Text("must be true or false, not {value}", value=shown)
    if isinstance(info, mi.IntType | mi.FloatType):
        if not fits:
            return (Text("must be an integer, not {value}", value=shown) if isinstance(info, mi.IntType)
                    else Text("must be a number, not {value}", value=shown))
        low = info.ge if info.gt is None else info.gt + 1
        if low is None and value < MIN_INT:
            low = MIN_INT
        if low is not None and value < low:
            return Text("must be at least {low}, not {value}", low=low, value=shown)
        high = info.le if info.lt is None else info.lt - 1
        return Text("must be at most {high}, not {value}", high=MAX_INT if high is None else high, value=shown)
    if isinstance(info, mi.LiteralType):
        return Text("must be one of {choices}, not {value}", choices=", ".join(map(str, info.values)), value=shown)
    if isinstance(info, mi.ListType | mi.TupleType | mi.VarTupleType):
        return Text("must be a list, not {value}", value=shown)
    return Text("must be an object, not {value}", value=shown)


def _refused(where: str | None, message: Text, field: str | None) -> Refused:
    return Refused(Text("{field}: {message}", field=where, message=message) if where else message, field)


def _path(name: str | None, steps: list) -> str | None:
    """``players``, ``[0]``, ``name`` as "players[0].name"."""
    path = name or ""
    for step in steps:
        if isinstance(step, int):
            path += f"[{step}]"
        elif step is Ellipsis:
            path += "[…]"
        else:
            path += f".{step}" if path else step
    return path or None


def _plain(info: mi.Type) -> mi.Type:
    """The type itself, without its documentation (``Metadata``)."""
    while isinstance(info, mi.Metadata):
        info = info.type
    return info


def _container(info: mi.Type, step: Any) -> mi.Type:
    """Of a union, the alternative a step can go into (a struct or a dict for a name, a list for an index)."""
    info = _plain(info)
    if not isinstance(info, mi.UnionType):
        return info
    lists, objects = (mi.ListType, mi.TupleType, mi.VarTupleType), (mi.StructType, mi.DictType)
    wanted = lists if isinstance(step, int) else objects
    return next((t for t in map(_plain, info.types) if isinstance(t, wanted)), info)


def _element(info: mi.Type, step: Any) -> mi.Type:
    """The type one step into ``info``: a struct's field, a list's item, a dict's value."""
    if isinstance(info, mi.StructType) and isinstance(step, str):
        return next((f.type for f in info.fields if f.encode_name == step), mi.AnyType())
    if isinstance(info, mi.ListType | mi.VarTupleType) and isinstance(step, int):
        return info.item_type
    if isinstance(info, mi.TupleType) and isinstance(step, int) and step < len(info.item_types):
        return info.item_types[step]
    if isinstance(info, mi.DictType):
        return info.value_type
    return mi.AnyType()


def _kind_fits(info: mi.Type, value: Any) -> bool:
    """Whether ``value`` is of the JSON kind of ``info`` (its bounds aside)."""
    if value is ABSENT:
        return False
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return {mi.StrType: isinstance(value, str), mi.BoolType: isinstance(value, bool),
            mi.IntType: isinstance(value, int) and not isinstance(value, bool), mi.FloatType: number,
            mi.LiteralType: isinstance(value, str | int) and not isinstance(value, bool),
            mi.ListType: isinstance(value, list), mi.DictType: isinstance(value, dict),
            mi.StructType: isinstance(value, dict)}.get(type(info), False)


def _shown(value: Any) -> str:
    """``value`` as JSON, cut to ``SHOWN`` characters ("a value" where the body does not reach)."""
    if value is ABSENT:
        return "…"
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        text = json.dumps(value, default=repr)  # a lone surrogate: escaped
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"
