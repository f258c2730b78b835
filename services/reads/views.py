"""The read side's documents: what ``GET /api/games/<gid>`` answers for one viewer."""

from __future__ import annotations

from domain.base import REVEAL_ALL
from domain.text import plain, say
from services.games.commands import Game
from services.games.fairness import setup_of
from services.store.codec import iso_time

SPECTATOR = "spectator"


def document(game: Game, seat: int | None, reveal: bool = False) -> dict:
    """The game document for ``seat`` (None: a spectator), as in docs/api.md.

    ``reveal`` shows everything (a past version of a game that has finished since)."""
    module, state = game.rules, game.state
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
        "table": module.table_commands(state, seat),
        "result": result(game),
        "players": players(game),
        "setup": setup_of(game.meta),
        "open_seats": open_seats(game),
        "clock": clock(game),
        "rematch": state.rematch,
        "state": module.view(state, viewer),
    }


def players(game: Game) -> list[dict]:
    """Each seat's player, with the name of whoever took an open seat and its account (or null)."""
    names = game.names
    held = game.accounts
    ratings = game.ratings
    out = []
    for i, p in enumerate(game.meta["players"]):
        entry = {"seat": i, **{k: v for k, v in p.items() if k != "rematch_of"}, "account": held[i],
                 "rating": ratings[i] if held[i] else None}
        if names[i]:
            entry["name"] = names[i]
        if i not in game.state.open:
            entry.pop("open", None)
        if i in game.state.left:
            entry["left"] = True
        out.append(entry)
    return out


def open_seats(game: Game) -> list[int]:
    """Seats anyone may still take (none once the game is over: an aborted game's open seat stays empty)."""
    return [] if game.status == "finished" else sorted(game.state.open)


def result(game: Game) -> dict | None:
    """The result: its reason in English naming the players, and ``say``, the reason as its message id and values
    (``domain/text.py``), which the API and the page say in the reader's language. Documents are stored once for
    every language and said when read: a language costs no projection, and the stream's one encoding per version
    serves every watcher."""
    found = game.result
    if found is None:
        return None
    reason = plain(found.get("reason") or "")
    return {**found, "reason": say(reason, names=game.names), "say": reason.form(game.names)}


def clock(game: Game) -> dict | None:
    """Each seat's remaining seconds as of the last event, whose clock runs (pages tick from ``as_of``), by
    when the seat to make its first move must make it (``first_move_by``, null once every seat has moved), and a
    correspondence clock's seconds per move (``per_move``; None: a real-time clock)."""
    state = game.state
    shown = game.rules.clock(state, state.at)
    if shown is None:
        return None
    first = shown["first_move_by"]
    per_move = getattr(getattr(state, "clock", None), "per_move", None)
    return {"remaining": [ms / 1000 for ms in shown["remaining"]], "running": shown["running"],
            "as_of": iso_time(state.at), "first_move_by": iso_time(first) if first is not None else None,
            "per_move": per_move / 1000 if per_move is not None else None}


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
        "status": game.status,
        "to_act": game.to_act,
        "version": game.version,
        "updated": iso_time(updated_ms),
        "created": iso_time(game.meta["created"]),
        "result": result(game),
        "open_seats": open_seats(game),
    }
