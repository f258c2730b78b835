"""Fairness of hidden information (docs/api.md): a game whose randomness or hidden parts the creator chose says so.

A client-chosen ``seed`` fixes every deal, shuffle and die roll (the creator can play a shadow game with it and
know the opponent's cards); a ``position`` can fix hands, deck order and placements, and any position, even of a
game without hidden parts (Murus Gallicus), is one its creator has studied and the other seat has not (a win on
the next move, an open seat waiting for a victim). Such a game carries
``"setup": {"seed", "position", "by"}`` in every document, the page warns the other players, and it counts for no
rating. Server-chosen randomness is never shown (``seed`` is null then).
"""

from __future__ import annotations


def creator_seat(players: list[dict]) -> int | None:
    """The creator's seat: the first seat a person holds (not an AI, not left open); None if there is none."""
    return next((i for i, p in enumerate(players) if not p.get("ai") and not p.get("open")), None)


def setup_meta(game: str, players: list[dict], seed: int | None, position: dict | None) -> dict:
    """The ``setup`` recorded in a new game's metadata: ``position`` true for any position the client gave, in
    every game (``game`` alike)."""
    return {"seed": seed, "position": position is not None,
            "by": creator_seat(players) if seed is not None or position is not None else None}


def setup_of(meta: dict) -> dict:
    """The document's ``setup``: ``{"seed", "position", "by"}`` (games older than this record have no setup)."""
    setup = meta.get("setup") or {"seed": meta.get("seed"), "position": False, "by": None}
    # Games recorded before every position counted (a Murus position had "position": false) still show theirs:
    # ``by`` was set for a seed or a position, so a ``by`` without a seed was a position.
    position = bool(setup["position"]) or (setup["seed"] is None and setup["by"] is not None)
    return {"seed": setup["seed"], "position": position, "by": setup["by"]}


def chosen_by_client(meta: dict) -> bool:
    """True if the creator chose the seed or the starting position: the game is then unrated."""
    return meta.get("seed") is not None or setup_of(meta)["position"]
