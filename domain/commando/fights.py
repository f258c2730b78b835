"""Fights (MC-8, MC-9, MC-P9): secret weapon commitments, both dice, the winner and the loser's fate."""

from __future__ import annotations

from domain.base import IllegalMove
from domain.commando import events as ev
from domain.commando.constants import DIE_FACES, WEAPON_BONUS
from domain.commando.state import Fight, Flow, State
from domain.text import Text


def must_commit(state: State) -> list[int]:
    """Seats that still owe a commitment; a seat without weapons commits nothing and is not asked."""
    fight = state.fight
    if fight is None or fight.revealed:
        return []
    sides = ((fight.attacker, fight.commits[0]), (fight.defender, fight.commits[1]))
    return sorted(seat for seat, count in sides if count is None and state.agents[seat].weapons > 0)


def start(flow: Flow, kind: str, attacker: int, defender: int, square: int, then: str) -> None:
    """Open a fight; its commitments are then awaited (or skipped when nobody holds a weapon)."""
    flow.emit(ev.FightStarted(kind=kind, attacker=attacker, defender=defender, square=square, then=then))


def commit(flow: Flow, seat: int, count: int) -> None:
    """Record ``seat``'s secret commitment of ``count`` weapons."""
    weapons = flow.state.agents[seat].weapons
    if count > weapons:
        raise IllegalMove(Text.plural("you hold only {n} weapon", "you hold only {n} weapons", n=weapons))
    flow.emit(ev.WeaponsCommitted(seat=seat, count=count))


def resolve(flow: Flow) -> Fight:
    """Reveal both commitments, roll both dice, name the winner (ties go to the defender)."""
    fight = flow.state.fight
    assert fight is not None
    attacker_weapons, defender_weapons = (count or 0 for count in fight.commits)
    flow.emit(ev.WeaponsRevealed(attacker=attacker_weapons, defender=defender_weapons))
    attacker_die, defender_die = flow.rng.choice(DIE_FACES), flow.rng.choice(DIE_FACES)
    flow.emit(ev.DiceRolled(seat=fight.attacker, face=attacker_die, purpose="fight"))
    flow.emit(ev.DiceRolled(seat=fight.defender, face=defender_die, purpose="fight"))
    attacker_total = attacker_die + WEAPON_BONUS * attacker_weapons
    defender_total = defender_die + WEAPON_BONUS * defender_weapons
    winner, loser = ((fight.attacker, fight.defender) if attacker_total > defender_total
                     else (fight.defender, fight.attacker))
    flow.emit(ev.FightWon(winner=winner, loser=loser, attacker_total=attacker_total,
                          defender_total=defender_total))
    resolved = flow.state.fight
    assert resolved is not None
    return resolved


def send_to_green(flow: Flow, seat: int, district_square: int, reason: str) -> None:
    """Move a loser to the first green square of the district holding ``district_square``."""
    state = flow.state
    flow.emit(ev.Moved(seat=seat, frm=state.agents[seat].square, to=state.board.green_entry(district_square),
                       reason=reason))


def swap(flow: Flow) -> None:
    """The challenge winner swaps places with the loser."""
    fight = flow.state.fight
    assert fight is not None and fight.winner is not None and fight.loser is not None
    agents = flow.state.agents
    flow.emit(ev.Swapped(winner=fight.winner, loser=fight.loser, winner_square=agents[fight.winner].square,
                         loser_square=agents[fight.loser].square))


def stay(flow: Flow, fine: int) -> bool:
    """The winner stays; a loser who cannot pay ``fine`` retreats at once. True if the loser must choose."""
    fight = flow.state.fight
    assert fight is not None and fight.winner is not None and fight.loser is not None
    flow.emit(ev.SwapDeclined(seat=fight.winner))
    if flow.state.agents[fight.loser].money >= fine:
        return True
    retreat(flow)
    return False


def pay(flow: Flow, fine: int) -> None:
    """The challenge loser pays the fine and keeps their square."""
    fight = flow.state.fight
    assert fight is not None and fight.loser is not None
    flow.emit(ev.Fined(seat=fight.loser, amount=fine))


def retreat(flow: Flow) -> None:
    """The challenge loser goes to the green path of the district where they stand."""
    fight = flow.state.fight
    assert fight is not None and fight.loser is not None
    loser_square = flow.state.agents[fight.loser].square
    send_to_green(flow, fight.loser, loser_square, "retreat")
