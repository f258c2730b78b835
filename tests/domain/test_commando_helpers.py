"""Helpers shared by the Mission commando tests (no tests here): rigged dice, games from positions."""

from __future__ import annotations

import random
from typing import Any

from domain import commando
from domain.base import Setup, allows, event_type
from domain.commando.constants import DIE_FACES


class Dice(random.Random):
    """An rng whose die rolls are the given faces, in order; shuffles stay seeded."""

    def __init__(self, *faces: int, seed: int = 0):
        super().__init__(seed)
        self.faces = list(faces)

    def choice(self, seq):  # type: ignore[override]
        if tuple(seq) == DIE_FACES:
            assert self.faces, "the test did not plan this die roll"
            return self.faces.pop(0)
        return super().choice(seq)


def fold(events, state=None):
    """The state after ``events``."""
    for event in events:
        state = commando.evolve(state, event)
    return state


def agent(square: int = 0, **fields: Any) -> dict[str, Any]:
    """One agent of a position (path derived by the loader)."""
    return {"square": square, **fields}


class Game:
    """A game under test: its state, every event so far, and ``play`` to send commands."""

    def __init__(self, *agents: dict[str, Any], seats: int | None = None, turn: int | None = 0,
                 deck: list[str] | None = None, options: dict[str, Any] | None = None,
                 board: Any = None, seed: int = 0, position: bool = True):
        pos: dict[str, Any] | None = None
        if position:
            pos = {"agents": list(agents) if agents else None}
            if pos["agents"] is None:
                del pos["agents"]
            if turn is not None:
                pos["turn"] = turn
            if deck is not None:
                pos["caution_deck"] = deck
            if board is not None:
                pos["board"] = board
        count = seats if seats is not None else max(len(agents), 2)
        self.events = commando.initial(Setup(seats=count, options=options or {}, position=pos),
                                       random.Random(seed))
        self.state = fold(self.events)
        self.last: list = []

    def play(self, text: str, *faces: int, seat: int | None = None) -> list:
        """``text`` sent by ``seat`` (default: the first seat to act), with the die showing ``faces``."""
        seat = commando.to_act(self.state)[0] if seat is None else seat
        assert allows(commando.legal(self.state, seat), commando.format(commando.parse(text))), (
            text, commando.legal(self.state, seat))
        rng = Dice(*faces)
        self.last = commando.decide(self.state, seat, commando.parse(text), rng)
        assert not rng.faces, f"unused die faces {rng.faces}"
        self.state = fold(self.last, self.state)
        self.events = [*self.events, *self.last]
        return self.last

    def refuse(self, text: str, seat: int | None = None) -> str:
        """The reason ``decide`` gives for refusing ``text`` (and ``legal`` agrees it is illegal)."""
        from domain.base import IllegalMove

        seat = commando.to_act(self.state)[0] if seat is None else seat
        cmd = commando.parse(text)
        assert not allows(commando.legal(self.state, seat), commando.format(cmd))
        try:
            commando.decide(self.state, seat, cmd, Dice(*DIE_FACES))
        except IllegalMove as error:
            return str(error)
        raise AssertionError(f"{text!r} was accepted")

    def square(self, seat: int) -> int:
        return self.state.agents[seat].square

    def agent(self, seat: int):
        return self.state.agents[seat]

    @property
    def types(self) -> list[str]:
        return [event_type(e) for e in self.last]

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def to_act(self) -> list[int]:
        return commando.to_act(self.state)


def types(events) -> list[str]:
    return [event_type(e) for e in events]


def find(events, tag: str):
    """The first event tagged ``tag``."""
    return next(e for e in events if event_type(e) == tag)
