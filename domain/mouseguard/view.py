"""What each viewer may see of a Mouse Guard game: ``view``, ``redact``, ``describe`` and ``render``."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.base import REVEAL_ALL, Viewer
from domain.mouseguard import events as ev
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
        "result": result(state),
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


_MOVES = {
    "step": "{Colour}: {frm}-{to}",
    "sword": "{Colour} sword step {frm} → {to}",
    "push": "{Colour} mouse pushed {frm} → {to}",
    "leap": "{Colour} builds a stronghold on {to} (from {frm})",
    "displace": "{Colour} mouse displaced {frm} → {to}",
    "exit": "{Colour} leaves the stronghold on {frm} for {to}",
    "pull": "{Colour} mouse pulled out of {frm} onto {to}",
}


def sides(state: State) -> tuple[str, str]:
    """Each seat's colour ("Black", "White"), as the move list's lines open with it: drawn per game (MG-3), so
    the feed names a line's player from the state (``domain.table.name_seats``)."""
    return tuple(COLOURS[state.colour_of(seat)].capitalize() for seat in range(2))  # type: ignore[return-value]


def describe(event: ev.Event) -> str:
    """One line for the move list; copes with redacted (None) fields."""
    match event:
        case ev.GameCreated(options=options, position=position):
            start = "from a position" if position else "from the start"
            chosen = ", ".join(f"{k}={v}" for k, v in sorted(options.items()) if OPTIONS.get(k) != v)
            return f"New game of Mouse Guard {start}" + (f" ({chosen})" if chosen else "")
        case ev.ColoursDrawn(black=black):
            return f"Seat {black} plays Black and moves first; seat {1 - black} plays White"
        case ev.DeckShuffled(count=count, source=source):
            what = {"fresh": "The deck", "remainder": "The cards left", "discard": "The discard pile"}[source]
            return f"{what} ({count} cards) shuffled into a new deck"
        case ev.DeckSet(count=count):
            return f"The deck holds {count} cards"
        case ev.HandSet(seat=seat, count=count, cards=cards):
            return f"Seat {seat} holds {', '.join(cards)}" if cards else f"Seat {seat} holds {count} cards"
        case ev.CardDrawn(seat=seat, card=card):
            return f"Seat {seat} draws a {card}" if card else f"Seat {seat} draws a card"
        case ev.MicePlaced(seat=seat, points=points):
            return f"Seat {seat} places mice on {' '.join(points)}" if points else f"Seat {seat} places mice"
        case ev.PlacementsRevealed(black=black, white=white):
            return (f"Setups revealed: black {' '.join(black)}, white {' '.join(white)}; "
                    f"{HAND_SIZE} cards are dealt to each")
        case ev.Moved(colour=colour, frm=frm, to=to, cause=cause):
            return _MOVES.get(cause, _MOVES["step"]).format(Colour=colour.capitalize(), frm=frm, to=to)
        case ev.Swapped(a=a, b=b):
            return f"Diplomacy: the mice on {a} and {b} swap places"
        case ev.Captured(colour=colour, at=at):
            return f"{colour.capitalize()} mouse on {at} captured"
        case ev.CardPlayed(seat=seat, colour=colour, card=card, args=args):
            return f"Seat {seat} ({colour.capitalize()}) plays a {card}: {' '.join(args)}"
        case ev.Rescued(seat=seat, colour=colour, at=at):
            return (f"Seat {seat} ({colour.capitalize()}) discards one card of each type and rescues a mouse "
                    f"onto {at}")
        case ev.TurnPassed(seat=seat, colour=colour, card=card):
            return f"Seat {seat} ({colour.capitalize()}) cannot move and passes, discarding a {card}"
        case ev.TurnEnded(seat=seat, ply=ply):
            return f"Seat {seat} ends ply {ply}"
        case ev.GameEnded(winners=winners, reason=reason):
            if winners:
                return f"Seat {winners[0]} wins: {reason}"
            return f"Game over. {reason[:1].upper()}{reason[1:]}"  # games stored before #15 say "a draw: …"
    return type(event).__name__


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
