"""The events of Mission commando: facts recorded once, replayed without dice or shuffles."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.base import Event


class GameCreated(Event, frozen=True, tag="game_created"):
    """The start: options, the full board object, whose turn, every agent, the public discard pile."""

    seats: int
    options: dict[str, Any]
    board: dict[str, Any]
    turn: int
    agents: list[dict[str, Any]]
    discard: list[str] = msgspec.field(default_factory=list)


class DeckShuffled(Event, frozen=True, tag="deck_shuffled"):
    """A new caution draw pile; ``order`` (top first) is hidden from every player."""

    count: int
    order: list[str] | None = None
    reshuffle: bool = False


class DiceRolled(Event, frozen=True, tag="dice_rolled"):
    """A die face 0-5, for a move or for one side of a fight."""

    seat: int
    face: int
    purpose: str = "move"


class MapUsed(Event, frozen=True, tag="map_used"):
    seat: int
    steps: int


class Moved(Event, frozen=True, tag="moved"):
    """An agent changes square. ``reason``: move, teleport, back (Obstacle), defeat (collision), retreat."""

    seat: int
    frm: int
    to: int
    reason: str = "move"
    banknotes: int = 0


class WallReached(Event, frozen=True, tag="wall_reached"):
    """The agent stands before the red wall with ``steps_left`` to walk; ``moved``: it got there this turn."""

    seat: int
    steps_left: int
    moved: bool = True


class WallCrossed(Event, frozen=True, tag="wall_crossed"):
    seat: int
    fee: int


class WallStopped(Event, frozen=True, tag="wall_stopped"):
    seat: int


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    seat: int
    card: str


class CardResolved(Event, frozen=True, tag="card_resolved"):
    """The drawn card's outcome: an accessory discarded, or its effect (money change, lost turn)."""

    seat: int
    card: str
    accessory: bool = False
    money: int = 0
    skip: bool = False


class ChallengeOffered(Event, frozen=True, tag="challenge_offered"):
    seat: int
    targets: list[int]


class ChallengeDeclined(Event, frozen=True, tag="challenge_declined"):
    seat: int


class FightStarted(Event, frozen=True, tag="fight_started"):
    """``kind``: collision or challenge; ``then``: after a collision won by the mover, "effects" of the square
    apply, or the turn "end"s."""

    kind: str
    attacker: int
    defender: int
    square: int
    then: str = "end"


class WeaponsCommitted(Event, frozen=True, tag="weapons_committed"):
    """A secret commitment: ``count`` is hidden from every other seat (shown by ``weapons_revealed``)."""

    seat: int
    count: int | None = None


class WeaponsRevealed(Event, frozen=True, tag="weapons_revealed"):
    attacker: int
    defender: int


class FightWon(Event, frozen=True, tag="fight_won"):
    winner: int
    loser: int
    attacker_total: int
    defender_total: int


class Swapped(Event, frozen=True, tag="swapped"):
    winner: int
    loser: int
    winner_square: int
    loser_square: int


class SwapDeclined(Event, frozen=True, tag="swap_declined"):
    seat: int


class Fined(Event, frozen=True, tag="fined"):
    seat: int
    amount: int


class ShopOpened(Event, frozen=True, tag="shop_opened"):
    seat: int


class Bought(Event, frozen=True, tag="bought"):
    seat: int
    item: str
    price: int


class ShopClosed(Event, frozen=True, tag="shop_closed"):
    seat: int


class TurnLost(Event, frozen=True, tag="turn_lost"):
    seat: int


class TurnPassed(Event, frozen=True, tag="turn_passed"):
    seat: int


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The end: ``winners`` is empty for a draw; ``termination`` "rules" or "max_plies" (absent from games stored
    before it existed: see ``state.evolve``)."""

    winners: list[int]
    reason: str
    termination: str | None = None


EVENTS = (GameCreated, DeckShuffled, DiceRolled, MapUsed, Moved, WallReached, WallCrossed, WallStopped,
          CardDrawn, CardResolved, ChallengeOffered, ChallengeDeclined, FightStarted, WeaponsCommitted,
          WeaponsRevealed, FightWon, Swapped, SwapDeclined, Fined, ShopOpened, Bought, ShopClosed, TurnLost,
          TurnPassed, GameEnded)
