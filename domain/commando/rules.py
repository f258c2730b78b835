"""Who acts, what they may do, and what their command does: ``to_act``, ``legal``, ``decide``."""

from __future__ import annotations

import random
from functools import reduce
from typing import Any

from msgspec.structs import replace

from domain.base import RULES, BadSetup, IllegalMove, Result, Setup, check_options, outcome
from domain.commando import events as ev
from domain.commando import fights
from domain.commando.board import load_board
from domain.commando.catalog import CATALOG
from domain.commando.constants import DIE_FACES, MAP_STEPS
from domain.commando.flow import (
    Flow,
    challenge_targets,
    continue_fight,
    cross_wall,
    end_turn,
    following_seat,
    move,
    next_turn,
    resolve_card,
    shop_items,
    skip_lost_turn,
    square_effect,
    stop_at_wall,
)
from domain.commando.notation import Command
from domain.commando.notation import format as format_command
from domain.commando.position import initial_events
from domain.commando.state import State, evolve
from domain.text import Seat, Text, first_match, match, match_plural, seat

NAME = CATALOG.name
SEATS = CATALOG.seats
"""MC-1: 2 or more players ("the number of players is not limited"; 2–5 advised): up to 8, the API's player limit
(``Limits.players``, ``services/config.py``)."""
OPTIONS: dict[str, Any] = CATALOG.defaults()
"""Every option and its default; ``board`` (None: the shipped board, or a board object) is checked apart."""


def checked_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options merged over their defaults; ``board`` is None (the shipped board) or a board object."""
    if isinstance(options, dict) and options.get("board") == "default":
        options = {**options, "board": None}  # the shipped board, as a position names it
    merged = check_options(options, CATALOG.options)
    if merged["board"] is not None:
        load_board(merged["board"], "options.board")
    return merged


def initial(setup: Setup, rng: random.Random) -> list[ev.Event]:
    """The events that create a game: ``game_created``, the shuffled caution deck, any lost first turn."""
    seats = setup.seats
    if not isinstance(seats, int) or not SEATS[0] <= seats <= SEATS[1]:
        raise BadSetup("seats", Text("Mission commando takes {seats} to {seats2} players, not {seats3}",
                                     seats=SEATS[0], seats2=SEATS[1], seats3=seats))
    options = checked_options(dict(setup.options or {}))
    events = initial_events(setup, options, rng)
    state = reduce(evolve, events, None)
    assert state is not None
    return [*events, *start_events(state, rng)]


def status(state: State) -> str:
    """"playing" or "finished" (no setup phase)."""
    return "finished" if state.phase == "finished" else "playing"


def result(state: State) -> Result | None:
    """``{"winners", "reason", "termination"}`` once finished, else None; a turn-limit draw has no winners."""
    if state.winners is None:
        return None
    return outcome(state.winners, reason_text(state.reason or ""), state.termination or RULES)


def reason_text(reason: str) -> Text:
    """A stored reason (its English, in a ``game_ended`` event) read back as the text it was made from."""
    return first_match(
        reason,
        lambda r: match(r, "{seat}'s agent reached the enemy base. {seat} wins.", seat=seat),
        _stored_before_15,
        lambda r: match_plural(r, "Draw: the limit of {n} turn was reached",
                               "Draw: the limit of {n} turns was reached"))


def _stored_before_15(reason: str) -> Text | None:
    """The reason of a game stored before the winner was named in it."""
    found = match(reason, "{seat}'s agent reached the enemy base", seat=seat)
    return found and Text("{seat}'s agent reached the enemy base", **found.args)

EXPECTED = {
    "turn": Text("roll the die or use a map"),
    "wall": Text("pay 1 banknote to cross the red wall, or stay before it"),
    "commit": Text("commit weapons for the fight"),
    "challenge": Text("challenge an agent, or no challenge"),
    "choice": Text("swap places with the fight's loser, or stay"),
    "fine": Text("pay the fine, or retreat to the green path"),
    "caution": Text("use an accessory against the caution card, or accept it"),
    "shop": Text("buy a weapon, buy an accessory, or be done"),
}
"""Per phase, the decision awaited, as what the seat to act does ("… waits for seat 2 to pay the fine")."""


def to_act(state: State) -> list[int]:
    """Seats that may send a command now: both fighters while commitments are owed."""
    if state.phase == "finished":
        return []
    fight = state.fight
    if state.phase == "commit":
        return fights.must_commit(state)
    if state.phase == "choice" and fight is not None and fight.winner is not None:
        return [fight.winner]
    if state.phase == "fine" and fight is not None and fight.loser is not None:
        return [fight.loser]
    return [state.turn]


def legal(state: State, seat: int) -> list[str]:
    """Every command ``seat`` may send now, in canonical notation; a commitment is one entry ``commit 0..N`` for
    ``commit 0`` … ``commit N`` (N: the weapons held)."""
    if seat not in to_act(state):
        return []
    agent = state.agents[seat]
    phase = state.phase
    if phase == "turn":
        return ["roll", *([f"map {n}" for n in MAP_STEPS] if agent.maps > 0 else [])]
    if phase == "wall":
        return ["pay", "stay"]
    if phase == "commit":
        # One entry for every count (``domain.base.commands``): a seat may hold any number of weapons.
        return [f"commit 0..{agent.weapons}"]
    if phase == "challenge":
        return [*(f"challenge {t}" for t in challenge_targets(state)), "no challenge"]
    if phase == "choice":
        return ["swap", "stay"]
    if phase == "fine":
        return ["pay", "retreat"]
    if phase == "caution":
        return [*(["use accessory"] if agent.accessories else []), "accept"]
    if phase == "shop":
        return [*(f"buy {item}" for item in shop_items(state)), "done"]
    return []


def _turn(flow: Flow, seat: int, cmd: Command) -> None:
    agent = flow.state.agents[seat]
    if cmd.verb == "roll":
        face = flow.rng.choice(DIE_FACES)
        flow.emit(ev.DiceRolled(seat=seat, face=face, purpose="move"))
        if face == 0:
            square_effect(flow)
        else:
            move(flow, face)
        return
    assert cmd.number is not None
    if agent.maps == 0:
        raise IllegalMove(Text("you have no map left (a map cannot be bought)"))
    if cmd.number not in MAP_STEPS:
        raise IllegalMove(Text("a map moves {map_steps} to {map_steps2} squares, not {number}",
                               map_steps=MAP_STEPS[0], map_steps2=MAP_STEPS[-1], number=cmd.number))
    flow.emit(ev.MapUsed(seat=seat, steps=cmd.number))
    move(flow, cmd.number)


def _wall(flow: Flow, seat: int, cmd: Command) -> None:
    if cmd.verb == "pay":
        cross_wall(flow)
    else:
        stop_at_wall(flow, moved=flow.state.wall_moved)


def _commit(flow: Flow, seat: int, cmd: Command) -> None:
    assert cmd.number is not None
    fights.commit(flow, seat, cmd.number)
    continue_fight(flow)


def _challenge(flow: Flow, seat: int, cmd: Command) -> None:
    if cmd.verb == "no challenge":
        flow.emit(ev.ChallengeDeclined(seat=seat))
        end_turn(flow)
        return
    target = cmd.number
    if target not in challenge_targets(flow.state):
        if target == seat:
            raise IllegalMove(Text("you cannot challenge yourself"))
        if target is not None and 0 <= target < flow.state.seats:
            raise IllegalMove(Text("seat {target}'s agent is on a green path and cannot be attacked",
                                   target=target))
        raise IllegalMove(Text("there is no seat {target}", target=target))
    assert target is not None
    fights.start(flow, "challenge", seat, target, flow.state.agents[seat].square, then="end")
    continue_fight(flow)


def _choice(flow: Flow, seat: int, cmd: Command) -> None:
    if cmd.verb == "swap":
        fights.swap(flow)
        end_turn(flow)
    elif not fights.stay(flow, flow.state.options["fine"]):
        end_turn(flow)


def _fine(flow: Flow, seat: int, cmd: Command) -> None:
    if cmd.verb == "pay":
        fights.pay(flow, flow.state.options["fine"])
    else:
        fights.retreat(flow)
    end_turn(flow)


def _caution(flow: Flow, seat: int, cmd: Command) -> None:
    resolve_card(flow, use_accessory=cmd.verb == "use accessory")


def _shop(flow: Flow, seat: int, cmd: Command) -> None:
    state = flow.state
    if cmd.verb == "done":
        flow.emit(ev.ShopClosed(seat=seat))
        next_turn(flow)
        return
    item = cmd.verb.removeprefix("buy ")
    if item not in shop_items(state):
        raise IllegalMove(_why_not_buy(state, item))
    price = state.options[f"{item}_price"]
    flow.emit(ev.Bought(seat=seat, item=item, price=price))
    if not shop_items(flow.state):
        next_turn(flow)


def _why_not_buy(state: State, item: str) -> Text:
    weapon = item == "weapon"
    if item in state.bought:
        return Text("you already bought a weapon this turn") if weapon else Text(
            "you already bought an accessory this turn")
    if item == "accessory" and state.current.accessories >= state.options["accessory_limit"]:
        return Text("you already hold {limit} accessories, the most allowed",
                    limit=state.options["accessory_limit"])
    price, money = state.options[f"{item}_price"], state.current.money
    if weapon:
        return Text("a weapon costs {price} banknotes and you have {money}", price=price, money=money)
    return Text("an accessory costs {price} banknotes and you have {money}", price=price, money=money)


_HANDLERS: dict[str, tuple[frozenset[str], Any]] = {
    "turn": (frozenset({"roll", "map"}), _turn),
    "wall": (frozenset({"pay", "stay"}), _wall),
    "commit": (frozenset({"commit"}), _commit),
    "challenge": (frozenset({"challenge", "no challenge"}), _challenge),
    "choice": (frozenset({"swap", "stay"}), _choice),
    "fine": (frozenset({"pay", "retreat"}), _fine),
    "caution": (frozenset({"use accessory", "accept"}), _caution),
    "shop": (frozenset({"buy weapon", "buy accessory", "done"}), _shop),
}


def decide(state: State, seat: int, cmd: Command, rng: random.Random) -> list[ev.Event]:
    """The events ``seat``'s command produces, up to the next decision; ``IllegalMove`` says why not."""
    if state.phase == "finished":
        raise IllegalMove(Text("the game is over"))
    if seat not in to_act(state):
        fight = state.fight
        sides = (fight.attacker, fight.defender) if fight is not None else ()
        if state.phase == "commit" and seat in sides and fight.commits[sides.index(seat)] is not None:
            raise IllegalMove(Text("you have already committed your weapons: the fight waits for the other side"))
        waiting = to_act(state)
        who = Seat(waiting[0]) if len(waiting) == 1 else Text("{a} and {b}", a=Seat(waiting[0]),
                                                              b=Seat(waiting[1]))
        raise IllegalMove(Text("it is not your turn to act: the game waits for {who} to {expected}",
                               who=who, expected=EXPECTED[state.phase]))
    verbs, handler = _HANDLERS[state.phase]
    if cmd.verb not in verbs:
        raise IllegalMove(Text("'{cmd}' is not possible now: {expected}",
                               cmd=format_command(cmd), expected=EXPECTED[state.phase]))
    if state.phase == "caution" and cmd.verb == "use accessory" and state.agents[seat].accessories == 0:
        raise IllegalMove(Text("you have no accessory to use"))
    flow = Flow(state, rng)
    handler(flow, seat, cmd)
    return flow.events


def start_events(state: State, rng: random.Random) -> list[ev.Event]:
    """Events that follow ``game_created``: a first seat that must lose its turn passes it on."""
    flow = Flow(state, rng)
    skip_lost_turn(flow)
    return flow.events


def leave(state: State, seat: int) -> State:
    """``seat`` leaves the table (``domain/table.py``: resigned or out of time, three or more seats): its agent is
    out of the race (no more turns, never fought or challenged, cannot win). If it was its turn or its fight, the
    fight is called off and the turn passes on. Pure: the table's event replays it."""
    state = replace(state, left=(*state.left, seat))
    fight = state.fight
    if state.phase == "finished" or (state.turn != seat and (fight is None or seat not in (fight.attacker,
                                                                                           fight.defender))):
        return state
    state = evolve(state, ev.TurnPassed(seat=following_seat(state)))
    while state.current.skip:  # MC-P12 as next_turn does it: an ambushed agent loses this turn
        state = evolve(evolve(state, ev.TurnLost(seat=state.turn)), ev.TurnPassed(seat=following_seat(state)))
    return state
