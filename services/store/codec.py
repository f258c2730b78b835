"""Encoding of domain events for storage (msgpack) and for clients (JSON-ready dicts)."""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any, Union

import msgspec

from domain.base import Event, event_data, event_type
from domain.table import name_seats

_encoder = msgspec.msgpack.Encoder()


def encode(event: Event) -> tuple[str, bytes]:
    """(type, bytes) of an event, as the store keeps it."""
    return event_type(event), _encoder.encode(event)


@functools.cache
def _decoder(module: ModuleType) -> msgspec.msgpack.Decoder:
    events = tuple(module.EVENTS)
    return msgspec.msgpack.Decoder(Union[events] if len(events) > 1 else events[0])  # noqa: UP007


def decode(module: ModuleType, data: bytes) -> Event:
    """The event of ``module``'s game stored as ``data``."""
    return _decoder(module).decode(data)


def to_client(module: ModuleType, event: Event, version: int, at: int,
              names: list[str] | None = None, sides: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The feed shape of one (already redacted) event: version, type, data, at (ISO-8601 UTC), and ``text``,
    a readable line for the move list (with the players' ``names`` for "Seat N", and for a line opening with a
    seat's side: ``sides``, by default the game's fixed ``SIDES``)."""
    text = module.describe(event)
    if sides is None:
        sides = getattr(module, "SIDES", ())
    return {"version": version, "type": event_type(event), "data": event_data(event), "at": iso_time(at),
            "text": name_seats(text, names, sides) if names else text}


def iso_time(ms: int) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat(timespec="milliseconds")
