"""Tic-tac-toe in the catalog (``domain/catalog.py``)."""

from domain.catalog import GameInfo, Notation, Option

CATALOG = GameInfo(
    name="tictactoe",
    title="Tic-tac-toe",
    seats=(2, 2),
    seats_note="seat 0 X",
    levels=("easy",),
    options=(
        Option("max_plies", "count", None, "End in a draw after this many plies (empty: never)", maximum=9),
    ),
    rules="X (seat 0) and O take turns marking an empty cell of a 3 × 3 grid; three in a row wins; a full grid "
          "is a draw.",
    notation=(Notation("b2", "mark the centre"),),
)
