"""The deck (MG-2), hands and the draw up to 3 with reshuffle of the discard pile (MG-7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from domain.base import Rng
from domain.mouseguard.events import CardDrawn, DeckShuffled, Event

CARDS = ("sword", "stronghold", "diplomacy")
"""Card names, in the canonical order used for hands and for a rescue's discards."""
COPIES = 10
HAND_SIZE = 3
_RANK = {card: rank for rank, card in enumerate(CARDS)}


def full_deck() -> list[str]:
    """The 30 cards of MG-2, unshuffled."""
    return [card for card in CARDS for _ in range(COPIES)]


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """A hand in canonical order (its order carries no information)."""
    return tuple(sorted(cards, key=_RANK.__getitem__))


def without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The hand after playing or discarding one ``card``."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1:]


def is_rescue_hand(hand: tuple[str, ...]) -> bool:
    """MG-18: exactly one Sword, one Stronghold and one Diplomacy."""
    return hand == CARDS


def remainder(*used: Iterable[str]) -> Counter[str]:
    """How many of each card are not in ``used`` (negative counts mean too many were used)."""
    counts = Counter(dict.fromkeys(CARDS, COPIES))
    for cards in used:
        counts.subtract(cards)
    return counts


def refill(seat: int, hand_size: int, deck: tuple[str, ...], discard: tuple[str, ...], rng: Rng) -> list[Event]:
    """MG-7: the events of ``seat`` drawing up to 3 cards, reshuffling the discard pile when the deck runs out."""
    events: list[Event] = []
    deck_list, pile = list(deck), list(discard)
    for _ in range(HAND_SIZE - hand_size):
        if not deck_list:
            if not pile:
                break  # every card is in a hand: nothing left to draw
            rng.shuffle(pile)
            events.append(DeckShuffled(count=len(pile), source="discard", order=list(pile)))
            deck_list, pile = pile, []
        events.append(CardDrawn(seat=seat, card=deck_list.pop(0)))
    return events
