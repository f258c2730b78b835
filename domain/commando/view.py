"""What each viewer may see (``view``, ``redact``), a move-list line per event, and a text board."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.base import REVEAL_ALL, Viewer
from domain.commando import events as ev
from domain.commando import fights
from domain.commando.flow import challenge_targets, shop_items
from domain.commando.position import dump_position
from domain.commando.rules import EXPECTED, to_act
from domain.commando.state import Fight, State


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
    pending: dict[str, Any] = {"decision": state.phase, "seats": to_act(state), "prompt": EXPECTED[state.phase]}
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
        "result": None if state.winners is None else {"winners": list(state.winners), "reason": state.reason},
        "position": position,
    }


def redact(event: ev.Event, viewer: Viewer) -> ev.Event:
    """``event`` as ``viewer`` may see it: deck orders and other seats' commitments blanked."""
    if isinstance(event, ev.DeckShuffled) and viewer != REVEAL_ALL:
        return msgspec.structs.replace(event, order=None)
    if isinstance(event, ev.WeaponsCommitted) and viewer not in (REVEAL_ALL, event.seat):
        return msgspec.structs.replace(event, count=None)
    return event


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_MOVE_REASONS = {"move": "moves", "teleport": "teleports", "back": "goes back", "defeat": "is beaten, goes",
                 "retreat": "retreats"}


def describe(event: ev.Event) -> str:
    """One line of the move list (works on redacted events)."""
    match event:
        case ev.GameCreated(seats=seats, turn=turn):
            return f"Mission commando for {seats} agents; seat {turn} starts"
        case ev.DeckShuffled(count=count, reshuffle=again):
            return f"The caution deck is {'reshuffled' if again else 'shuffled'} ({_plural(count, 'card')})"
        case ev.DiceRolled(seat=seat, face=face, purpose=purpose):
            return f"Seat {seat} rolls {face}" + (" in the fight" if purpose == "fight" else "")
        case ev.MapUsed(seat=seat, steps=steps):
            return f"Seat {seat} uses a map to move {_plural(steps, 'square')}"
        case ev.Moved(seat=seat, frm=frm, to=to, reason=reason, banknotes=notes):
            gain = f" (+{_plural(notes, 'banknote')})" if notes else ""
            return f"Seat {seat} {_MOVE_REASONS.get(reason, 'moves')} {frm} → {to}{gain}"
        case ev.WallReached(seat=seat, steps_left=steps):
            return f"Seat {seat} reaches the red wall with {_plural(steps, 'step')} to go"
        case ev.WallCrossed(seat=seat, fee=fee):
            return f"Seat {seat} pays {_plural(fee, 'banknote')} to cross the red wall"
        case ev.WallStopped(seat=seat):
            return f"Seat {seat} stops before the red wall"
        case ev.CardDrawn(seat=seat, card=card):
            return f"Seat {seat} draws a caution card: {card.replace('_', ' ')}"
        case ev.CardResolved(seat=seat, card=card, accessory=True):
            return f"Seat {seat} discards an accessory against the {card.replace('_', ' ')}"
        case ev.CardResolved(seat=seat, money=money, skip=skip):
            if skip:
                return f"Seat {seat} will lose their next turn"
            if money:
                return f"Seat {seat} {'gains' if money > 0 else 'pays'} {_plural(abs(money), 'banknote')}"
            return f"Seat {seat} accepts the card"
        case ev.ChallengeOffered(seat=seat):
            return f"Seat {seat} may challenge"
        case ev.ChallengeDeclined(seat=seat):
            return f"Seat {seat} does not challenge"
        case ev.FightStarted(kind=kind, attacker=attacker, defender=defender, square=square):
            verb = "collides with" if kind == "collision" else "challenges"
            return f"Seat {attacker} {verb} seat {defender} (square {square})"
        case ev.WeaponsCommitted(seat=seat, count=count):
            return f"Seat {seat} commits " + ("weapons in secret" if count is None else _plural(count, "weapon"))
        case ev.WeaponsRevealed(attacker=a, defender=d):
            return f"Weapons revealed: attacker {a}, defender {d}"
        case ev.FightWon(winner=w, loser=lo, attacker_total=at, defender_total=dt):
            return f"Seat {w} wins the fight against seat {lo} ({at} to {dt})"
        case ev.Swapped(winner=w, loser=lo, winner_square=ws, loser_square=ls):
            return f"Seat {w} swaps places with seat {lo} ({ws} ↔ {ls})"
        case ev.SwapDeclined(seat=seat):
            return f"Seat {seat} stays"
        case ev.Fined(seat=seat, amount=amount):
            return f"Seat {seat} pays a fine of {_plural(amount, 'banknote')}"
        case ev.ShopOpened(seat=seat):
            return f"Seat {seat} may shop"
        case ev.Bought(seat=seat, item=item, price=price):
            return f"Seat {seat} buys {'an' if item == 'accessory' else 'a'} {item} for {price}"
        case ev.ShopClosed(seat=seat):
            return f"Seat {seat} is done shopping"
        case ev.TurnLost(seat=seat):
            return f"Seat {seat} loses this turn (ambush)"
        case ev.TurnPassed(seat=seat):
            return f"Seat {seat} to play"
        case ev.GameEnded(winners=winners, reason=reason):
            who = " and ".join(f"seat {w}" for w in winners) or "nobody"
            wins = "win" if len(winners) > 1 else "wins"
            if winners and " wins" in reason:  # it names the winner itself (#15): said once
                return f"Game over. {reason}"
            return (f"Game over: {who} {wins} — {reason}" if winners
                    else f"Game over. {reason[:1].upper()}{reason[1:]}")
    return type(event).__name__


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
