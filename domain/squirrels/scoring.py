"""FS-9 and FS-10: points per card, the four bonus categories with shared ties, the winners."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from domain.squirrels.board import Card
from domain.text import Seat, Text, first_match, match, match_plural, seat

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


def verdict(scores: list[dict[str, Any]], left: tuple[int, ...] = ()) -> Text:
    """A sentence for the result."""
    top = winners(scores, left)
    points = scores[top[0]]["points"]
    if len(top) == 1:
        return Text.plural("{seat} wins with {n} point.", "{seat} wins with {n} points.", n=points,
                           seat=Seat(top[0]))
    # Each seat a field of its own, so that the feed and the page name every player ("Ana and Cy share the win").
    return Text.plural("{seats} share the win with {n} point each.", "{seats} share the win with {n} points each.",
                       n=points, seats=together([Seat(s) for s in top]))


def together(seats: list[Seat]) -> Text:
    """Two to four seats as one phrase: "Seat 0 and Seat 2", "Seat 0, Seat 1 and Seat 2"."""
    if len(seats) == 2:
        return Text("{a} and {b}", a=seats[0], b=seats[1])
    if len(seats) == 3:
        return Text("{a}, {b} and {c}", a=seats[0], b=seats[1], c=seats[2])
    return Text("{a}, {b}, {c} and {d}", a=seats[0], b=seats[1], c=seats[2], d=seats[3])


def _seats(words: str) -> Text:
    """``together``'s phrase read back from its English."""
    return together([seat(part) for part in re.split(r", | and ", words)])


def reason_text(reason: str) -> Text:
    """A stored reason (its English, in a ``game_ended`` event) read back as the text it was made from."""
    def verdict_text(raw: str) -> Text | None:
        return (match_plural(raw, "{seat} wins with {n} point.", "{seat} wins with {n} points.", seat=seat)
                or match_plural(raw, "{seats} share the win with {n} point each.",
                                "{seats} share the win with {n} points each.", seats=_seats))

    def old_limit(raw: str) -> Text | None:  # games stored before the limit was a draw
        found = match(raw, "The turn limit of {limit} was reached. {verdict}", limit=int, verdict=verdict_text)
        return found and Text("The turn limit of {limit} was reached. {verdict}", **found.args)

    return first_match(reason, verdict_text, old_limit, lambda raw: match_plural(
        raw, "Draw: the limit of {n} turn was reached", "Draw: the limit of {n} turns was reached"))
