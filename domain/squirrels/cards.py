"""Card facts: the MH2 list shipped with the package, or a player's own list in the same CSV columns."""

from __future__ import annotations

import csv
import functools
import importlib.resources
import io

import msgspec

COLUMNS = ("number", "name", "rarity", "colors", "land", "basic", "squirrel")
RARITIES = ("common", "uncommon", "rare", "mythic")
COLOR_ORDER = "WUBRG"
REPRINT_NUMBERS = range(262, 304)
"""Collector numbers of the new-to-Modern reprints (FS-11)."""
MAX_NUMBER = 999_999
"""The largest card number a list or a position may give (MH2's run to 490): a number must fit every counter and
encoding that carries it (msgpack stops at 2^64)."""


class CardFact(msgspec.Struct, frozen=True):
    """One printed card as the data file describes it."""

    number: int
    name: str
    rarity: str
    colors: str
    land: bool
    basic: bool
    squirrel: bool

    @property
    def reprint(self) -> bool:
        """A new-to-Modern reprint (numbers 262–303)."""
        return self.number in REPRINT_NUMBERS


class CardPoolError(ValueError):
    """A card list that cannot be read; the message names the row and column."""


def normalize_colors(text: str) -> str:
    """Colour letters in WUBRG order; raises ``ValueError`` on an unknown letter or a repeat."""
    letters = text.strip().upper()
    for letter in letters:
        if letter not in COLOR_ORDER:
            raise ValueError(f"unknown colour {letter!r} (use W, U, B, R, G; empty for colourless)")
    if len(set(letters)) != len(letters):
        raise ValueError(f"colour repeated in {text!r}")
    return "".join(c for c in COLOR_ORDER if c in letters)


def _flag(row: dict[str, str], column: str, where: str) -> bool:
    value = (row.get(column) or "").strip()
    if value not in ("0", "1"):
        raise CardPoolError(f"{where}, column {column}: must be 0 or 1, not {value!r}")
    return value == "1"


def parse_card_pool(text: str) -> tuple[CardFact, ...]:
    """Cards from CSV text with the columns of ``mh2-cards.csv`` (header row first)."""
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))  # a UTF-8 byte order mark is no column
    read = list(reader.fieldnames or [])
    reader.fieldnames = [name.strip().lower() for name in read]  # " Name" and "NAME" are the column name
    missing = [c for c in COLUMNS if c not in reader.fieldnames]
    if missing:
        header = ",".join(read) if read else "nothing"
        raise CardPoolError(f"header: missing column(s) {', '.join(missing)} (the header read: {header})")
    cards = []
    seen: set[int] = set()
    for line, row in enumerate(reader, start=2):
        where = f"line {line}"
        raw = (row["number"] or "").strip()
        if not (raw.isascii() and raw.isdigit()):
            raise CardPoolError(f"{where}, column number: not a whole number: {row['number']!r}")
        if len(raw) > len(str(MAX_NUMBER)) or int(raw) > MAX_NUMBER:
            raise CardPoolError(f"{where}, column number: at most {MAX_NUMBER}, not {raw[:20]}"
                                f"{'…' if len(raw) > 20 else ''}")
        number = int(raw)
        if number in seen:
            raise CardPoolError(f"{where}, column number: {number} appears twice")
        seen.add(number)
        name = (row["name"] or "").strip()
        if not name:
            raise CardPoolError(f"{where}, column name: empty")
        rarity = (row["rarity"] or "").strip().lower()
        if rarity not in RARITIES:
            raise CardPoolError(f"{where}, column rarity: {rarity!r} is not one of {', '.join(RARITIES)}")
        try:
            colors = normalize_colors(row["colors"] or "")
        except ValueError as exc:
            raise CardPoolError(f"{where}, column colors: {exc}") from None
        land = _flag(row, "land", where)
        # FS-5: lands are colourless, whatever a home-made list says.
        cards.append(CardFact(number, name, rarity, "" if land else colors, land,
                              _flag(row, "basic", where), _flag(row, "squirrel", where)))
    if not cards:
        raise CardPoolError("the list holds no card")
    return tuple(cards)


@functools.cache
def mh2_cards() -> tuple[CardFact, ...]:
    """The Modern Horizons 2 card facts shipped beside this module."""
    text = importlib.resources.files(__package__).joinpath("mh2-cards.csv").read_text(encoding="utf-8")
    return parse_card_pool(text)
