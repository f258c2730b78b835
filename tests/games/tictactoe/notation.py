"""A command is one cell: ``a1`` … ``c3`` (column letter, row number)."""

from __future__ import annotations

from typing import NamedTuple

from domain.base import BadNotation

CELLS = tuple(f"{col}{row}" for row in "123" for col in "abc")


class Command(NamedTuple):
    cell: str


def parse(text: str) -> Command:
    cell = text.strip().lower()
    if cell not in CELLS:
        raise BadNotation(f"{text!r} is not a cell: write a column a-c and a row 1-3, like b2")
    return Command(cell)


def format(cmd: Command) -> str:
    return cmd.cell
