"""Foraging Squirrels scoring tables (FS-9, FS-10): bonuses and wins shared by 2-, 3- and 4-way ties."""

from __future__ import annotations

import pytest

from domain.squirrels.board import Card
from domain.squirrels.scoring import score, verdict, winners

RARITY = {"r": "rare", "m": "mythic", "u": "uncommon"}


def card(token: str) -> Card:
    """W/U/B/R/G colours, C colourless, L land; r/m/u rarity, * foil, s squirrel art."""
    return Card(name=token, rarity=next((RARITY[m] for m in token if m in RARITY), "common"),
                colors="".join(c for c in token if c in "WUBRG"), foil="*" in token, squirrel="s" in token,
                land="L" in token)


def table(*piles: str, needs_one: bool = False) -> list[dict]:
    """Score piles written as space-separated tokens ("-" for an empty pile)."""
    cards, ids = {}, []
    for pile in piles:
        ids.append([])
        for token in pile.split():
            if token != "-":
                cards[len(cards)] = card(token)
                ids[-1].append(len(cards) - 1)
    return score(cards, ids, needs_one)


def bonus_holders(scores: list[dict], category: str) -> list[int]:
    return [seat for seat, row in enumerate(scores) if category in row["bonuses"]]


def test_FS_9_one_point_per_card_plus_one_per_category_won():
    scores = table("W* Gr Gs", "U U")
    assert scores[0] == {"cards": 3, "foils": 1, "rares": 1, "colors": 2, "squirrels": 1,
                         "bonuses": ["foils", "rares", "colors", "squirrels"], "points": 7}
    assert scores[1]["points"] == 2 and scores[1]["bonuses"] == []


def test_FS_9_distinct_colours_count_each_of_WUBRGC_once_and_lands_are_colourless():
    scores = table("WU W L C Cs", "WUBRG", "L C")
    assert [row["colors"] for row in scores] == [3, 5, 1]
    assert bonus_holders(scores, "colors") == [1]


def test_FS_9_rares_and_mythics_count_together():
    scores = table("Wr Wm", "Wr Wr Wu")
    assert [row["rares"] for row in scores] == [2, 2]
    assert bonus_holders(scores, "rares") == [0, 1]


@pytest.mark.parametrize("piles, category, holders", [
    (("W*", "W*", "W"), "foils", [0, 1]),                                  # 2-way tie
    (("Wr", "Wm", "Wr", "W"), "rares", [0, 1, 2]),                         # 3-way tie
    (("Ws", "Us", "Bs", "Rs"), "squirrels", [0, 1, 2, 3]),                 # 4-way tie
    (("W U", "B R", "G L"), "colors", [0, 1, 2]),                          # 3-way tie on colours
    (("G* G*", "G*"), "foils", [0]),                                       # no tie
])
def test_FS_9_tied_players_each_get_the_bonus(piles, category, holders):
    assert bonus_holders(table(*piles), category) == holders


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_FS_9_all_tied_at_zero(seats):
    piles = ["W"] * seats
    scores = table(*piles)
    for category in ("foils", "rares", "squirrels"):
        assert bonus_holders(scores, category) == list(range(seats))
    needs_one = table(*piles, needs_one=True)
    for category in ("foils", "rares", "squirrels"):
        assert bonus_holders(needs_one, category) == []
    assert bonus_holders(needs_one, "colors") == list(range(seats))


def test_FS_9_bonus_needs_one_keeps_bonuses_with_a_best_of_one_or_more():
    scores = table("W*", "-", needs_one=True)
    assert bonus_holders(scores, "foils") == [0] and bonus_holders(scores, "colors") == [0]
    assert scores[1]["points"] == 0


@pytest.mark.parametrize("piles, expected", [
    (("W W", "U"), [0]),
    (("W", "W"), [0, 1]),                                       # 2-way tie
    (("W U", "B R", "G L", "W"), [0, 1, 2]),                    # 3-way tie
    (("W", "U", "B", "R"), [0, 1, 2, 3]),                       # 4-way tie
    (("W W W", "G* Gr Gs"), [1]),                               # bonuses decide
])
def test_FS_10_most_points_wins_and_ties_share(piles, expected):
    scores = table(*piles)
    assert winners(scores) == expected
    text = verdict(scores)
    assert ("share the win" in text) is (len(expected) > 1)
    assert all(str(seat) in text for seat in expected)
