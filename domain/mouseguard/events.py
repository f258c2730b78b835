"""The events of a Mouse Guard game. Hidden fields are ``X | None = None`` so that ``redact`` can blank them."""

from __future__ import annotations

from typing import Any

from domain.base import Event


class GameCreated(Event, frozen=True, tag="game_created"):
    """A new game; ``position`` is the public part of a start position (no hands, no deck), or None."""

    seats: int
    options: dict[str, Any]
    position: dict[str, Any] | None = None


class ColoursDrawn(Event, frozen=True, tag="colours_drawn"):
    """MG-3: which seat plays Black (the other plays White)."""

    black: int


class DeckShuffled(Event, frozen=True, tag="deck_shuffled"):
    """A new deck, top first: a fresh deck, what a position leaves, or the reshuffled discard pile."""

    count: int
    source: str  # "fresh" | "remainder" | "discard"
    order: list[str] | None = None


class DeckSet(Event, frozen=True, tag="deck_set"):
    """The deck given by a start position, top first."""

    count: int
    order: list[str] | None = None


class HandSet(Event, frozen=True, tag="hand_set"):
    """A hand given by a start position."""

    seat: int
    count: int
    cards: list[str] | None = None


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    """``seat`` draws the top card of the deck."""

    seat: int
    card: str | None = None


class MicePlaced(Event, frozen=True, tag="mice_placed"):
    """MG-4: a seat's secret setup; ``points`` stay hidden from the others until both have placed."""

    seat: int
    points: list[str] | None = None


class PlacementsRevealed(Event, frozen=True, tag="placements_revealed"):
    """MG-4: both setups, revealed together; Black moves next."""

    black: list[str]
    white: list[str]


class Moved(Event, frozen=True, tag="moved"):
    """A mouse goes from one location to another; ``cause`` says why (step, sword, push, leap, displace,
    exit, pull)."""

    colour: str
    frm: str
    to: str
    cause: str = "step"


class Swapped(Event, frozen=True, tag="swapped"):
    """MG-14: Diplomacy swaps the moved mouse on ``a`` with the enemy mouse on ``b``."""

    a: str
    b: str


class Captured(Event, frozen=True, tag="captured"):
    """A mouse is pushed off the playable points or onto a stronghold corner (MG-8, MG-12)."""

    colour: str
    at: str


class CardPlayed(Event, frozen=True, tag="card_played"):
    """A card played on the moved mouse; ``args`` are its notation arguments (``["c5", "d5"]``)."""

    seat: int
    colour: str
    card: str
    args: list[str]


class Rescued(Event, frozen=True, tag="rescued"):
    """MG-18: one card of each type discarded, a captured mouse back on ``at``."""

    seat: int
    colour: str
    at: str


class TurnPassed(Event, frozen=True, tag="turn_passed"):
    """MG-6 (d): a forced pass, discarding ``card``."""

    seat: int
    colour: str
    card: str


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    """The turn of ``seat`` is over (cards drawn); the other colour moves next."""

    seat: int
    ply: int


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The end: ``winners`` is empty for a draw; ``termination`` "rules" or "max_plies" (absent from games stored
    before it existed: see ``state.evolve``)."""

    winners: list[int]
    reason: str
    termination: str | None = None


EVENTS = (GameCreated, ColoursDrawn, DeckShuffled, DeckSet, HandSet, CardDrawn, MicePlaced, PlacementsRevealed,
          Moved, Swapped, Captured, CardPlayed, Rescued, TurnPassed, TurnEnded, GameEnded)
