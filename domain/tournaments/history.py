"""What the pairing rules read of the rounds played: scores, who met whom, seats taken, byes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from domain.tournaments.scoring import Played


@dataclass
class History:
    scores: Counter = field(default_factory=Counter)
    met: Counter = field(default_factory=Counter)  # frozenset({a, b}) → times at one table
    first_seats: Counter = field(default_factory=Counter)  # games played in seat 0 ("white")
    second_seats: Counter = field(default_factory=Counter)  # games played in any later seat
    last_seat: dict = field(default_factory=dict)  # player → seat of their last game
    byes: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, tables: Iterable[Played]) -> History:
        h = cls()
        for table in tables:
            for name, points in zip(table.players, table.points, strict=True):
                h.scores[name] += points
            if table.kind == "bye":
                h.byes[table.players[0]] += 1
                continue
            if table.kind != "game":
                continue
            for a, b in combinations(table.players, 2):
                h.met[frozenset((a, b))] += 1
            for seat, name in enumerate(table.players):
                (h.first_seats if seat == 0 else h.second_seats)[name] += 1
                h.last_seat[name] = seat
        return h

    def balance(self, name: str) -> int:
        """Games in the first seat minus games in the others."""
        return self.first_seats[name] - self.second_seats[name]

    def together(self, names: Iterable[str]) -> int:
        """How many pairs of ``names`` have met before (counted once per earlier meeting)."""
        return sum(self.met[frozenset(pair)] for pair in combinations(names, 2))
