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
    """The options of RULES.md §2 (MG-1, MG-13, MG-16, MG-20)."""

    edge_points: bool = False
    exit_extra_step: bool = False
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


def _apply(state: State | None, event: ev.Event) -> State:
    if isinstance(event, ev.GameCreated):
        return _created(event)
    if state is None:
        raise BadEvent("the first event of a game is game_created")
    match event:
        case ev.Moved(frm=frm, to=to):
            cells = list(state.board)
            cells[LOCATIONS[to]], cells[LOCATIONS[frm]] = cells[LOCATIONS[frm]], EMPTY
            return replace(state, board=tuple(cells))
        case ev.Swapped(a=a, b=b):
            cells = list(state.board)
            cells[LOCATIONS[a]], cells[LOCATIONS[b]] = cells[LOCATIONS[b]], cells[LOCATIONS[a]]
            return replace(state, board=tuple(cells))
        case ev.Captured(colour=colour, at=at):
            cells = list(state.board)
            cells[LOCATIONS[at]] = EMPTY
            index = colour_index(colour)
            return replace(state, board=tuple(cells),
                           captured=_pair(state.captured, index, state.captured[index] + 1))
        case ev.CardPlayed(seat=seat, card=card) | ev.TurnPassed(seat=seat, card=card):
            colour = state.colour_of(seat)
            return replace(state, hands=_pair(state.hands, colour, without(state.hands[colour], card)),
                           discard=state.discard + (card,))
        case ev.CardDrawn(seat=seat):
            colour = state.colour_of(seat)
            return replace(state, hands=_pair(state.hands, colour, sort_hand(state.hands[colour] + state.deck[:1])),
                           deck=state.deck[1:])
        case ev.TurnEnded(ply=ply):
            return replace(state, turn=1 - state.turn, plies=ply)
        case ev.Rescued(colour=colour, at=at):
            index = colour_index(colour)
            cells = list(state.board)
            cells[LOCATIONS[at]] = index
            return replace(state, board=tuple(cells), hands=_pair(state.hands, index, ()),
                           discard=state.discard + CARDS,
                           captured=_pair(state.captured, index, state.captured[index] - 1))
        case ev.ColoursDrawn(black=black):
            return replace(state, black=black)
        case ev.DeckShuffled(order=order, source=source):
            discard = () if source == "discard" else state.discard
            return replace(state, deck=tuple(order or ()), discard=discard)
        case ev.DeckSet(order=order):
            return replace(state, deck=tuple(order or ()))
        case ev.HandSet(seat=seat, cards=cards):
            return replace(state, hands=_pair(state.hands, state.colour_of(seat), sort_hand(cards or ())))
        case ev.MicePlaced(seat=seat, points=points):
            return replace(state, placements=_pair(state.placements, state.colour_of(seat), tuple(points or ())))
        case ev.PlacementsRevealed(black=black, white=white):
            mice = dict.fromkeys(black, "black") | dict.fromkeys(white, "white")
            return replace(state, phase="playing", board=board_from_mice(mice), placements=(None, None),
                           turn=BLACK)
        case ev.GameEnded(winners=winners, reason=reason, termination=termination):
            # Before ``termination`` was recorded, the only game without a winner was a max_plies draw.
            termination = termination or (RULES if winners else MAX_PLIES)
            return replace(state, phase="finished", result=outcome(winners, reason, termination))
    raise BadEvent(f"not a Mouse Guard event: {event!r}")
