"""The board as data (MC-P1): loading and validating a board object; schema in docs/commando-board.md."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from domain.base import BadSetup
from domain.text import Text

SPECIAL_KINDS = ("purchase", "fight", "caution")
MAX_LENGTH = 200  # main-track squares at most (the shipped board has 60)
MAX_GREEN = 50  # squares of one green path at most
MAX_SQUARES = 500  # squares in all, track and green paths
MAX_NAME = 40  # characters of a board's or district's name
BOARD_KEYS = ("name", "length", "start", "base", "districts", "numbered", *SPECIAL_KINDS, "teleports", "wall")


@dataclass(frozen=True)
class District:
    """A stretch of the track with its green path (chemin de l'affront)."""

    name: str
    first: int
    last: int
    green_from: int
    green_to: int
    green: tuple[int, ...]
    """Ids of the green squares, in walking order (numbered after the track)."""


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board; square ids are track squares ``0..length-1`` then the green squares."""

    spec: dict[str, Any]
    name: str
    length: int
    start: int
    base: int
    districts: tuple[District, ...]
    kind: tuple[str, ...]
    """Per square id: start, base, plain, purchase, fight, caution, teleport or green."""
    numbered: frozenset[int]
    teleports: dict[int, int]
    wall: tuple[int, int] | None
    following: tuple[int, ...]
    """Per square id, the next square forward (the base is its own successor)."""
    district_of: tuple[int, ...]
    to_base: tuple[int, ...]
    """Per square id, steps left to the base on foot."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.spec == other.spec

    def __hash__(self) -> int:
        return hash(json.dumps(self.spec, sort_keys=True))

    def is_green(self, square: int) -> bool:
        """True for a square of a green path."""
        return square >= self.length

    def green_entry(self, square: int) -> int:
        """The first green square of the district holding ``square`` (where fight losers go)."""
        return self.districts[self.district_of[square]].green[0]

    def summary(self) -> dict[str, Any]:
        """What a page needs to draw the board (JSON builtins)."""
        return {
            "name": self.name,
            "start": self.start,
            "base": self.base,
            "squares": [
                {"id": sq, "kind": self.kind[sq], "numbered": sq in self.numbered,
                 "district": self.district_of[sq], "path": "green" if self.is_green(sq) else "main",
                 "next": self.following[sq]}
                for sq in range(len(self.kind))
            ],
            "districts": [{"name": d.name, "first": d.first, "last": d.last} for d in self.districts],
            "green_paths": [{"district": i, "from": d.green_from, "to": d.green_to, "squares": list(d.green)}
                            for i, d in enumerate(self.districts)],
            "teleports": [{"from": a, "to": b} for a, b in sorted(self.teleports.items())],
            "wall": list(self.wall) if self.wall else None,
        }


def _int(value: Any, field: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadSetup(field, Text("must be an integer, not {value}", value=repr(value)))
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise BadSetup(field, Text("must be {span}, not {value}", span=span, value=value))
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadSetup(field, Text("must be a list, not {value}", value=repr(value)))
    return value


def _object(value: Any, field: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadSetup(field, Text("must be an object, not {value}", value=repr(value)))
    for key in value:
        if key not in allowed:
            raise BadSetup(f"{field}.{key}", Text("unknown field (known: {allowed})", allowed=', '.join(allowed)))
    for key in required:
        if key not in value:
            raise BadSetup(f"{field}.{key}", Text("is missing"))
    return value


def _districts(spec: dict[str, Any], field: str, length: int, base: int) -> list[dict[str, Any]]:
    districts = _list(spec["districts"], f"{field}.districts")
    if not districts:
        raise BadSetup(f"{field}.districts", Text("needs at least one district"))
    expected_first = 0
    for i, raw in enumerate(districts):
        where = f"{field}.districts[{i}]"
        _object(raw, where, ("name", "first", "last", "green"), ("first", "last", "green"))
        if not isinstance(raw.get("name", ""), str) or len(raw.get("name", "")) > MAX_NAME:
            raise BadSetup(f"{where}.name", Text("must be a string of at most {max_name} characters",
                                                 max_name=MAX_NAME))
        first = _int(raw["first"], f"{where}.first", 0, base)
        if first != expected_first:
            raise BadSetup(f"{where}.first", Text("must be {expected_first}: districts cover the track in order",
                                                  expected_first=expected_first))
        last = _int(raw["last"], f"{where}.last", first, base)
        green = _object(raw["green"], f"{where}.green", ("from", "to", "length"), ("from", "to", "length"))
        _int(green["from"], f"{where}.green.from", first, last)
        _int(green["to"], f"{where}.green.to", green["from"] + 1, length - 1)
        _int(green["length"], f"{where}.green.length", 1, MAX_GREEN)
        expected_first = last + 1
    squares = length + sum(raw["green"]["length"] for raw in districts)
    if squares > MAX_SQUARES:
        raise BadSetup(f"{field}.districts", Text("at most {max_squares} squares in all, track and green paths "
                                                  "(here {squares})", max_squares=MAX_SQUARES, squares=squares))
    if expected_first != length:
        raise BadSetup(f"{field}.districts[{len(districts) - 1}].last", Text("must be {base}: the last district "
                                                                             "ends at the base", base=base))
    return districts


def _squares(spec: dict[str, Any], key: str, field: str, low: int, high: int) -> list[int]:
    squares = _list(spec.get(key, []), f"{field}.{key}")
    for i, sq in enumerate(squares):
        _int(sq, f"{field}.{key}[{i}]", low, high)
    if len(set(squares)) != len(squares):
        raise BadSetup(f"{field}.{key}", Text("lists a square twice"))
    return squares


def load_board(spec: Any, field: str = "options.board") -> Board:
    """A validated ``Board`` from its JSON object; ``BadSetup`` names the faulty field."""
    _object(spec, field, BOARD_KEYS, ("length", "districts"))
    if not isinstance(spec.get("name", "custom"), str) or len(spec.get("name", "")) > MAX_NAME:
        raise BadSetup(f"{field}.name", Text("must be a string of at most {max_name} characters",
                                             max_name=MAX_NAME))
    length = _int(spec["length"], f"{field}.length", 3, MAX_LENGTH)
    start = _int(spec.get("start", 0), f"{field}.start", 0, 0)
    base = _int(spec.get("base", length - 1), f"{field}.base", length - 1, length - 1)
    wall = spec.get("wall")
    if wall is not None:
        pair = _list(wall, f"{field}.wall")
        if len(pair) != 2:
            raise BadSetup(f"{field}.wall", Text("must be two neighbouring squares, like [44, 45]"))
        _int(pair[0], f"{field}.wall[0]", start, base - 1)
        _int(pair[1], f"{field}.wall[1]", pair[0] + 1, pair[0] + 1)
        wall = (pair[0], pair[1])
    raw_districts = _districts(spec, field, length, base)
    numbered = _squares(spec, "numbered", field, 1, base)
    kind = ["plain"] * length
    kind[start], kind[base] = "start", "base"
    for special in SPECIAL_KINDS:
        for i, sq in enumerate(_squares(spec, special, field, 1, base - 1)):
            if kind[sq] != "plain":
                raise BadSetup(f"{field}.{special}[{i}]", Text("square {sq} is already a {sq2} square",
                                                               sq=sq, sq2=kind[sq]))
            kind[sq] = special
    teleports: dict[int, int] = {}
    for i, raw in enumerate(_list(spec.get("teleports", []), f"{field}.teleports")):
        where = f"{field}.teleports[{i}]"
        _object(raw, where, ("from", "to"), ("from", "to"))
        entry = _int(raw["from"], f"{where}.from", 1, base - 1)
        if kind[entry] != "plain":
            raise BadSetup(f"{where}.from", Text("square {entry} is already a {entry2} square",
                                                 entry=entry, entry2=kind[entry]))
        kind[entry] = "teleport"
        teleports[entry] = _int(raw["to"], f"{where}.to", 1, base)
        if teleports[entry] < entry:
            raise BadSetup(f"{where}.to", Text("square {entry} is behind square {entry2}: a teleport only moves "
                                               "forward (MC-2: no turning back)",
                                               entry=teleports[entry], entry2=entry))
        if wall and min(entry, teleports[entry]) <= wall[0] < max(entry, teleports[entry]):
            raise BadSetup(f"{where}", Text("a teleport must not jump over the red wall"))
    for i, (entry, exit_) in enumerate(teleports.items()):
        if exit_ == entry or exit_ in teleports:
            raise BadSetup(f"{field}.teleports[{i}].to", Text("square {exit} is a teleport entry: no chains",
                                                              exit=exit_))
    districts: list[District] = []
    district_of = [0] * length
    following = [min(sq + 1, base) for sq in range(length)]
    next_id = length
    for i, raw in enumerate(raw_districts):
        green = raw["green"]
        if wall and green["from"] <= wall[0] < green["to"]:
            raise BadSetup(f"{field}.districts[{i}].green", Text("a green path must not span the red wall"))
        ids = tuple(range(next_id, next_id + green["length"]))
        next_id += green["length"]
        districts.append(District(raw.get("name", f"District {i + 1}"), raw["first"], raw["last"],
                                  green["from"], green["to"], ids))
        for sq in range(raw["first"], raw["last"] + 1):
            district_of[sq] = i
        kind.extend(["green"] * len(ids))
        district_of.extend([i] * len(ids))
        following.extend([*ids[1:], green["to"]])
    to_base = [0] * len(kind)
    for sq in range(base - 1, -1, -1):
        to_base[sq] = to_base[sq + 1] + 1
    for d in districts:
        for k, sq in enumerate(d.green):
            to_base[sq] = len(d.green) - k + to_base[d.green_to]
    return Board(spec=spec, name=spec.get("name", "custom"), length=length, start=start, base=base,
                 districts=tuple(districts), kind=tuple(kind), numbered=frozenset(numbered),
                 teleports=teleports, wall=wall, following=tuple(following), district_of=tuple(district_of),
                 to_base=tuple(to_base))


DEFAULT_BOARD_SPEC: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("default-board.json").read_text(encoding="utf-8"))
"""The shipped board, read once with the code (package data, like a constant)."""

DEFAULT_BOARD = load_board(DEFAULT_BOARD_SPEC, "default board")
