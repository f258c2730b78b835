"""The position JSON of docs/rules.md §2 "Position": validation on load, and dump.

``{"turn": "black", "mice": {"c3": "black", "D5": "white"}, "hands": {"black": [...], "white": [...]},
"deck": [... top first ...], "discard": [...], "captured": {"black": 0, "white": 1}}``

Omitted fields take their start-of-game value: no ``mice`` means the secret setup is still to come (MG-4),
no ``hands`` means 3 cards dealt from the deck, no ``deck`` means a fresh shuffle of the cards the position
leaves, Black to move, nothing discarded or captured.

MG-4 deals the cards only once both placements are revealed: a position without ``mice`` (in the setup) has
empty hands (``[]`` or omitted), dealt from its deck at the reveal; a position with mice has 3-card hands (or
omitted ones, dealt at once).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domain.base import BadSetup
from domain.mouseguard.board import (
    COLOURS,
    CORNERS,
    LOCATIONS,
    N_POINTS,
    WINNING_SQUARES,
    Geometry,
    is_point,
    name,
)
from domain.mouseguard.cards import CARDS, COPIES, HAND_SIZE, remainder
from domain.mouseguard.state import State, board_from_mice
from domain.mouseguard.turns import stronghold_touching
from domain.text import Text

FIELDS = ("turn", "mice", "hands", "deck", "discard", "captured")
MICE_PER_COLOUR = 4


class Loaded(NamedTuple):
    """A checked position: its public part (for ``game_created``) and its hidden parts."""

    public: dict[str, Any]
    hands: tuple[list[str] | None, list[str] | None]  # by colour; None: deal from the deck (in the setup: at the
    # reveal of the placements, MG-4)
    deck: list[str] | None  # None: shuffle ``remaining``
    remaining: list[str]


def _cards(value: Any, field: str) -> list[str]:
    if not isinstance(value, list):
        raise BadSetup(field, Text("must be a list of card names"))
    for index, card in enumerate(value):
        if card not in CARDS:
            raise BadSetup(f"{field}[{index}]", Text("{card} is not a card (sword, stronghold, diplomacy)",
                                                     card=repr(card)))
    return list(value)


def _per_colour(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadSetup(field, Text("must be an object with keys black and white"))
    for key in value:
        if key not in COLOURS:
            raise BadSetup(f"{field}.{key}", Text("unknown colour (black or white)"))
    return value


def _captured(position: dict[str, Any]) -> dict[str, int]:
    given = _per_colour(position.get("captured", {}), "position.captured")
    captured = {}
    for colour in COLOURS:
        count = given.get(colour, 0)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MICE_PER_COLOUR:
            raise BadSetup(f"position.captured.{colour}", Text("must be a number of mice from 0 to 4, not {count}",
                                                               count=repr(count)))
        captured[colour] = count
    return captured


def _mice(count: int) -> str:
    """"1 mouse", "3 mice"."""
    return f"{count} {'mouse' if count == 1 else 'mice'}"


def _checked_mice(mice: Any, geo: Geometry, captured: dict[str, int]) -> dict[str, str]:
    if not isinstance(mice, dict):
        raise BadSetup("position.mice", Text("must be an object mapping points and squares to colours"))
    for place, colour in mice.items():
        field = f"position.mice.{place}"
        if place not in LOCATIONS:
            raise BadSetup(field, Text("not a point (a1–g9) or a square (A1–F8)"))
        if colour not in COLOURS:
            raise BadSetup(field, Text("{colour} is not a colour (black or white)", colour=repr(colour)))
        if is_point(LOCATIONS[place]) and not geo.playable[LOCATIONS[place]]:
            raise BadSetup(field, Text("{place} is on the board edge, which is not playable (option edge_points)",
                                       place=place))
    board = board_from_mice(mice)
    for place in mice:
        loc = LOCATIONS[place]
        if is_point(loc) and stronghold_touching(board, loc) >= 0:
            square = name(stronghold_touching(board, loc))
            raise BadSetup(f"position.mice.{place}", Text("{place} is a corner of the stronghold on {square}: no "
                                                          "mouse may stand there (MG-12)",
                                                          place=place, square=square))
        if not is_point(loc) and place in WINNING_SQUARES[COLOURS.index(mice[place])]:
            raise BadSetup(f"position.mice.{place}", Text("the {place} stronghold on {place2} has already won",
                                                          place=mice[place], place2=place))
    for colour in COLOURS:
        on_board = sum(1 for c in mice.values() if c == colour)
        if on_board + captured[colour] != MICE_PER_COLOUR:
            raise BadSetup("position.mice", Text("{colour} has {on_board} on the board and {colour2} captured, "
                                                 "but a colour has {mice_per_colour} mice",
                                                 colour=colour, on_board=_mice(on_board), colour2=captured[colour],
                                                 mice_per_colour=MICE_PER_COLOUR))
        if on_board == 0:
            raise BadSetup("position.mice", Text("every {colour} mouse is captured: the game is over",
                                                 colour=colour))
    return dict(mice)


def load_position(position: dict[str, Any], geo: Geometry) -> Loaded:
    """Check a position (``BadSetup`` names the culprit) and split it into public and hidden parts."""
    if not isinstance(position, dict):
        raise BadSetup("position", Text("must be an object"))
    for key in position:
        if key not in FIELDS:
            raise BadSetup(f"position.{key}", Text("unknown field (known: {fields})", fields=', '.join(FIELDS)))
    turn = position.get("turn", "black")
    if turn not in COLOURS:
        raise BadSetup("position.turn", Text("must be black or white, not {turn}", turn=repr(turn)))
    captured = _captured(position)
    mice = None
    if "mice" in position:
        mice = _checked_mice(position["mice"], geo, captured)
    else:
        if turn != "black":
            raise BadSetup("position.turn", Text("without mice the game starts with the setup, and Black moves "
                                                 "first"))
        if any(captured.values()):
            raise BadSetup("position.captured", Text("without mice the game starts with the setup: nothing is "
                                                     "captured"))
    discard = _cards(position.get("discard", []), "position.discard")
    given_hands = _per_colour(position.get("hands", {}), "position.hands")
    hands = tuple(_cards(given_hands[c], f"position.hands.{c}") if c in given_hands else None for c in COLOURS)
    for colour, hand in zip(COLOURS, hands):
        if mice is None and hand:
            raise BadSetup(f"position.hands.{colour}", Text("without mice the game starts with the setup, and no "
                                                            "card is dealt before the placements are revealed "
                                                            "(MG-4): the hand must be empty"))
        if mice is not None and hand is not None and len(hand) != HAND_SIZE:
            raise BadSetup(f"position.hands.{colour}", Text("a hand holds {hand_size} cards between turns, not "
                                                            "{count}", hand_size=HAND_SIZE, count=len(hand)))
    if mice is None:
        hands = (None, None)  # both dealt from the deck when the placements are revealed
    deck = _cards(position["deck"], "position.deck") if "deck" in position else None
    left = remainder(discard, *(hand for hand in hands if hand), deck or [])
    surplus = [card for card in CARDS if left[card] < 0]
    if surplus:  # named before anything missing: a card too many is the mistake, whatever else is short
        total = sum(COPIES - left[card] for card in CARDS)
        many = ", ".join(f"{COPIES - left[card]} {card} cards" for card in surplus)
        raise BadSetup("position", Text("{many} ({total} cards in all), but the game has {copies} of each, "
                                        "{value} in all",
                                        many=many, total=total, copies=COPIES, value=COPIES * len(CARDS)))
    for card in CARDS:
        if deck is not None and left[card] > 0:
            raise BadSetup("position.deck", Text("{card} {card2} card(s) are missing: hands, deck and discard "
                                                 "hold all {value} cards",
                                                 card=left[card], card2=card, value=COPIES * len(CARDS)))
    missing_hands = sum(1 for hand in hands if hand is None)
    if (len(deck) if deck is not None else sum(left.values())) < missing_hands * HAND_SIZE:
        raise BadSetup("position.deck", Text("too few cards to deal the missing hands"))
    public = {"turn": turn, "mice": mice, "discard": discard, "captured": captured}
    return Loaded(public, hands, deck, [card for card in CARDS for _ in range(left[card])])  # type: ignore[arg-type]


def public_mice(state: State) -> dict[str, str]:
    """The ``mice`` map of a position: points first, then strongholds."""
    return {name(loc): COLOURS[cell] for loc, cell in enumerate(state.board) if cell >= 0}


def dump_position(state: State) -> dict[str, Any]:
    """The position JSON of ``state``, hidden parts included (``mice`` omitted before the setup is over, when
    the hands are still empty: MG-4 deals at the reveal)."""
    position: dict[str, Any] = {"turn": COLOURS[state.turn]}
    if state.phase != "setup":
        position["mice"] = public_mice(state)
    position["hands"] = {colour: list(hand) for colour, hand in zip(COLOURS, state.hands)}
    position["deck"] = list(state.deck)
    position["discard"] = list(state.discard)
    position["captured"] = dict(zip(COLOURS, state.captured))
    return position


def strongholds(state: State) -> list[str]:
    """The squares holding a stronghold."""
    return [name(loc) for loc in range(N_POINTS, len(state.board)) if state.board[loc] >= 0]


def closed_points(state: State) -> list[str]:
    """The points closed by strongholds (MG-9), in canonical order."""
    closed = {corner for loc in range(N_POINTS, len(state.board)) if state.board[loc] >= 0
              for corner in CORNERS[loc - N_POINTS]}
    return [name(p) for p in sorted(closed)]
