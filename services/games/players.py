"""The players of a new game as ``POST /api/games`` declares them (``Player``), and which seat each one asks for.

The service checks what only it knows (the game's seats and AI levels, the accounts' names, who is signed in:
``GameService._check_players``) on these typed values, once."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from domain import registry
from domain.text import Text
from services import declared, errors

LEVELS = tuple(dict.fromkeys(level for info in registry.catalog() for level in info.levels))
"""Every AI level some game of the catalog offers, in catalog order (a game may offer fewer)."""

Seat = Literal["person", "ai", "open", "me"]


# msgspec has no union of untagged structs: one struct holds every field, and ``asks_for`` says which of the four
# a player is (a mix of them is refused there). Its docstring is the OpenAPI document's description of a player.
class Player(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A seat of a new game: a person {"name"}, an AI {"name", "ai"} of a level the game offers, a seat left open
    for anyone to take {"open": true} (POST /api/games/<gid>/seats/<seat>), or the signed-in account's
    {"me": true}."""

    name: str | None | UnsetType = UNSET
    ai: Annotated[str, msgspec.Meta(extra_json_schema={"enum": list(LEVELS)})] | None | UnsetType = UNSET
    """A level of the game's (its catalog entry's ``levels``: the service checks it, each game offers its own)."""
    open: bool | UnsetType = UNSET
    me: bool | UnsetType = UNSET


def asks_for(player: Player, i: int) -> Seat:
    """Which seat ``player`` (the ``i``-th) asks for; 422 naming it for an open seat or one of one's own that says
    anything more than ``{"open": true}`` or ``{"me": true}``."""
    given = {name for name in player.__struct_fields__ if getattr(player, name) is not UNSET}
    if "open" in given:
        if given != {"open"} or player.open is not True:
            raise errors.Unprocessable(Text("players[{i}]: an open seat is exactly {{\"open\": true}}", i=i),
                                       field=f"players[{i}]")
        return "open"
    if "me" in given:
        if given != {"me"} or player.me is not True:
            raise errors.Unprocessable(Text("players[{i}]: a seat of your own is exactly {{\"me\": true}}", i=i),
                                       field=f"players[{i}]")
        return "me"
    return "ai" if player.ai else "person"


def players_of(value: Any) -> list[Player]:
    """``value`` as players: ``Player``s as they are, plain objects (what the service's own callers hand it:
    rematches, pairings, tournaments, scripts) converted; a 400 naming the field for one that is no player."""
    try:
        if not isinstance(value, list | tuple):
            return declared.convert(value, list[Player], "players")
        return [p if isinstance(p, Player) else declared.convert(p, Player, f"players[{i}]")
                for i, p in enumerate(value)]
    except declared.Refused as exc:
        raise errors.BadRequest(exc.text, field=exc.field) from None
