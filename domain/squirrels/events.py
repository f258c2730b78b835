"""The events of Foraging Squirrels. Everything is face up: no field is ever hidden."""

from __future__ import annotations

from typing import Any

from domain.base import Event


class GameCreated(Event, tag="game_created"):
    """Seats, options, and the position (``None``: open packs and deal afresh)."""

    seats: int
    options: dict[str, Any]
    position: dict[str, Any] | None = None


class BoostersOpened(Event, tag="boosters_opened"):
    """Every card of both packs, in pack order (see ``boosters``); Magic cards carry their game ``id``."""

    packs: list[list[dict[str, Any]]]


class CardsDealt(Event, tag="cards_dealt"):
    """FS-2: the 25 cells (card id or "squirrel"), the surplus set aside, and whose art card is the squirrel."""

    cells: dict[str, Any]
    set_aside: list[int]
    squirrel_pack: int
    squirrel_art: dict[str, Any] | None = None


class FirstPlayerChosen(Event, tag="first_player_chosen"):
    """FS-3: the seat that plays first."""

    seat: int


class Dug(Event, tag="dug"):
    """FS-7: ``seat`` moved the food card ``card`` from ``frm`` to the empty cell ``to``."""

    seat: int
    card: int
    frm: str
    to: str


class Moved(Event, tag="moved"):
    """FS-4: the squirrel went from ``frm`` to ``to`` collecting ``collected`` (ids) from ``cells``."""

    seat: int
    color: str
    direction: str
    frm: str
    to: str
    collected: list[int]
    cells: list[str]


class TurnPassed(Event, tag="turn_passed"):
    """The turn is over; ``seat`` plays next."""

    seat: int


class GameEnded(Event, tag="game_ended"):
    """FS-8/FS-10: the final scores (as ``scoring.score``), the winners and why."""

    winners: list[int]
    reason: str
    scores: list[dict[str, Any]]
    termination: str | None = None
    """"rules" (FS-8) or "max_plies"; absent from games stored before it existed (see ``state.evolve``)."""


EVENTS = (GameCreated, BoostersOpened, CardsDealt, FirstPlayerChosen, Dug, Moved, TurnPassed, GameEnded)
