"""Mouse Guard's tutorial: the secret placement (MG-4), a move (MG-6), each card — Sword (MG-8), Stronghold
(MG-9), Diplomacy (MG-14) —, the exit (MG-13), the rescue (MG-18) and a win in an enemy corner (MG-19). The
player is Black (``tutorials.SEED`` gives seat 0 Black), moving up toward row 9."""

from __future__ import annotations

from domain.text import Text
from domain.tutorials.lesson import Step, Tutorial

WHITE = {"c7": "white", "d8": "white", "e7": "white", "f7": "white"}


def black(*points: str) -> dict:
    return dict.fromkeys(points, "black")


def hands(mine: list[str]) -> dict:
    return {"black": mine, "white": ["sword", "sword", "sword"]}


TUTORIAL = Tutorial("mouseguard", Text("Mouse Guard: mice, cards and strongholds"), (
    Step({},
         Text("You play Black: four mice against four, on the points where lines cross. First both players place "
              "their mice in secret on their two nearest rows (yours: rows 2 and 3). Place yours on b3, c3, e3 "
              "and f3."),
         ("place b3 c3 e3 f3",),
         Text("This step asks for b3, c3, e3 and f3: four mice in front, ready to advance.")),
    Step({"turn": "black", "mice": {**black("b3", "c3", "e3", "f3"), **WHITE},
          "hands": hands(["sword", "stronghold", "diplomacy"])},
         Text("Each turn you move one mouse one step along a line to an open point, then you may play one card "
              "on that mouse; you then draw back up to 3 cards. Move c3 up to c4, and play no card this time."),
         ("c3-c4",),
         Text("Move the mouse on c3 one step up, to c4, without a card.")),
    Step({"turn": "black", "mice": {**black("b3", "c3", "d6", "e3"), **WHITE},
          "hands": hands(["sword", "sword", "stronghold"])},
         Text("Sword: after its step the mouse makes two more steps in an L (one way, then a quarter turn), "
              "pushing the mice in its way; a mouse pushed off the board is captured. Move d6 to d7, then use "
              "the Sword to push a white mouse off the board."),
         ("d6-d7 sword d8 e8", "d6-d7 sword d8 c8", "d6-d7 sword e7 e8", "d6-d7 sword e7 e6", "d6-e6 sword e7 f7"),
         Text("That move captures nobody. From d7, a Sword step onto d8 pushes the white mouse there off the "
              "board (d6-d7 sword d8 e8).")),
    Step({"turn": "black", "mice": {**black("b3", "c3", "d4", "e3"), **WHITE},
          "hands": hands(["stronghold", "stronghold", "sword"])},
         Text("Stronghold: the mouse leaps into a square touching its point and builds a stronghold there; the "
              "square's four corners are then closed to every mouse, and a mouse in a stronghold cannot be "
              "pushed. Move d4 to d5 and build in the square D5."),
         ("d4-d5 stronghold D5",),
         Text("This step asks for d4-d5, then the Stronghold card in the square D5 (corners d5, e5, d6, e6).")),
    Step({"turn": "black", "mice": {**black("b3", "c3", "d5", "e3"), **WHITE},
          "hands": hands(["diplomacy", "diplomacy", "sword"])},
         Text("Diplomacy: the mouse swaps places with the nearest enemy mouse (or pulls it out of its "
              "stronghold). Move d5 to d6 and swap with the white mouse on e7: you jump deep into their side."),
         ("d5-d6 diplomacy e7",),
         Text("Move d5 to d6, then play Diplomacy on the white mouse on e7 (the nearest, with c7).")),
    Step({"turn": "black", "mice": {**black("b3", "c3", "e3"), "D5": "black", **WHITE},
          "hands": hands(["sword", "sword", "sword"])},
         Text("Your mouse in the stronghold D5 is safe but stuck: leaving it takes a whole turn (an exit, no "
              "card) onto an open corner of its square. Leave D5."),
         ("exit D5 d5", "exit D5 e5", "exit D5 d6", "exit D5 e6"),
         Text("Click your mouse in the stronghold D5, then one of its corners: the exit is the whole turn.")),
    Step({"turn": "black", "mice": {**black("b3", "d4", "e3"), **WHITE},
          "hands": hands(["sword", "stronghold", "diplomacy"]), "captured": {"black": 1, "white": 0}},
         Text("One of your mice was captured. With exactly one card of each kind in hand (Sword, Stronghold, "
              "Diplomacy) you may spend your turn on a rescue: discard the three and put the mouse back on an "
              "open point of your rows. Rescue it."),
         ("rescue b2", "rescue c2", "rescue c3", "rescue d2", "rescue d3", "rescue e2", "rescue f2", "rescue f3"),
         Text("Choose the rescue: click an open point of rows 2 or 3 to bring your captured mouse back.")),
    Step({"turn": "black", "mice": {**black("b3", "c3", "e3", "f7"), "c7": "white", "d8": "white", "e6": "white",
                                    "b7": "white"},
          "hands": hands(["stronghold", "sword", "sword"])},
         Text("You win by building a stronghold in one of the two corner squares of White's side (A8 or F8), or "
              "by capturing every white mouse. Your mouse on f7 is one step from F8's corner: move it to f8 and "
              "build in F8."),
         ("f7-f8 stronghold F8",),
         Text("Move f7 up to f8, then play the Stronghold card in F8, White's corner: that wins.")),
))
