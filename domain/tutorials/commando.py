"""Mission commando's tutorial: the track and the die, maps, the shop, challenges, fights, teleports and the red
wall (MC-2 to MC-13, MC-P1 to MC-P11). A position starts a turn, so what follows a move onto a special square
(buying, challenging, committing weapons, paying) is asked for in the step's ``then``."""

from __future__ import annotations

from domain.text import Text
from domain.tutorials.lesson import Step, Tutorial


def agents(me: dict, other: dict) -> dict:
    return {"turn": 0, "agents": [me, other]}


TUTORIAL = Tutorial("commando", Text("Mission commando: a race with maps, shops and fights"), (
    Step(agents({"square": 0}, {"square": 30}),
         Text("Your agent races along the track from square 0 to the enemy base on square 59; the first there "
              "wins. Each turn you roll the die (faces 0 to 5) and move forward that many squares; passing a "
              "numbered square (every fifth) earns a banknote. Roll the die."),
         ("roll",),
         Text("Keep your map for later: this time, roll the die.")),
    Step(agents({"square": 5}, {"square": 30}),
         Text("Instead of rolling you may use a map (you start with one; single use): move exactly 1 to 5 "
              "squares. The shop is on square 8, three squares ahead: use your map to land on it exactly."),
         ("map 3",),
         Text("To land exactly on the shop (square 8) from square 5, use the map for 3 squares: map 3."),
         then=(("buy weapon", Text("On a shop square you may buy one weapon (2 banknotes: +1 in a fight) and one "
                                   "accessory (1 banknote: it saves you on a caution square). Buy a weapon.")),)),
    Step(agents({"square": 10}, {"square": 16}),
         Text("Square 13 is a fight square: whoever lands there may challenge another agent not on a green path. "
              "The winner may swap places with the loser; otherwise the loser pays 2 banknotes or goes back to a "
              "green path. Land on square 13 with your map."),
         ("map 3",),
         Text("From square 10, map 3 lands exactly on the fight square 13."),
         then=(("challenge 1", Text("Now challenge the other agent (seat 1), three squares ahead: beat them and "
                                    "you may take their place.")),)),
    Step(agents({"square": 14, "weapons": 2}, {"square": 17}),
         Text("Two agents never share a square: landing on another agent starts a fight, and the loser goes to "
              "the green path of that district. You hold 2 weapons. Land on the other agent with your map."),
         ("map 3",),
         Text("The other agent stands on square 17, three squares ahead: map 3 lands on it."),
         then=(("commit 2", Text("Before the dice, each side secretly commits weapons: +1 each, discarded after "
                                 "the fight; the higher total wins, a tie goes to the defender. Commit both "
                                 "weapons.")),)),
    Step(agents({"square": 19}, {"square": 40}),
         Text("Square 22 is a teleport: landing exactly on it takes you to square 37, fifteen squares further. "
              "Use your map to land on it."),
         ("map 3",),
         Text("From square 19 the teleport is three squares ahead: map 3.")),
    Step(agents({"square": 42, "money": 3}, {"square": 20}),
         Text("The red wall stands between squares 44 and 45: crossing it costs 1 banknote (or you stop before "
              "it). The enemy base is beyond. Move three squares with your map toward it."),
         ("map 3",),
         Text("Use the map for 3 squares (map 3): it takes you to the wall."),
         then=(("pay", Text("Pay 1 banknote to cross the red wall and go on toward the enemy base.")),)),
))
