"""Mission commando in the catalog (``domain/catalog.py``): name, seats, options, AI levels, rules in short."""

from domain.catalog import LEVELS, MAX_AMOUNT, MAX_PLIES, GameInfo, Notation, Option
from domain.commando.constants import (
    ACCESSORY_LIMIT,
    ACCESSORY_PRICE,
    FINE,
    START_MAPS,
    START_MONEY,
    WEAPON_PRICE,
)
from domain.text import words

CATALOG = GameInfo(
    name="commando",
    title=words("Mission commando"),
    seats=(2, 8),  # MC-1: not limited by the rules (2-5 advised); 8 is the API's player limit
    seats_note="2–5 advised",
    levels=LEVELS,
    options=(
        Option("start_money", "int", START_MONEY, words("Banknotes at the start"),
               words("What each agent holds when the game starts."), maximum=MAX_AMOUNT),
        Option("start_maps", "int", START_MAPS, words("Maps at the start"),
               words("A map moves you 1 to 5 squares of your choice instead of rolling, once."),
               maximum=MAX_AMOUNT),
        Option("weapon_price", "int", WEAPON_PRICE, words("Price of a weapon"),
               words("In banknotes, on a purchase square; each weapon committed adds 1 to a fight's roll."),
               maximum=MAX_AMOUNT),
        Option("accessory_price", "int", ACCESSORY_PRICE, words("Price of an accessory"),
               words("In banknotes, on a purchase square; an accessory wards off a caution card."),
               maximum=MAX_AMOUNT),
        Option("accessory_limit", "int", ACCESSORY_LIMIT, words("Accessories held at most"),
               words("An agent holding this many cannot buy another."), maximum=MAX_AMOUNT),
        Option("fine", "int", FINE, words("Fine"),
               words("What the loser of a challenge pays if the winner stays; without it, the green path."),
               maximum=MAX_AMOUNT),
        Option("max_plies", "count", None, words("End in a draw after this many turns (empty: never)"),
               words("Ends the game as a draw after that many turns in all (each player's turn counts one)."),
               maximum=MAX_PLIES),
        Option("board", "object", None, words("Board"),
               words("A board object (see docs/commando-board.md); null: the shipped board.")),
    ),
    rules=words(
        "Race your agent down a 60-square track to the enemy base. Roll a die of 0 to 5 (or spend a map to "
        "choose your move) and go forward; numbered squares pay a banknote, crossing the red wall costs one, "
        "purchase squares sell weapons and accessories, caution squares draw a card an accessory can ward "
        "off, and a teleport jumps ahead. Two agents never share a square: they fight, each committing weapons "
        "in secret before both roll; the loser is sent to a green side path. On a fight square you may "
        "challenge any agent. The first agent into the base wins."
    ),
    notation=(
        *(Notation(m) for m in ("roll", "map 4", "buy weapon", "buy accessory", "done", "challenge 2",
                                "no challenge")),
        Notation("commit 1", "(listed in `legal` as one range, `commit 0..N`)"),
        *(Notation(m) for m in ("swap", "stay", "pay", "retreat", "use accessory", "accept")),
    ),
)
