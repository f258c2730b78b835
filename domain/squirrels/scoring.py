"""FS-9 and FS-10: points per card, the four bonus categories with shared ties, the winners."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.squirrels.board import Card

CATEGORIES = ("foils", "rares", "colors", "squirrels")
"""Bonus categories: most foils, most rares + mythics, most distinct colours (W U B R G C), most squirrel art."""


def pile_counts(pile: Iterable[Card]) -> dict[str, int]:
    """Cards and the count of each bonus category in one pile."""
    cards = list(pile)
    colors = {letter for card in cards for letter in (card.colors or "C")}
    return {
        "cards": len(cards),
        "foils": sum(card.foil for card in cards),
        "rares": sum(card.rarity in ("rare", "mythic") for card in cards),
        "colors": len(colors),
        "squirrels": sum(card.squirrel for card in cards),
    }


def score(cards: dict[int, Card], piles: Iterable[Iterable[int]], bonus_needs_one: bool = False
          ) -> list[dict[str, Any]]:
    """Per seat: the counts, ``bonuses`` (categories won, ties shared) and ``points`` (cards + bonuses)."""
    table = [pile_counts(cards[cid] for cid in pile) for pile in piles]
    for row in table:
        row["bonuses"] = []
    for category in CATEGORIES:
        best = max(row[category] for row in table)
        if best == 0 and bonus_needs_one:
            continue
        for row in table:
            if row[category] == best:
                row["bonuses"].append(category)
    for row in table:
        row["points"] = row["cards"] + len(row["bonuses"])
    return table


def winners(scores: list[dict[str, Any]], left: tuple[int, ...] = ()) -> list[int]:
    """FS-10: every seat tied on the most points (of the seats still at the table)."""
    best = max(row["points"] for seat, row in enumerate(scores) if seat not in left)
    return [seat for seat, row in enumerate(scores) if row["points"] == best and seat not in left]


def verdict(scores: list[dict[str, Any]], left: tuple[int, ...] = ()) -> str:
    """A sentence for the result."""
    top = winners(scores, left)
    points = scores[top[0]]["points"]
    if len(top) == 1:
        return f"Seat {top[0]} wins with {points} point{'' if points == 1 else 's'}."
    # "Seat N" each time, so that the feed and the page name every player ("Ana and Cy share the win …").
    names = ", ".join(f"Seat {s}" for s in top[:-1]) + f" and Seat {top[-1]}"
    return f"{names} share the win with {points} point{'' if points == 1 else 's'} each."
