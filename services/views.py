"""The read side's documents: what ``GET /api/games/<gid>`` answers for one viewer."""

from __future__ import annotations

from domain.base import REVEAL_ALL
from services.codec import iso_time
from services.games import Game

SPECTATOR = "spectator"


def document(game: Game, seat: int | None, reveal: bool = False) -> dict:
    """The game document for ``seat`` (None: a spectator), as in CONTRACT.md.

    ``reveal`` shows everything (a past version of a game that has finished since)."""
    module, state = game.module, game.state
    viewer = REVEAL_ALL if reveal else game.viewer(seat)
    to_act = module.to_act(state)
    return {
        "id": game.gid,
        "game": game.meta["game"],
        "version": game.version,
        "status": module.status(state),
        "you": seat,
        "to_act": to_act,
        "legal": module.legal(state, seat) if seat is not None and seat in to_act else [],
        "result": module.result(state),
        "players": players(game),
        "state": module.view(state, viewer),
    }


def players(game: Game) -> list[dict]:
    return [{"seat": i, **p} for i, p in enumerate(game.meta["players"])]


def all_documents(game: Game) -> dict[str, dict]:
    """The documents of every seat and of a spectator, keyed ``"0"``, ``"1"``…, ``"spectator"``."""
    docs = {str(seat): document(game, seat) for seat in range(game.seats)}
    docs[SPECTATOR] = document(game, None)
    return docs


def lobby_entry(game: Game, updated_ms: int) -> dict:
    """A game's line in the lobby."""
    return {
        "id": game.gid,
        "game": game.meta["game"],
        "players": players(game),
        "status": game.module.status(game.state),
        "to_act": game.module.to_act(game.state),
        "version": game.version,
        "updated": iso_time(updated_ms),
        "created": iso_time(game.meta["created"]),
        "result": game.module.result(game.state),
    }
