"""Murus Gallicus in the catalog (``domain/catalog.py``): name, seats, options, AI levels, rules in short."""

from domain.catalog import LEVELS, MAX_PLIES, Choice, GameInfo, Notation, Option
from domain.text import words

CATALOG = GameInfo(
    name="murus",
    title=words("Murus Gallicus"),
    seats=(2, 2),
    seats_note="seat 0 Romans",
    levels=LEVELS,
    options=(
        Option("variant", "choice", "basic", words("Variant"),
               words("Advanced adds catapults (stacks of three that fire a stone two or three cells away) and a "
                     "breakthrough that only wins if it survives the opponent's next turn."),
               (Choice("basic", words("Basic")), Choice("advanced", words("Advanced (catapults)")))),
        Option("max_plies", "count", None, words("End in a draw after this many moves (empty: never)"),
               words("The game has no draw of its own; this ends it as a draw after that many moves in all."),
               maximum=MAX_PLIES),
    ),
    rules=words(
        "Romans (the first player, row 1, first to move) and Gauls (row 7) each start with a tower of two stones "
        "on every cell of their home row. A turn moves a tower: its two stones spread over the next two cells in "
        "one of eight directions, each of which must be empty or hold one of your walls (a single stone). Or a "
        "tower next to an enemy wall gives up one stone to remove that wall. Put a stone on the enemy home row "
        "to win; a player who cannot move loses."
    ),
    notation=(
        Notation("a1-a3", "distribute"),
        Notation("a1xb2", "sacrifice"),
        Notation("a1xxb2", "double sacrifice"),
        Notation("a1*a3", "fire"),
    ),
)
