"""What a viewer sees of a Foraging Squirrels game: ``view``, ``redact``, ``describe`` and ``render``.

Nothing is hidden in this game: the view is the same for every viewer and ``redact`` is the identity."""

from __future__ import annotations

from typing import Any

from domain.base import Event, Viewer, plain_result
from domain.squirrels import board
from domain.squirrels.board import CELLS, SQUIRREL
from domain.squirrels.events import (
    BoostersOpened,
    CardsDealt,
    Dug,
    FirstPlayerChosen,
    GameCreated,
    GameEnded,
    Moved,
    TurnPassed,
)
from domain.squirrels.scoring import reason_text, score
from domain.squirrels.state import State
from domain.text import Seat, Text


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The whole table, identical for every viewer (nothing is hidden in this game).

    Keys ``grid, cards, piles, dug, first, turn, set_aside`` form a position (``Setup(position=…)``).
    """
    return {
        "options": dict(state.options),
        "seats": state.seats,
        "status": state.phase,
        "grid": {CELLS[i]: c for i, c in enumerate(state.grid) if c is not None},
        "squirrel": CELLS[board.squirrel_index(state.grid)] if SQUIRREL in state.grid else None,
        "squirrel_art": state.squirrel_art,
        "cards": {str(cid): card.to_json() for cid, card in sorted(state.cards.items())},
        "piles": [list(pile) for pile in state.piles],
        "set_aside": list(state.set_aside),
        "dug": list(state.dug),
        "can_dig": [state.phase == "playing" and board.can_dig(state, seat) for seat in range(state.seats)],
        "first": state.first,
        "turn": state.turn,
        "opened": state.opened,
        "plies": state.plies,
        "scores": score(state.cards, state.piles, state.options["bonus_needs_one"]),
        "result": plain_result(state.result),
    }


def redact(event: Event, viewer: Viewer) -> Event:
    """Every event is public."""
    return event


def describe(event: Event) -> Text:
    """One line for the move list (players as seats: the service names them)."""
    match event:
        case GameCreated(seats=seats, position=position):
            if position:
                return Text("A game of Foraging Squirrels for {n} players, from a position.", n=seats)
            return Text("A game of Foraging Squirrels for {n} players.", n=seats)
        case BoostersOpened(packs=packs):
            magic = sum(1 for pack in packs for card in pack if card.get("slot") != "art")
            return Text.plural("{n} booster is opened: {magic} Magic cards and {art} art card.",
                               "{n} boosters are opened: {magic} Magic cards and {art} art cards.",
                               n=len(packs), magic=magic, art=len(packs))
        case CardsDealt(cells=cells, set_aside=aside):
            where = next((cell for cell, c in cells.items() if c == SQUIRREL), "?")
            if aside:
                return Text("The food is dealt face up; the squirrel starts on {cell}; {n} cards are set aside.",
                            cell=where, n=len(aside))
            return Text("The food is dealt face up; the squirrel starts on {cell}.", cell=where)
        case FirstPlayerChosen(seat=seat):
            return Text("{player} plays first.", player=Seat(seat))
        case Dug(seat=seat, frm=frm, to=to):
            return Text("{player} digs the card on {frm} to {to}.", player=Seat(seat), frm=frm, to=to)
        case Moved(seat=seat, color=color, direction=direction, frm=frm, to=to, collected=collected):
            return Text.plural("{player}: {move}, the squirrel goes {frm}-{to} and collects {n} card.",
                               "{player}: {move}, the squirrel goes {frm}-{to} and collects {n} cards.",
                               n=len(collected), player=Seat(seat), move=f"{color} {direction}", frm=frm, to=to)
        case TurnPassed(seat=seat):
            return Text("{player} to play.", player=Seat(seat))
        case GameEnded(reason=reason):
            return Text("Game over. {reason}", reason=reason_text(reason))
    return Text(type(event).__name__)


def _label(state: State, content: Any) -> str:
    if content is None:
        return "."
    if content == SQUIRREL:
        return "SQUIRREL"
    card = state.cards[content]
    marks = ("*" if card.foil else "") + ("s" if card.squirrel else "")
    return f"{card.colors or 'C'}:{card.rarity[0].upper()}{marks}"


def render(state: State) -> str:
    """The grid (colours:rarity, * foil, s squirrel art), then each pile's score."""
    lines = []
    for row in range(4, -1, -1):
        cells = "".join(f"{_label(state, state.grid[row * 5 + col]):>10}" for col in range(5))
        lines.append(f"{row + 1} {cells}")
    lines.append("  " + "".join(f"{col:>10}" for col in "abcde"))
    for seat, row in enumerate(score(state.cards, state.piles, state.options["bonus_needs_one"])):
        marks = ("  <- to play" if state.phase == "playing" and seat == state.turn else "") + \
            ("  (dug)" if state.dug[seat] else "")
        bonus = ", ".join(row["bonuses"]) or "no bonus"
        lines.append(f"Seat {seat}: {row['points']} points ({row['cards']} cards; {bonus}){marks}")
    if state.result:
        lines.append(state.result["reason"])
    return "\n".join(lines)
