"""The state of a Mouse Guard game and ``evolve``, which folds one event into it."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.base import MAX_PLIES, RULES, BadEvent, outcome
from domain.mouseguard import events as ev
from domain.mouseguard.board import BLACK, COLOURS, EMPTY, EMPTY_BOARD, LOCATIONS, WHITE
from domain.mouseguard.cards import CARDS, sort_hand, without


class Options(msgspec.Struct, frozen=True):
    """The options of docs/rules.md §2 (MG-1, MG-13, MG-16, MG-18, MG-20)."""

    edge_points: bool = False
    exit_extra_step: bool = False
    rescue_after_move: bool = False  # MG-18: the rescue follows the turn's step (002's "every turn moves a mouse")
    diplomacy_metric: str = "squares"
    max_plies: int | None = None


class State(msgspec.Struct, frozen=True):
    """Everything about a game, hidden parts included. Per-colour pairs are indexed ``BLACK``/``WHITE``."""

    options: Options
    phase: str = "setup"  # "setup" | "playing" | "finished"
    black: int = 0  # the seat playing Black
    board: tuple[int, ...] = EMPTY_BOARD
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    deck: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()  # oldest first
    captured: tuple[int, int] = (0, 0)
    turn: int = BLACK
    placements: tuple[tuple[str, ...] | None, tuple[str, ...] | None] = (None, None)  # secret, during setup
    plies: int = 0
    result: dict[str, Any] | None = None

    def colour_of(self, seat: int) -> int:
        """The colour a seat plays."""
        return BLACK if seat == self.black else WHITE

    def seat_of(self, colour: int) -> int:
        """The seat playing a colour."""
        return self.black if colour == BLACK else 1 - self.black


def colour_index(colour: str) -> int:
    """``"black"`` → ``BLACK``, ``"white"`` → ``WHITE``."""
    return COLOURS.index(colour)


def _pair(pair: tuple, index: int, value: Any) -> tuple:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def board_from_mice(mice: dict[str, str]) -> tuple[int, ...]:
    """A board tuple from a position's ``mice`` map."""
    cells = list(EMPTY_BOARD)
    for place, colour in mice.items():
        cells[LOCATIONS[place]] = colour_index(colour)
    return tuple(cells)


def _created(event: ev.GameCreated) -> State:
    if event.seats != 2:
        raise BadEvent(f"game_created: Mouse Guard has 2 seats, not {event.seats}")
    state = State(options=Options(**event.options))
    position = event.position
    if position is None:
        return state
    captured = position.get("captured", {})
    state = replace(state, discard=tuple(position.get("discard", ())),
                    captured=(captured.get("black", 0), captured.get("white", 0)))
    if position.get("mice") is None:
        return state
    return replace(state, phase="playing", board=board_from_mice(position["mice"]),
                   turn=colour_index(position.get("turn", "black")))


def evolve(state: State | None, event: ev.Event) -> State:
    """The state after ``event``; never mutates ``state``. ``BadEvent`` for an event that is not Mouse Guard's,
    malformed or out of place."""
    try:
        return _apply(state, event)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise BadEvent(f"{type(event).__name__} cannot be applied: {exc}") from None


def _cells(state: State, changes: dict[str, int]) -> tuple[int, ...]:
    cells = list(state.board)
    for place, content in changes.items():
        cells[LOCATIONS[place]] = content
    return tuple(cells)


def _holds(state: State, place: str, what: int, event: str) -> None:
    """``BadEvent`` unless location ``place`` holds ``what`` (a colour or ``EMPTY``)."""
    if place not in LOCATIONS:
        raise BadEvent(f"{event} names no location of the board: {place!r}")
    found = state.board[LOCATIONS[place]]
    if found != what:
        wanted = "empty" if what == EMPTY else f"a {COLOURS[what]} mouse"
        there = "empty" if found == EMPTY else f"a {COLOURS[found]} mouse"
        raise BadEvent(f"{event} needs {wanted} on {place}, but the board has {there} there")


def _seat_colour(state: State, seat: int, colour: str | None, event: str) -> int:
    if seat not in (0, 1):
        raise BadEvent(f"{event} names no seat of the game: {seat!r}")
    index = state.colour_of(seat)
    if colour is not None and colour != COLOURS[index]:
        raise BadEvent(f"{event}: seat {seat} plays {COLOURS[index]}, not {colour}")
    return index


def _cards(cards, event: str) -> tuple[str, ...]:
    if any(card not in CARDS for card in cards):
        raise BadEvent(f"{event} names a card that does not exist: {list(cards)!r}")
    return tuple(cards)


def _apply(state: State | None, event: ev.Event) -> State:
    """Each event is applied from the facts it carries, after checking them against the state: a contradiction
    (a card the deck does not have on top, a mouse where the board has none …) is a ``BadEvent``."""
    if isinstance(event, ev.GameCreated):
        return _created(event)
    if state is None:
        raise BadEvent("the first event of a game is game_created")
    name = type(event).__name__
    match event:
        case ev.Moved(colour=colour, frm=frm, to=to):
            _holds(state, frm, colour_index(colour), name)
            _holds(state, to, EMPTY, name)
            return replace(state, board=_cells(state, {frm: EMPTY, to: colour_index(colour)}))
        case ev.Swapped(a=a, b=b):
            if a not in LOCATIONS or b not in LOCATIONS or EMPTY in (state.board[LOCATIONS[a]],
                                                                     state.board[LOCATIONS[b]]):
                raise BadEvent(f"{name} needs a mouse on {a!r} and on {b!r}")
            swapped = {a: state.board[LOCATIONS[b]], b: state.board[LOCATIONS[a]]}
            return replace(state, board=_cells(state, swapped))
        case ev.Captured(colour=colour, at=at):
            index = colour_index(colour)
            _holds(state, at, index, name)
            return replace(state, board=_cells(state, {at: EMPTY}),
                           captured=_pair(state.captured, index, state.captured[index] + 1))
        case ev.CardPlayed(seat=seat, colour=colour, card=card) | ev.TurnPassed(
                seat=seat, colour=colour, card=card):
            index = _seat_colour(state, seat, colour, name)
            if card not in state.hands[index]:
                raise BadEvent(f"{name}: seat {seat} holds no {card!r} (hand: {', '.join(state.hands[index])})")
            return replace(state, hands=_pair(state.hands, index, without(state.hands[index], card)),
                           discard=state.discard + (card,))
        case ev.CardDrawn(seat=seat, card=card):
            index = _seat_colour(state, seat, None, name)
            if not state.deck:
                raise BadEvent(f"{name}: the deck is empty")
            if card is not None and card != state.deck[0]:
                raise BadEvent(f"{name} names {card!r}, but the top card of the deck is {state.deck[0]}")
            hand = sort_hand((*state.hands[index], state.deck[0]))
            return replace(state, hands=_pair(state.hands, index, hand), deck=state.deck[1:])
        case ev.TurnEnded(seat=seat, ply=ply):
            if state.phase != "playing" or seat != state.seat_of(state.turn) or ply != state.plies + 1:
                raise BadEvent(f"{name}: seat {seat} ending ply {ply} does not follow the game "
                               f"(ply {state.plies}, {COLOURS[state.turn]} to move)")
            return replace(state, turn=1 - state.turn, plies=ply)
        case ev.Rescued(seat=seat, colour=colour, at=at):
            index = _seat_colour(state, seat, colour, name)
            _holds(state, at, EMPTY, name)
            if state.captured[index] == 0:
                raise BadEvent(f"{name}: no {colour} mouse is captured")
            if sorted(state.hands[index]) != sorted(CARDS):
                raise BadEvent(f"{name}: a rescue discards one card of each type, and the hand is "
                               f"{', '.join(state.hands[index]) or 'empty'}")
            return replace(state, board=_cells(state, {at: index}), hands=_pair(state.hands, index, ()),
                           discard=state.discard + CARDS,
                           captured=_pair(state.captured, index, state.captured[index] - 1))
        case ev.ColoursDrawn(black=black):
            if black not in (0, 1):
                raise BadEvent(f"{name} names no seat of the game: {black!r}")
            return replace(state, black=black)
        case ev.DeckShuffled(order=order, source=source, count=count):
            order = _cards(order or (), name)
            if count != len(order):
                raise BadEvent(f"{name} counts {count} cards but lists {len(order)}")
            if source == "discard":
                if sorted(order) != sorted(state.discard) or state.deck:
                    raise BadEvent(f"{name}: a reshuffle makes the discard pile the deck, once the deck is empty")
                return replace(state, deck=order, discard=())
            return replace(state, deck=order)
        case ev.DeckSet(order=order):
            return replace(state, deck=_cards(order or (), name))
        case ev.HandSet(seat=seat, cards=cards):
            index = _seat_colour(state, seat, None, name)
            return replace(state, hands=_pair(state.hands, index, sort_hand(_cards(cards or (), name))))
        case ev.MicePlaced(seat=seat, points=points):
            index = _seat_colour(state, seat, None, name)
            if state.phase != "setup" or state.placements[index] is not None:
                raise BadEvent(f"{name}: seat {seat} cannot place its mice now")
            if any(point not in LOCATIONS for point in points or ()):
                raise BadEvent(f"{name} names a point that does not exist: {points!r}")
            return replace(state, placements=_pair(state.placements, index, tuple(points or ())))
        case ev.PlacementsRevealed(black=black, white=white):
            if state.phase != "setup":
                raise BadEvent(f"{name}: the setup is over")
            points = [*black, *white]
            if any(point not in LOCATIONS for point in points) or len(set(points)) != len(points):
                raise BadEvent(f"{name} names a point twice or one that does not exist")
            mice = dict.fromkeys(black, "black") | dict.fromkeys(white, "white")
            return replace(state, phase="playing", board=board_from_mice(mice), placements=(None, None),
                           turn=BLACK)
        case ev.GameEnded(winners=winners, reason=reason, termination=termination):
            if any(w not in (0, 1) for w in winners):
                raise BadEvent(f"{name} names a winner who is no seat of the game: {winners!r}")
            # Before ``termination`` was recorded, the only game without a winner was a max_plies draw.
            termination = termination or (RULES if winners else MAX_PLIES)
            return replace(state, phase="finished", result=outcome(winners, reason, termination))
    raise BadEvent(f"not a Mouse Guard event: {event!r}")
