"""What each viewer may see of a Mouse Guard game: ``view``, ``redact``, ``describe`` and ``render``."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.base import REVEAL_ALL, Viewer, plain_result
from domain.mouseguard import events as ev
from domain.mouseguard import turns
from domain.mouseguard.board import (
    COLOURS,
    POINT_COLS,
    POINT_ROWS,
    SQUARE_COLS,
    geometry,
    name,
    point_id,
    square_id,
)
from domain.mouseguard.cards import HAND_SIZE
from domain.mouseguard.position import closed_points, public_mice, strongholds
from domain.mouseguard.rules import OPTIONS, result, to_act
from domain.mouseguard.state import State
from domain.text import Seat, Side, Text


def _seat(viewer: Viewer) -> int | None:
    return viewer if isinstance(viewer, int) and not isinstance(viewer, bool) and viewer in (0, 1) else None


def _per_colour(pair) -> dict[str, Any]:
    """``{"black": pair[0], "white": pair[1]}``."""
    return dict(zip(COLOURS, pair))


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The game as ``viewer`` may see it: own hand only, counts for the rest, all once the game is over.

    During the setup every hand is still empty (MG-4 deals once the placements are revealed)."""
    seat = _seat(viewer)
    colour = None if seat is None else state.colour_of(seat)
    reveal = viewer == REVEAL_ALL or state.phase == "finished"
    geo = geometry(state.options.edge_points)
    mice = public_mice(state)
    out: dict[str, Any] = {
        "options": msgspec.structs.asdict(state.options),
        "phase": state.phase,
        "you": seat,
        "colour": None if colour is None else COLOURS[colour],
        "seats": {"black": state.black, "white": 1 - state.black},
        "turn": COLOURS[state.turn] if state.phase == "playing" else None,
        "to_act": to_act(state),
        "plies": state.plies,
        "mice": mice,
        "strongholds": strongholds(state),
        "closed": closed_points(state),
        "setup_rows": {c: [row + 1 for row in geo.setup_rows[i]] for i, c in enumerate(COLOURS)},
        "hand_counts": _per_colour(len(hand) for hand in state.hands),
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "captured": _per_colour(state.captured),
        "result": plain_result(result(state)),
    }
    if colour is not None:
        out["hand"] = list(state.hands[colour])
    position: dict[str, Any] = {"turn": COLOURS[state.turn]}
    if state.phase != "setup":
        position["mice"] = dict(mice)
    position.update(discard=list(state.discard), captured=_per_colour(state.captured))
    if colour is not None:
        position["hands"] = {COLOURS[colour]: list(state.hands[colour])}
    out["position"] = position
    if state.phase == "setup":
        out["placed"] = _per_colour(placed is not None for placed in state.placements)
        own = None if colour is None else state.placements[colour]
        out["placement"] = None if own is None else list(own)
    if reveal:
        out["hands"] = _per_colour(list(hand) for hand in state.hands)
        out["deck"] = list(state.deck)
        if state.phase == "setup":
            out["placements"] = _per_colour(None if p is None else list(p) for p in state.placements)
    return out


def redact(event: ev.Event, viewer: Viewer) -> ev.Event:
    """``event`` as ``viewer`` sees it: the deck order for no one, a hand, draw or setup for its seat only."""
    if viewer == REVEAL_ALL:
        return event
    seat = _seat(viewer)
    match event:
        case ev.DeckShuffled() | ev.DeckSet():
            return replace(event, order=None)
        case ev.HandSet() if event.seat != seat:
            return replace(event, cards=None)
        case ev.CardDrawn() if event.seat != seat:
            return replace(event, card=None)
        case ev.MicePlaced() if event.seat != seat:
            return replace(event, points=None)
    return event


SIDES = (Text("Black"), Text("White"))
"""Each colour as the move list names it."""
_MOVES = {  # a line opens with the mouse's side, said as its player once the service knows who drew it
    "step": Text("{side}: {frm}-{to}"),
    "sword": Text("{side}: sword step {frm} → {to}"),
    "leap": Text("{side}: builds a stronghold on {to} (from {frm})"),
    "exit": Text("{side}: leaves the stronghold on {frm} for {to}"),
    "push": Text("{side}: mouse pushed {frm} → {to}"),
    "displace": Text("{side}: mouse displaced {frm} → {to}"),
    "pull": Text("{side}: mouse pulled out of {frm} onto {to}"),
}
_CARDS = {"sword": Text("Sword"), "stronghold": Text("Stronghold"), "diplomacy": Text("Diplomacy")}
"""The cards by the seeds' names (Épée, Forteresse, Diplomatie; 劍, 要塞, 外交)."""
_SOURCES = {"fresh": Text("The deck ({n} cards) is shuffled"),
            "remainder": Text("The cards left ({n}) are shuffled into a new deck"),
            "discard": Text("The discard pile ({n} cards) is shuffled into a new deck")}


_LIST_SEPARATOR = ", "


def _colour(colour: str) -> int:
    return COLOURS.index(colour) if colour in COLOURS else 0


def _card(card: str) -> Text:
    return _CARDS.get(card, Text("a card"))


def sides(state: State) -> tuple[str, str]:
    """Each seat's colour ("Black", "White"), as the move list's lines open with it: drawn per game (MG-3), so
    the players panel shows them (the feed names colours: ``describe``)."""
    return tuple(COLOURS[state.colour_of(seat)].capitalize() for seat in range(2))  # type: ignore[return-value]


def describe(event: ev.Event) -> Text:
    """One line for the move list (players as seats: the service names them); copes with redacted (None)
    fields."""
    match event:
        case ev.GameCreated(options=options, position=position):
            chosen = ", ".join(f"{k}={v}" for k, v in sorted(options.items()) if OPTIONS.get(k) != v)
            if position:
                return Text("New game from a position ({options})", options=chosen) if chosen else Text(
                    "New game from a position")
            return Text("New game ({options})", options=chosen) if chosen else Text("New game")
        case ev.ColoursDrawn(black=black):
            return Text("{black} plays Black and moves first; {white} plays White", black=Seat(black),
                        white=Seat(1 - black))
        case ev.DeckShuffled(count=count, source=source):
            return Text(_SOURCES.get(source, _SOURCES["fresh"]).id, n=count)
        case ev.DeckSet(count=count):
            return Text("The deck holds {n} cards", n=count)
        case ev.HandSet(seat=seat, count=count, cards=cards):
            if cards:
                # A list of the cards' names, each said in the reader's language (an id of fields only).
                fields = [f"{{c{i}}}" for i in range(len(cards))]
                listed = Text(_LIST_SEPARATOR.join(fields),
                              **{f"c{i}": _card(card) for i, card in enumerate(cards)})
                return Text("{player} holds {cards}", player=Seat(seat), cards=listed)
            return Text("{player} holds {n} cards", player=Seat(seat), n=count)
        case ev.CardDrawn(seat=seat, card=card):
            if card:
                return Text("{player} draws a card: {card}", player=Seat(seat), card=_card(card))
            return Text("{player} draws a card", player=Seat(seat))
        case ev.MicePlaced(seat=seat, points=points):
            if points:
                return Text("{player} places mice on {points}", player=Seat(seat), points=" ".join(points))
            return Text("{player} places mice", player=Seat(seat))
        case ev.PlacementsRevealed(black=black, white=white):
            return Text("Setups revealed: Black {black}, White {white}; {n} cards are dealt to each",
                        black=" ".join(black), white=" ".join(white), n=HAND_SIZE)
        case ev.Moved(colour=colour, frm=frm, to=to, cause=cause):
            return Text(_MOVES.get(cause, _MOVES["step"]).id, side=Side(SIDES[_colour(colour)]), frm=frm, to=to)
        case ev.Swapped(a=a, b=b):
            return Text("Diplomacy: the mice on {a} and {b} swap places", a=a, b=b)
        case ev.Captured(colour=colour, at=at):
            return Text("{side}: mouse on {at} captured", side=Side(SIDES[_colour(colour)]), at=at)
        case ev.CardPlayed(seat=seat, card=card, args=args):
            return Text("{player} plays {card}: {args}", player=Seat(seat), card=_card(card), args=" ".join(args))
        case ev.Rescued(seat=seat, at=at):
            return Text("{player} discards one card of each type and rescues a mouse onto {at}", player=Seat(seat),
                        at=at)
        case ev.TurnPassed(seat=seat, card=card):
            return Text("{player} cannot move and passes, discarding {card}", player=Seat(seat), card=_card(card))
        case ev.TurnEnded(seat=seat):
            return Text("{player} ends the turn", player=Seat(seat))
        case ev.GameEnded(winners=winners, reason=reason):
            said = turns.reason_text(reason)
            if winners:
                return Text("{player} wins: {reason}", player=Seat(winners[0]), reason=said)
            return Text("Game over. {reason}", reason=said)
    return Text(type(event).__name__)


def render(state: State) -> str:
    """The board as text: ``B``/``W`` mice on points and in squares (strongholds), ``x`` closed, ``·`` edge."""
    geo = geometry(state.options.edge_points)
    closed = set(closed_points(state))
    symbol = {-1: " ", 0: "B", 1: "W"}
    lines = ["    " + "   ".join(chr(97 + c) for c in range(POINT_COLS))]
    for row in reversed(range(POINT_ROWS)):
        if row < POINT_ROWS - 1:  # the squares of this row lie between point rows row+1 and row
            inside = "|".join(f" {symbol[state.board[square_id(c, row)]]} " for c in range(SQUARE_COLS))
            lines.append(f"    |{inside}|  {row + 1}")
        marks = []
        for col in range(POINT_COLS):
            point = point_id(col, row)
            marks.append(symbol[state.board[point]] if state.board[point] >= 0
                         else "x" if name(point) in closed else "+" if geo.playable[point] else "·")
        lines.append(f"{row + 1:>2}  " + "---".join(marks))
    hands = " · ".join(f"{c}: {', '.join(h) or '-'}" for c, h in zip(COLOURS, state.hands))
    mover = COLOURS[state.turn] if state.phase == "playing" else state.phase
    lines.append(f"to move: {mover} · black is seat {state.black} · plies {state.plies} · deck {len(state.deck)}"
                 f" · discard {len(state.discard)} · captured black {state.captured[0]} white {state.captured[1]}")
    lines.append(f"hands: {hands}")
    if state.result:
        lines.append(f"result: {state.result}")
    return "\n".join(lines)
