"""Foraging Squirrels in the catalog (``domain/catalog.py``): name, seats, options, AI levels, rules in short."""

from domain.catalog import LEVELS, MAX_PLIES, MAX_TEXT, Choice, GameInfo, Notation, Option
from domain.text import words

CATALOG = GameInfo(
    name="squirrels",
    title=words("Foraging Squirrels"),
    seats=(2, 4),
    levels=LEVELS,
    options=(
        Option("bonus_needs_one", "bool", False, words("A bonus category needs at least one card"),
               words("Without it, players tied at zero in a category each get its bonus point.")),
        Option("packs", "choice", "set", words("Boosters"),
               words("The kind of Modern Horizons 2 booster the food comes from."),
               (Choice("set", words("Set Boosters")), Choice("draft", words("Draft Boosters")))),
        Option("card_pool", "text", None, words("Card list (CSV)"),
               words("Your own card list, as CSV text with the columns of domain/squirrels/mh2-cards.csv; null: "
                     "the real MH2 cards."), max_length=MAX_TEXT),
        Option("max_plies", "count", None, words("End in a draw after this many turns (empty: never)"),
               words("Ends the game as a draw after that many turns in all."), maximum=MAX_PLIES),
    ),
    rules=words(
        "Twenty-four Magic cards and the squirrel lie face up on a 5 by 5 grid. On your turn name a colour "
        "(W, U, B, R, G, or C for colourless) and a direction: the squirrel runs that way, over empty cells, "
        "collecting every card of that colour until a card of another colour or the edge stops it, and ends "
        "on the last card taken. You must take at least one. Once per game, every player but the first may "
        "dig: move one card to an empty cell, before or after running. The game ends when the squirrel's row "
        "and column hold no more food; a point per card plus a bonus for each category led (foils, rares and "
        "mythics, colours, squirrels in the art) decides."
    ),
    notation=(
        Notation("G left"),
        Notation("C up"),
        Notation("dig b2 c4; G left"),
        Notation("G left; dig b2 c4"),
    ),
)
