"""Request bodies of the API as msgspec types: validation, clear messages, and the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

import msgspec


class Player(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    ai: Literal["easy", "normal", "hard"] | None = None
    open: bool | None = None
    """``{"open": true}``: a seat left open for anyone to take (``POST /api/games/<gid>/seats/<seat>``)."""


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    players: list[Player]
    options: dict[str, Any] = {}
    seed: int | None = None
    position: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    """``{"initial": s, "increment": s}`` (Fischer) or ``{"per_move": s}`` (correspondence)."""


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class Command(msgspec.Struct, forbid_unknown_fields=True):
    move: str
    expected_version: int | None = None
    command_id: str | None = msgspec.field(default=None)


def decode(body: bytes, kind: type):
    """The body decoded as ``kind``; ``ValueError`` with a message naming the field otherwise."""
    if not body:
        raise ValueError("the request body must be a JSON object")
    try:
        return msgspec.json.decode(body, type=kind)
    except msgspec.ValidationError as exc:
        raise ValueError(_wording(str(exc))) from exc
    except msgspec.DecodeError as exc:
        raise ValueError(f"the request body is not valid JSON ({exc})") from exc


def _wording(message: str) -> str:
    # msgspec says "Expected `str`, got `int` - at `$.players[0].name`"; lead with the field.
    if " - at `$." in message:
        text, _, where = message.partition(" - at `$.")
        return f"{where.rstrip('`')}: {text[0].lower()}{text[1:]}"
    return message[0].lower() + message[1:]
