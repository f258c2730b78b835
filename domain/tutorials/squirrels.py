"""Foraging Squirrels's tutorial: the scan (FS-4, FS-5), gaps and many-coloured cards, the dig (FS-7), the end and
the score (FS-8 to FS-10)."""

from __future__ import annotations

from typing import Any

from domain.text import Text
from domain.tutorials.lesson import Step, Tutorial

NAMES = {  # real Modern Horizons 2 cards of each colour (data/mh2-cards.csv), cycled through
    "W": ["Abiding Grace", "Arcbound Javelineer", "Arcbound Mouser", "Barbed Spike"],
    "U": ["Aeromoeba", "Burdened Aerialist", "Dress Down", "Floodhound"],
    "B": ["Archfiend of Sorrows", "Bone Shards", "Break the Ice", "Cabal Initiate"],
    "R": ["Arcbound Slasher", "Battle Plan", "Blazing Rootwalla", "Bloodbraid Marauder"],
    "G": ["Abundant Harvest", "Bannerhide Krushok", "Blessed Respite", "Aeve, Progenitor Ooze"],
    "": ["Altar of the Goyf", "Batterbone", "Bottle Golems", "Brainstone"],
    "UR": ["Prophetic Titan", "Storm God's Oracle"],
}
SQUIRRELS = {"G": "Chatterfang, Squirrel General", "": "Chitterspitter"}
COLUMNS = "abcde"


def position(rows: list[str], piles: list[list[str]] | None = None, turn: int = 0, first: int = 0,
             dug: list[bool] | None = None) -> dict[str, Any]:
    """A position from a picture: ``rows`` from row 5 down to row 1, five words each: ``.`` an empty cell, ``S``
    the squirrel, else a card's colours (``C`` colourless) with ``*`` for a foil, ``!`` a rare and ``~`` a
    squirrel in the art; ``piles``: each seat's collected cards, in the same words."""
    cards: dict[str, dict] = {}
    used: dict[str, int] = {}

    def card(word: str) -> int:
        colours = word.rstrip("*!~").replace("C", "")
        squirrel = "~" in word
        names = [SQUIRRELS[colours]] if squirrel else NAMES[colours]
        name = names[used.get(colours + str(squirrel), 0) % len(names)]
        used[colours + str(squirrel)] = used.get(colours + str(squirrel), 0) + 1
        number = len(cards) + 1
        cards[str(number)] = {"name": name, "rarity": "rare" if "!" in word else "common", "colors": colours,
                              "foil": "*" in word, "squirrel": squirrel}
        return number

    grid: dict[str, Any] = {}
    for r, row in enumerate(rows):
        for c, word in enumerate(row.split()):
            cell = f"{COLUMNS[c]}{5 - r}"
            if word == "S":
                grid[cell] = "squirrel"
            elif word != ".":
                grid[cell] = card(word)
    seats = len(piles) if piles else 2
    answer = {"turn": turn, "first": first, "grid": grid, "cards": cards,
              "piles": [[card(w) for w in pile] for pile in (piles or [[], []])],
              "dug": dug or [False] * seats}
    return answer


TUTORIAL = Tutorial("squirrels", Text("Foraging Squirrels: scan, dig and score"), (
    Step(position(["W U B R G", "U G G B R", "B C S G G", "R U W B U", "G W U C B"]),
         Text("Cards lie face up around the squirrel. On your turn choose a colour and a direction: from the "
              "squirrel that way, you collect every card of that colour until a card of another colour (or the "
              "edge) stops the scan; the squirrel moves onto the last card collected. Collect the two green "
              "cards on the squirrel's right."),
         ("G right",),
         Text("Look right of the squirrel: two green cards in a row. Choose green (G) and right.")),
    Step(position(["W U U R G", "U G U B R", "B C . G W", "R U U B U", "G W S C B"]),
         Text("Empty cells never stop a scan: they are skipped. Above the squirrel, blue cards wait on both sides "
              "of an empty cell. Collect all three."),
         ("U up",),
         Text("Blue (U) up collects c2, then skips the empty c3 and goes on with c4 and c5: three cards.")),
    Step(position(["W U B R G", "U G G B R", "S R UR R U", "R U G B U", "G W R C B"]),
         Text("A card of several colours matches each of them: the blue and red card counts as red and as "
              "blue. Collect three cards in one scan."),
         ("R right",),
         Text("Red (R) right collects b3, the blue-red card on c3 and d3, and stops at the blue e3: three "
              "cards.")),
    Step(position(["W U B R G", "U G U B R", "S G G . B", "R G U B U", "G W R C ."], piles=[["G", "W"], []],
                  turn=1, first=0),
         Text("Once per game every player but the first may dig: move one card to an empty cell, before or after "
              "the squirrel's move. Green right would collect two cards and then skip the gap on d3 to stop at "
              "the black card. Dig a green card into d3 first, then scan green right: three cards."),
         ("dig a1 d3; G right", "dig b2 d3; G right", "dig b4 d3; G right", "dig e5 d3; G right"),
         Text("Dig first: move a green card (a1, b2, b4 or e5) onto the empty d3, then scan green (G) right.")),
    Step(position([". . . . .", ". . R* . .", "G . S . .", ". . . . .", ". . . . ."],
                  piles=[["G", "W", "U", "C"], ["U", "B", "R*", "G"]]),
         Text("The game ends when no card is left in the squirrel's row and column. Each card scores 1, and each "
              "category won gives 1 more: most foils, most rares and mythics, most colours, most squirrels in "
              "the art (ties: each gets it). Your opponent has a foil and you do not: either move ends the game. "
              "Choose the one that wins."),
         ("R up",),
         Text("Green left ties: 8 points each. The red card above is a foil: taking it shares the foil bonus "
              "and wins, 9 points to 8.")),
))
