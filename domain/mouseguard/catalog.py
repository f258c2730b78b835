"""Mouse Guard in the catalog (``domain/catalog.py``): name, seats, options, AI levels, rules in short."""

from domain.catalog import LEVELS, MAX_PLIES, Choice, GameInfo, Notation, Option
from domain.text import words

CATALOG = GameInfo(
    name="mouseguard",
    title=words("Mouse Guard: Swords & Strongholds"),
    seats=(2, 2),
    seats_note="colours drawn at random",
    levels=LEVELS,
    options=(
        Option("edge_points", "bool", False, words("The outer line is playable too (63 points)"),
               words("By default only the 35 inner points are played on, and a mouse pushed onto the edge is "
                     "captured.")),
        Option("exit_extra_step", "bool", False, words("Leaving a stronghold takes one more step"),
               words("A mouse that leaves its stronghold then also steps once to an open point.")),
        Option("rescue_after_move", "bool", False, words("A rescue follows the turn's move"),
               words("By default a rescue is the whole turn. With this, the turn's mouse steps first and the "
                     "rescue takes the place of its card (MG-18).")),
        Option("diplomacy_metric", "choice", "squares", words("Diplomacy distance"),
               words("How Diplomacy finds the nearest enemy mouse: by the squares the mice occupy, or by "
                     "Chebyshev distance."),
               (Choice("squares", words("Squares (default)")), Choice("chebyshev", words("Chebyshev")))),
        Option("max_plies", "count", None, words("End in a draw after this many turns (empty: never)"),
               words("Ends the game as a draw after that many turns in all."), maximum=MAX_PLIES),
    ),
    rules=words(
        "Each side places four mice in secret on its two nearest rows, then holds three cards: Sword, "
        "Stronghold, Diplomacy. A turn moves one mouse a step and may play one card on it: a Sword steps on in "
        "an L and pushes mice ahead (off the board is captured), a Stronghold leaps into a square and closes "
        "its corners, Diplomacy swaps with the nearest enemy mouse. A stronghold mouse may step out instead; "
        "one card of each kind rescues a captured mouse. Win with a stronghold in a corner square of the "
        "opponent's back edge, or by capturing every enemy mouse."
    ),
    notation=(
        Notation("place b2 c3 d2 e3"),
        Notation("c3-c4"),
        Notation("c3-c4 sword c5 d5"),
        Notation("c3-c4 stronghold C4"),
        Notation("c3-c4 diplomacy e6"),
        Notation("c3-c4 diplomacy D5 e6"),
        Notation("exit D5 d6", "(`exit D5 d6 e6` with the extra step)"),
        Notation("rescue c2", "(`c3-c4 rescue c2` with a rescue after the move)"),
        Notation("pass sword"),
    ),
)
