"""Murus Gallicus's tutorial: distribution, building towers, sacrifice, defence and breakthrough (MS-4 to MS-6)."""

from __future__ import annotations

from domain.text import Text
from domain.tutorials.lesson import Step, Tutorial

GAULS = {"a7": "GG", "c7": "GG", "h7": "GG"}

TUTORIAL = Tutorial("murus", Text("Murus Gallicus: walls, towers and a breakthrough"), (
    Step({"turn": "romans", "cells": {"a1": "RR", "d1": "RR", "h1": "RR", **GAULS}},
         Text("You play the Romans (light stones, home row 1); the Gauls' home is row 7. Two stones of yours on a "
              "cell are a tower, one stone a wall. A tower moves by distribution (MS-4): it leaves its cell and "
              "drops one stone on each of the next two cells in one of the 8 directions. Distribute the tower on "
              "d1 straight ahead: click d1, then d3."),
         ("d1-d3",),
         Text("This step asks for d1-d3: the tower on d1 goes straight ahead, one stone on d2 and one on d3.")),
    Step({"turn": "romans", "cells": {"a1": "RR", "d1": "RR", "d2": "R", "d3": "R", **GAULS}},
         Text("Walls never move, but a stone dropped on your own wall makes it a tower again. Distribute d1 onto "
              "your walls d2 and d3: two towers instead of one."),
         ("d1-d3",),
         Text("Only d1-d3 drops its stones on both of your walls (d2 and d3), making two towers.")),
    Step({"turn": "romans", "cells": {"a1": "RR", "d3": "RR", "e4": "G", **GAULS}},
         Text("Sacrifice (MS-5): a tower next to an enemy wall (one stone) may give up one of its stones to "
              "remove that wall; the tower becomes a wall. Never against a tower. Remove the Gaul wall on e4 with "
              "your tower on d3: click d3, then e4."),
         ("d3xe4",),
         Text("The Gaul wall on e4 stands next to your tower on d3: the sacrifice d3xe4 removes it.")),
    Step({"turn": "romans", "cells": {"c2": "RR", "f2": "R", "a1": "RR", "h1": "RR", "e3": "GG",
                                      "a7": "GG", "h7": "GG"}},
         Text("Danger: the Gaul tower on e3 can reach your home row next turn (e3-e1, e3-c1 or e3-g1), and a "
              "stone on the enemy's home row wins at once. A tower cannot jump over a stone: block all three "
              "ways. Your wall on f2 already blocks one; distribute c2 along row 2 to block the other two."),
         ("c2-e2",),
         Text("After that move the Gauls could still reach row 1. c2-e2 puts walls on d2 and e2: with f2, every "
              "way from e3 to row 1 is blocked.")),
    Step({"turn": "romans", "cells": {"a1": "RR", "d5": "RR", **GAULS}},
         Text("Breakthrough (MS-6): you win at once when one of your stones stands on the Gauls' home row, row 7. "
              "Your tower on d5 can get there: distribute it so that its second stone lands on row 7."),
         ("d5-d7", "d5-b7", "d5-f7"),
         Text("That move does not reach row 7. From d5, d5-d7, d5-b7 or d5-f7 drops a stone on the Gauls' home "
              "row and wins.")),
))
