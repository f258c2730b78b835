"""Fairness of hidden information (CONTRACT.md): a game whose randomness or hidden parts the creator chose says so.

A client-chosen ``seed`` fixes every deal, shuffle and die roll (the creator can play a shadow game with it and
know the opponent's cards); a ``position`` can fix hands, deck order and placements. Such a game carries
``"setup": {"seed", "position", "by"}`` in every document, the page warns the other players, and it counts for no
rating. Server-chosen randomness is never shown (``seed`` is null then).
"""

from __future__ import annotations

from domain import registry


def hides_parts(game: str) -> bool:
    """Whether a position of ``game`` can fix something a seat does not see (hands, deck order, secret
    placements, the deal): its registration's ``hidden`` parts. Murus Gallicus, a game of perfect information
    without chance, hides nothing."""
    return registry.game_type(game).hidden_information


def creator_seat(players: list[dict]) -> int | None:
    """The creator's seat: the first seat a person holds (not an AI, not left open); None if there is none."""
    return next((i for i, p in enumerate(players) if not p.get("ai") and not p.get("open")), None)


def setup_meta(game: str, players: list[dict], seed: int | None, position: dict | None) -> dict:
    """The ``setup`` recorded in a new game's metadata."""
    return {"seed": seed, "position": position is not None and hides_parts(game),
            "by": creator_seat(players) if seed is not None or position is not None else None}


def setup_of(meta: dict) -> dict:
    """The document's ``setup``: ``{"seed", "position", "by"}`` (games older than this record have no setup)."""
    setup = meta.get("setup") or {"seed": meta.get("seed"), "position": False, "by": None}
    return {"seed": setup["seed"], "position": bool(setup["position"]), "by": setup["by"]}


def chosen_by_client(meta: dict) -> bool:
    """True if the creator chose the seed or the starting position: the game is then unrated."""
    return meta.get("seed") is not None or bool((meta.get("setup") or {}).get("position"))
