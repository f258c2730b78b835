"""Encoding of domain events for storage (msgpack) and for clients (JSON-ready dicts)."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any, Union

import msgspec

from domain.base import Event, event_data, event_type
from domain.text import plain, say, with_sides

_encoder = msgspec.msgpack.Encoder(enc_hook=str)  # a Text (domain/text.py) is stored as its English


def encode(event: Event) -> tuple[str, bytes]:
    """(type, bytes) of an event, as the store keeps it."""
    return event_type(event), _encoder.encode(event)


@functools.cache
def _decoder(module: ModuleType) -> msgspec.msgpack.Decoder:
    events = tuple(module.EVENTS)
    return msgspec.msgpack.Decoder(Union[events] if len(events) > 1 else events[0])  # noqa: UP007


_decode_of: dict[object, Callable[[bytes], Event]] = {}
"""Each game's (or table's) bound ``decode``: a replay decodes every event, and a dict lookup and one call cost
less than the cache's call and the method's lookup."""


def decoder(module: ModuleType) -> Callable[[bytes], Event]:
    """``decode`` for ``module``'s game, bound: ``decoder(module)(data) == decode(module, data)``, for a loop over
    many events of one game."""
    decode_one = _decode_of.get(module)
    if decode_one is None:
        decode_one = _decode_of[module] = _decoder(module).decode
    return decode_one


def decode(module: ModuleType, data: bytes) -> Event:
    """The event of ``module``'s game stored as ``data``."""
    decode_one = _decode_of.get(module)
    if decode_one is None:
        decode_one = decoder(module)
    return decode_one(data)


def to_client(module: ModuleType, event: Event, version: int, at: int,
              names: list[str] | None = None, sides: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The feed shape of one (already redacted) event: version, type, data, at (ISO-8601 UTC), ``text``, a
    readable line for the move list in English with the players' ``names`` (a seat without one is "Player N"),
    and ``say``, that line as its message id and values (``domain/text.py``, seats with their players' names),
    which the API and the page say in the reader's language. A side drawn per game (``sides``: each seat's, by
    default the game's fixed ``SIDES``) is said as its player: "Bo (Black): d3-d4"."""
    if sides is None:
        sides = getattr(module, "SIDES", ())
    text = with_sides(plain(module.describe(event)), sides or ())
    return {"version": version, "type": event_type(event), "data": event_data(event), "at": iso_time(at),
            "text": say(text, names=names or ()), "say": text.form(names or ())}


def iso_time(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).isoformat(timespec="milliseconds")
