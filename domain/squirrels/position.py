"""The position JSON of docs/rules.md §3, both ways, with a check that names the first problem found.

``{"turn": 0, "grid": {"a1": 17, "c3": "squirrel", …}, "cards": {"17": {"name", "rarity", "colors", "foil",
"squirrel"}, …}, "piles": [[ids…], …], "dug": [false, …], "first": 0}``; cards may also give ``land`` and
``number``; ``set_aside`` (extension) lists ids of cards out of play. Omitted fields take their start-of-game
values: no digs used, seat 0 first, the first player to act, empty piles; without ``grid`` the packs are opened
and dealt afresh (then ``cards``, ``piles`` and ``set_aside`` must be omitted too).
"""

from __future__ import annotations

from typing import Any, Protocol

from domain.base import BadSetup
from domain.squirrels.board import CELL_INDEX, CELLS, SQUIRREL, Card, Grid
from domain.squirrels.cards import MAX_NUMBER, RARITIES, normalize_colors
from domain.text import Text


class Dealt(Protocol):
    """What ``dump_position`` reads of a state (``state.State``, which reads this module: no import back)."""

    turn: int | None
    grid: Grid
    cards: dict[int, Card]
    piles: Any
    dug: Any
    first: int | None
    set_aside: Any

FOOD = 24
"""Food cards in a game (FS-2): the grid's 25 cells hold them and the squirrel; any surplus of the packs is set
aside at random (FS-11)."""
FIELDS = ("turn", "grid", "cards", "piles", "dug", "first", "set_aside")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_id(value: Any) -> bool:
    """A card id (or number) from 0 to ``MAX_NUMBER``: every count and encoding that carries it holds it."""
    return _is_int(value) and 0 <= value <= MAX_NUMBER


def _seat(position: dict, name: str, seats: int, default: int) -> int:
    value = position.get(name, default)
    if not _is_int(value) or not 0 <= value < seats:
        raise BadSetup(f"position.{name}", Text("must be a seat from 0 to {value}, not {value2}",
                                                value=seats - 1, value2=repr(value)))
    return value


def _card(cid: int, data: Any) -> Card:
    field = f"position.cards.{cid}"
    if not isinstance(data, dict):
        raise BadSetup(field, Text("must be an object with name, rarity, colors, foil, squirrel"))
    unknown = set(data) - {"name", "rarity", "colors", "foil", "squirrel", "land", "number"}
    if unknown:
        raise BadSetup(f"{field}.{min(unknown)}", Text("unknown card field"))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BadSetup(f"{field}.name", Text("must be a non-empty text"))
    if data.get("rarity") not in RARITIES:
        raise BadSetup(f"{field}.rarity", Text("must be one of {rarities}, not {value}",
                                               rarities=', '.join(RARITIES), value=repr(data.get('rarity'))))
    colors = data.get("colors", "")
    try:
        colors = normalize_colors(colors) if isinstance(colors, str) else None
    except ValueError as exc:
        raise BadSetup(f"{field}.colors", str(exc)) from None
    if colors is None:
        raise BadSetup(f"{field}.colors", Text('must be a text of colour letters such as "WU"'))
    flags = {}
    for flag in ("foil", "squirrel", "land"):
        flags[flag] = data.get(flag, False)
        if not isinstance(flags[flag], bool):
            raise BadSetup(f"{field}.{flag}", Text("must be true or false"))
    if flags["land"] and colors:
        raise BadSetup(f"{field}.colors", Text("a land is colourless (FS-5)"))
    number = data.get("number")
    if number is not None and not _is_id(number):
        raise BadSetup(f"{field}.number", Text("must be a whole number from 0 to {max_number}, or null",
                                               max_number=MAX_NUMBER))
    return Card(name, data["rarity"], colors, number=number, **flags)


def _ids(value: Any, field: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_id(v) for v in value):
        raise BadSetup(field, Text("must be a list of card ids (whole numbers from 0 to {max_number})",
                                   max_number=MAX_NUMBER))
    return tuple(value)


def opened(piles: tuple[tuple[int, ...], ...], first: int, turn: int) -> bool:
    """FS-7: whether the first player's first turn is over. Play goes round from ``first``, so another seat to move
    means it is; a turn always collects, so a first player with cards has played. A position may give a seat
    other than the first to move and leave the piles empty (their start value): that seat may then dig, as the
    position says the first player has played (the position is taken at its word, not refused)."""
    return bool(piles[first]) or turn != first


def load_position(position: Any, seats: int) -> dict[str, Any]:
    """The ``State`` fields a position describes (no ``grid`` key when the deal is to be made afresh)."""
    if not isinstance(position, dict):
        raise BadSetup("position", Text("must be an object"))
    for name in position:
        if name not in FIELDS:
            raise BadSetup(f"position.{name}", Text("unknown field (known: {fields})", fields=', '.join(FIELDS)))
    first = _seat(position, "first", seats, 0)
    fields: dict[str, Any] = {"first": first, "turn": _seat(position, "turn", seats, first)}
    dug = position.get("dug", [False] * seats)
    if not isinstance(dug, list) or len(dug) != seats or not all(isinstance(d, bool) for d in dug):
        raise BadSetup("position.dug", Text("must be a list of {seats} true/false values", seats=seats))
    if dug[first]:
        raise BadSetup(f"position.dug.{first}", Text("the first player never digs (FS-7)"))
    fields["dug"] = tuple(dug)
    if "grid" not in position:
        for name in ("cards", "piles", "set_aside"):
            if name in position:
                raise BadSetup("position.grid", Text("needed when {name} is given", name=name))
        return fields

    raw_cards = position.get("cards", {})
    if not isinstance(raw_cards, dict):
        raise BadSetup("position.cards", Text("must be an object from card id to card"))
    cards: dict[int, Card] = {}
    for key, data in raw_cards.items():
        cid = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 6 else key
        if not _is_id(cid):
            raise BadSetup(f"position.cards.{key}", Text("a card id is a whole number from 0 to {max_number}",
                                                         max_number=MAX_NUMBER))
        if cid in cards:
            raise BadSetup(f"position.cards.{key}", Text("card {cid} is given twice", cid=cid))
        cards[cid] = _card(cid, data)

    grid = position["grid"]
    if not isinstance(grid, dict):
        raise BadSetup("position.grid", Text('must be an object from cell to card id or "squirrel"'))
    cells: list[Any] = [None] * 25
    for cell, content in grid.items():
        if cell not in CELL_INDEX:
            raise BadSetup(f"position.grid.{cell}", Text("not a cell (a1 to e5)"))
        if content is not None and content != SQUIRREL and not _is_id(content):
            raise BadSetup(f"position.grid.{cell}", Text("must be a card id (0 to {max_number}) or \"squirrel\", "
                                                         "not {content}",
                                                         max_number=MAX_NUMBER, content=repr(content)))
        cells[CELL_INDEX[cell]] = content
    squirrels = cells.count(SQUIRREL)
    if squirrels != 1:
        raise BadSetup("position.grid", Text("needs exactly one squirrel, found {squirrels}", squirrels=squirrels))

    piles = position.get("piles", [[] for _ in range(seats)])
    if not isinstance(piles, list) or len(piles) != seats:
        raise BadSetup("position.piles", Text("must be a list of {seats} piles", seats=seats))
    piles = tuple(_ids(pile, f"position.piles.{seat}") for seat, pile in enumerate(piles))
    set_aside = _ids(position.get("set_aside", []), "position.set_aside")

    places: dict[int, str] = {}
    placed = [(c, f"grid.{CELLS[i]}") for i, c in enumerate(cells) if c is not None and c != SQUIRREL]
    placed += [(c, f"piles.{seat}") for seat, pile in enumerate(piles) for c in pile]
    placed += [(c, "set_aside") for c in set_aside]
    for cid, where in placed:
        if cid not in cards:
            raise BadSetup(f"position.{where}", Text("card {cid} is not in position.cards", cid=cid))
        if cid in places:
            raise BadSetup(f"position.{where}", Text("card {cid} is already in {cid2}", cid=cid, cid2=places[cid]))
        places[cid] = where
    for cid in cards:
        if cid not in places:
            raise BadSetup(f"position.cards.{cid}", Text("this card is nowhere: not on the grid, in a pile, set "
                                                         "aside"))
    food = sum(1 for _, where in placed if where != "set_aside")
    if food > FOOD:
        raise BadSetup("position.grid", Text("{food} food cards on the grid and in the piles: the game has "
                                             "{food2} (FS-2)", food=food, food2=FOOD))
    fields.update(cards=cards, grid=tuple(cells), piles=piles, set_aside=set_aside,
                  opened=opened(piles, first, fields["turn"]))
    return fields


def dump_position(state: Dealt) -> dict[str, Any]:
    """The position JSON of ``state``."""
    return {
        "turn": state.turn,
        "grid": {CELLS[i]: c for i, c in enumerate(state.grid) if c is not None},
        "cards": {str(cid): card.to_json() for cid, card in sorted(state.cards.items())},
        "piles": [list(pile) for pile in state.piles],
        "dug": list(state.dug),
        "first": state.first,
        "set_aside": list(state.set_aside),
    }
