"""What each viewer may see (``view``, ``redact``), a move-list line per event, and a text board."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.base import REVEAL_ALL, Viewer
from domain.commando import events as ev
from domain.commando import fights
from domain.commando.flow import challenge_targets, shop_items
from domain.commando.position import dump_position
from domain.commando.rules import EXPECTED, reason_text, to_act
from domain.commando.state import Fight, State
from domain.text import Seat, Text


def _fight_view(state: State, fight: Fight, sees_all: bool, viewer: Viewer) -> dict[str, Any]:
    def shown(seat: int, count: int | None) -> int | None:
        return count if fight.revealed or sees_all or viewer == seat else None

    return {
        "kind": fight.kind, "attacker": fight.attacker, "defender": fight.defender, "square": fight.square,
        "then": fight.then, "waiting_for": fights.must_commit(state),
        "committed": [seat for seat, count in zip((fight.attacker, fight.defender), fight.commits)
                      if count is not None],
        "commits": {"attacker": shown(fight.attacker, fight.commits[0]),
                    "defender": shown(fight.defender, fight.commits[1])},
        "revealed": fight.revealed, "dice": list(fight.dice), "winner": fight.winner, "loser": fight.loser,
    }


def _pending(state: State) -> dict[str, Any] | None:
    if state.phase == "finished":
        return None
    prompt = str(EXPECTED[state.phase])  # its English; the page says it in its language (a message id)
    pending: dict[str, Any] = {"decision": state.phase, "seats": to_act(state), "prompt": prompt}
    if state.phase == "turn":
        pending["maps"] = state.current.maps
    elif state.phase == "wall":
        pending["steps_left"] = state.steps_left
    elif state.phase == "challenge":
        pending["targets"] = challenge_targets(state)
    elif state.phase == "fine":
        pending["fine"] = state.options["fine"]
    elif state.phase == "caution":
        pending["card"] = state.card
    elif state.phase == "shop":
        pending["items"] = shop_items(state)
    return pending


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may know: everything public, its own commitment, never the deck order."""
    sees_all = viewer == REVEAL_ALL or state.phase == "finished"
    board = state.board
    position = dump_position(state)
    del position["caution_deck"]
    caution: dict[str, Any] = {"deck": len(state.deck), "discard": list(state.discard), "card": state.card}
    if sees_all:
        caution["order"] = list(state.deck)
    return {
        "game": "commando",
        "options": dict(state.options),
        "board": board.summary(),
        "seats": state.seats,
        "turn": state.turn,
        "turns": state.turns,
        "phase": state.phase,
        "to_act": to_act(state),
        "pending": _pending(state),
        "agents": [{"seat": seat, **agent_position, "to_base": board.to_base[agent.square]}
                   for seat, (agent, agent_position) in enumerate(zip(state.agents, position["agents"]))],
        "last_die": state.last_die,
        "fight": _fight_view(state, state.fight, sees_all, viewer) if state.fight else None,
        "caution": caution,
        "bought": list(state.bought),
        "challenged": state.challenged,
        "wall": {"steps_left": state.steps_left, "moved": state.wall_moved},
        "result": None if state.winners is None else {"winners": list(state.winners), "reason": str(state.reason)},
        "position": position,
    }


def redact(event: ev.Event, viewer: Viewer) -> ev.Event:
    """``event`` as ``viewer`` may see it: deck orders and other seats' commitments blanked."""
    if isinstance(event, ev.DeckShuffled) and viewer != REVEAL_ALL:
        return msgspec.structs.replace(event, order=None)
    if isinstance(event, ev.WeaponsCommitted) and viewer not in (REVEAL_ALL, event.seat):
        return msgspec.structs.replace(event, count=None)
    return event


_MOVES = {"move": Text("{player} moves {frm} → {to}"), "teleport": Text("{player} teleports {frm} → {to}"),
          "back": Text("{player} goes back {frm} → {to}"), "defeat": Text("{player} is beaten, goes {frm} → {to}"),
          "retreat": Text("{player} retreats {frm} → {to}")}
_MOVES_PAID = {"move": Text.plural("{player} moves {frm} → {to} (+{n} banknote)",
                                   "{player} moves {frm} → {to} (+{n} banknotes)", n=1),
               "teleport": Text.plural("{player} teleports {frm} → {to} (+{n} banknote)",
                                       "{player} teleports {frm} → {to} (+{n} banknotes)", n=1)}
_CARDS = {"obstacle": Text("obstacle"), "ambush": Text("ambush"), "trap": Text("trap"),
          "lucky_find": Text("lucky find")}
"""The caution cards (cases prudence) by name."""


def _card(card: str | None) -> Text:
    return _CARDS.get(card or "", Text(card.replace("_", " ")) if card else Text("a card"))


def describe(event: ev.Event) -> Text:
    """One line of the move list (players as seats: the service names them; works on redacted events)."""
    match event:
        case ev.GameCreated(seats=seats, turn=turn):
            return Text("Mission commando for {n} agents; {player} starts", n=seats, player=Seat(turn))
        case ev.DeckShuffled(count=count, reshuffle=again):
            if again:
                return Text.plural("The caution deck is reshuffled ({n} card)",
                                   "The caution deck is reshuffled ({n} cards)", n=count)
            return Text.plural("The caution deck is shuffled ({n} card)",
                               "The caution deck is shuffled ({n} cards)", n=count)
        case ev.DiceRolled(seat=seat, face=face, purpose=purpose):
            if purpose == "fight":
                return Text("{player} rolls {face} in the fight", player=Seat(seat), face=face)
            return Text("{player} rolls {face}", player=Seat(seat), face=face)
        case ev.MapUsed(seat=seat, steps=steps):
            return Text.plural("{player} uses a map to move {n} square", "{player} uses a map to move {n} squares",
                               n=steps, player=Seat(seat))
        case ev.Moved(seat=seat, frm=frm, to=to, reason=reason, banknotes=notes):
            paid = _MOVES_PAID.get(reason)
            if notes and paid is not None:
                return Text.plural(paid.id, paid.plural_id, n=notes, player=Seat(seat), frm=frm, to=to)
            return Text(_MOVES.get(reason, _MOVES["move"]).id, player=Seat(seat), frm=frm, to=to)
        case ev.WallReached(seat=seat, steps_left=steps):
            return Text.plural("{player} reaches the red wall with {n} step to go",
                               "{player} reaches the red wall with {n} steps to go", n=steps, player=Seat(seat))
        case ev.WallCrossed(seat=seat, fee=fee):
            return Text.plural("{player} pays {n} banknote to cross the red wall",
                               "{player} pays {n} banknotes to cross the red wall", n=fee, player=Seat(seat))
        case ev.WallStopped(seat=seat):
            return Text("{player} stops before the red wall", player=Seat(seat))
        case ev.CardDrawn(seat=seat, card=card):
            return Text("{player} draws a caution card: {card}", player=Seat(seat), card=_card(card))
        case ev.CardResolved(seat=seat, card=card, accessory=True):
            return Text("{player} discards an accessory against the card: {card}", player=Seat(seat),
                        card=_card(card))
        case ev.CardResolved(seat=seat, money=money, skip=skip):
            if skip:
                return Text("{player} will lose their next turn", player=Seat(seat))
            if money and money > 0:
                return Text.plural("{player} gains {n} banknote", "{player} gains {n} banknotes", n=money,
                                   player=Seat(seat))
            if money:
                return Text.plural("{player} pays {n} banknote", "{player} pays {n} banknotes", n=-money,
                                   player=Seat(seat))
            return Text("{player} accepts the card", player=Seat(seat))
        case ev.ChallengeOffered(seat=seat):
            return Text("{player} may challenge", player=Seat(seat))
        case ev.ChallengeDeclined(seat=seat):
            return Text("{player} does not challenge", player=Seat(seat))
        case ev.FightStarted(kind=kind, attacker=attacker, defender=defender, square=square):
            if kind == "collision":
                return Text("{attacker} collides with {defender} (square {square})", attacker=Seat(attacker),
                            defender=Seat(defender), square=square)
            return Text("{attacker} challenges {defender} (square {square})", attacker=Seat(attacker),
                        defender=Seat(defender), square=square)
        case ev.WeaponsCommitted(seat=seat, count=count):
            if count is None:
                return Text("{player} commits weapons in secret", player=Seat(seat))
            return Text.plural("{player} commits {n} weapon", "{player} commits {n} weapons", n=count,
                               player=Seat(seat))
        case ev.WeaponsRevealed(attacker=a, defender=d):
            return Text("Weapons revealed: attacker {attacker}, defender {defender}", attacker=a, defender=d)
        case ev.FightWon(winner=w, loser=lo, attacker_total=at, defender_total=dt):
            return Text("{winner} wins the fight against {loser} ({attacker} to {defender})", winner=Seat(w),
                        loser=Seat(lo), attacker=at, defender=dt)
        case ev.Swapped(winner=w, loser=lo, winner_square=ws, loser_square=ls):
            return Text("{winner} swaps places with {loser} ({a} ↔ {b})", winner=Seat(w), loser=Seat(lo), a=ws,
                        b=ls)
        case ev.SwapDeclined(seat=seat):
            return Text("{player} stays", player=Seat(seat))
        case ev.Fined(seat=seat, amount=amount):
            return Text.plural("{player} pays a fine of {n} banknote", "{player} pays a fine of {n} banknotes",
                               n=amount, player=Seat(seat))
        case ev.ShopOpened(seat=seat):
            return Text("{player} may shop", player=Seat(seat))
        case ev.Bought(seat=seat, item=item, price=price):
            if item == "accessory":
                return Text("{player} buys an accessory for {price}", player=Seat(seat), price=price)
            return Text("{player} buys a weapon for {price}", player=Seat(seat), price=price)
        case ev.ShopClosed(seat=seat):
            return Text("{player} is done shopping", player=Seat(seat))
        case ev.TurnLost(seat=seat):
            return Text("{player} loses this turn (ambush)", player=Seat(seat))
        case ev.TurnPassed(seat=seat):
            return Text("{player} to play", player=Seat(seat))
        case ev.GameEnded(winners=winners, reason=reason):
            said = reason_text(reason)
            if winners and " wins" not in reason:  # a reason that does not name the winner (stored before #15)
                return Text("Game over: {player} wins — {reason}", player=Seat(winners[0]), reason=said)
            return Text("Game over. {reason}", reason=said)
    return Text(type(event).__name__)


_MARKS = {"start": "S", "base": "B", "purchase": "$", "fight": "X", "caution": "!", "teleport": "T", "plain": "",
          "green": "g"}


def _cell(state: State, square: int) -> str:
    board = state.board
    mark = _MARKS[board.kind[square]] + ("#" if square in board.numbered else "")
    here = "".join(str(seat) for seat, agent in enumerate(state.agents) if agent.square == square)
    return f"{square:02d}{mark}" + (f"[{here}]" if here else "")


def render(state: State) -> str:
    """A plain-text board: each district's track and green path, then the agents."""
    board = state.board
    status = (f"finished: {state.reason}" if state.phase == "finished"
              else f"seat {state.turn} to play, phase {state.phase}")
    lines = [f"Mission commando ({board.name} board) — turn {state.turns}, {status}",
             "S start  B base  $ purchase  X fight  ! caution  T teleport  # numbered  g green  [n] agents"]
    for district in board.districts:
        track = " ".join(_cell(state, sq) for sq in range(district.first, district.last + 1))
        green = " ".join(_cell(state, sq) for sq in district.green)
        lines.append(f"{district.name:>14} | {track}")
        lines.append(f"{'green':>14} | {district.green_from:02d} → {green} → {district.green_to:02d}")
    teleports = ", ".join(f"{a} → {b}" for a, b in sorted(board.teleports.items())) or "none"
    wall = f"between {board.wall[0]} and {board.wall[1]}" if board.wall else "none"
    lines.append(f"Teleports: {teleports}; red wall: {wall}; caution deck: {len(state.deck)} cards, "
                 f"discard: {', '.join(state.discard) or 'empty'}")
    for seat, agent in enumerate(state.agents):
        lines.append(f"Seat {seat}: square {agent.square}, {agent.money} banknotes, {agent.weapons} weapons, "
                     f"{agent.accessories} accessories, {agent.maps} maps" + (", loses next turn" if agent.skip
                                                                                 else ""))
    return "\n".join(lines)
