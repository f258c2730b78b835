"""The automatic part of a turn: moving, squares, cards, the shop, the next turn — until someone must decide.

Every step emits events through a ``Flow`` (which folds them into its state at once), so ``decide`` and a
replay of the events always agree. A step ends either by awaiting a decision (an event that sets the phase)
or by handing over to the next step.
"""

from __future__ import annotations

from domain.base import MAX_PLIES, RULES
from domain.commando import events as ev
from domain.commando import fights
from domain.commando.constants import (
    BANKNOTES_PER_NUMBERED_SQUARE,
    LUCKY_FIND_GAIN,
    OBSTACLE_STEPS_BACK,
    TRAP_FEE,
    WALL_FEE,
)
from domain.commando.state import Flow, State
from domain.text import Seat, Text


def occupant(state: State, square: int, seat: int) -> int | None:
    """Another agent on ``square`` that ``seat`` would have to fight (never on the start, the base or green)."""
    board = state.board
    if square in (board.start, board.base) or board.is_green(square):
        return None
    for other, agent in enumerate(state.agents):
        if other != seat and agent.square == square and other not in state.left:
            return other
    return None


def challenge_targets(state: State) -> list[int]:
    """Agents the current player may challenge: every other agent not on a green path (MC-10, MC-P10)."""
    board = state.board
    return [seat for seat, agent in enumerate(state.agents)
            if seat != state.turn and not board.is_green(agent.square) and seat not in state.left]


def shop_items(state: State) -> list[str]:
    """What the current player can still buy this turn (MC-7, MC-P4)."""
    agent, options = state.current, state.options
    items = []
    if "weapon" not in state.bought and agent.money >= options["weapon_price"]:
        items.append("weapon")
    if ("accessory" not in state.bought and agent.money >= options["accessory_price"]
            and agent.accessories < options["accessory_limit"]):
        items.append("accessory")
    return items


def move(flow: Flow, steps: int, wall_paid: bool = False) -> None:
    """Walk ``steps`` squares forward, earning banknotes, stopping at the wall or on the base (MC-2, MC-6)."""
    state, seat = flow.state, flow.state.turn
    board = state.board
    start = square = state.agents[seat].square
    earned = 0
    while steps > 0 and square != board.base:
        if board.wall and square == board.wall[0] and not wall_paid:
            if square != start:
                flow.emit(ev.Moved(seat=seat, frm=start, to=square, reason="move", banknotes=earned))
            if flow.state.agents[seat].money >= WALL_FEE:
                flow.emit(ev.WallReached(seat=seat, steps_left=steps, moved=square != start))
                return
            stop_at_wall(flow, moved=square != start)
            return
        wall_paid = False
        square = board.following[square]
        steps -= 1
        if square in board.numbered and not board.is_green(square):
            earned += BANKNOTES_PER_NUMBERED_SQUARE
    flow.emit(ev.Moved(seat=seat, frm=start, to=square, reason="move", banknotes=earned))
    land(flow)


def cross_wall(flow: Flow) -> None:
    """Pay the fee and walk on (MC-5, MC-P3)."""
    steps = flow.state.steps_left
    flow.emit(ev.WallCrossed(seat=flow.state.turn, fee=WALL_FEE))
    move(flow, steps, wall_paid=True)


def stop_at_wall(flow: Flow, moved: bool) -> None:
    """Stop before the wall; the square is landed on only if the agent got there this turn."""
    flow.emit(ev.WallStopped(seat=flow.state.turn))
    if moved:
        land(flow)
    else:
        end_turn(flow)


def land(flow: Flow) -> None:
    """The current agent lands: the base wins, a teleport moves on, an occupant is fought, then the square."""
    state, seat = flow.state, flow.state.turn
    board = state.board
    square = state.agents[seat].square
    if square == board.base:
        why = Text("{seat}'s agent reached the enemy base. {seat} wins.", seat=Seat(seat))  # named once (#15)
        flow.emit(ev.GameEnded(winners=[seat], reason=str(why), termination=RULES))
        return
    if square in board.teleports:
        exit_ = board.teleports[square]
        earned = BANKNOTES_PER_NUMBERED_SQUARE if exit_ in board.numbered else 0
        flow.emit(ev.Moved(seat=seat, frm=square, to=exit_, reason="teleport", banknotes=earned))
        land(flow)
        return
    defender = occupant(state, square, seat)
    if defender is not None:
        fights.start(flow, "collision", seat, defender, square, then="effects")
        continue_fight(flow)
        return
    square_effect(flow)


def square_effect(flow: Flow) -> None:
    """Apply the special square the current agent stands on (MC-4), then end the turn."""
    state = flow.state
    kind = state.board.kind[state.current.square]
    if kind == "caution":
        draw(flow)
    elif kind == "fight":
        offer_challenge(flow)
    elif kind == "teleport":
        land(flow)
    else:
        end_turn(flow)


def continue_fight(flow: Flow) -> None:
    """Resolve the fight once nobody owes a commitment; a collision's loser goes to the green path."""
    state = flow.state
    if fights.must_commit(state):
        return
    fight = fights.resolve(flow)
    if fight.kind == "challenge":
        return
    assert fight.loser is not None
    fights.send_to_green(flow, fight.loser, fight.square, "defeat")
    if fight.winner == fight.attacker and fight.then == "effects":
        square_effect(flow)
    else:
        end_turn(flow)


def draw(flow: Flow) -> None:
    """Draw a caution card (reshuffling the discard pile when the deck is empty) (MC-11, MC-P5)."""
    state, seat = flow.state, flow.state.turn
    if not state.deck:
        order = list(state.discard)
        flow.rng.shuffle(order)
        flow.emit(ev.DeckShuffled(count=len(order), order=order, reshuffle=True))
    card = flow.state.deck[0]
    flow.emit(ev.CardDrawn(seat=seat, card=card))
    if card == "lucky_find":
        flow.emit(ev.CardResolved(seat=seat, card=card, money=LUCKY_FIND_GAIN))
        end_turn(flow)
    elif flow.state.current.accessories == 0:
        resolve_card(flow, use_accessory=False)


def resolve_card(flow: Flow, use_accessory: bool) -> None:
    """Discard an accessory against the card, or suffer it."""
    state, seat = flow.state, flow.state.turn
    card = state.card
    assert card is not None
    if use_accessory:
        flow.emit(ev.CardResolved(seat=seat, card=card, accessory=True))
    elif card == "obstacle":
        flow.emit(ev.CardResolved(seat=seat, card=card))
        go_back(flow)
        return
    elif card == "ambush":
        flow.emit(ev.CardResolved(seat=seat, card=card, skip=True))
    else:
        flow.emit(ev.CardResolved(seat=seat, card=card, money=-min(TRAP_FEE, state.current.money)))
    end_turn(flow)


def go_back(flow: Flow) -> None:
    """Obstacle: back along the track, never behind the start nor back over the wall; no banknotes."""
    state, seat = flow.state, flow.state.turn
    board = state.board
    square = target = state.current.square
    for _ in range(OBSTACLE_STEPS_BACK):
        if target == board.start or (board.wall and target == board.wall[1]):
            break
        target -= 1
    if target != square:
        flow.emit(ev.Moved(seat=seat, frm=square, to=target, reason="back"))
    defender = occupant(flow.state, target, seat)
    if defender is not None:
        fights.start(flow, "collision", seat, defender, target, then="end")
        continue_fight(flow)
    else:
        end_turn(flow)


def offer_challenge(flow: Flow) -> None:
    """On a fight square: offer a challenge if one is left this turn and someone can be attacked."""
    state = flow.state
    targets = challenge_targets(state)
    if state.challenged or not targets:
        end_turn(flow)
    else:
        flow.emit(ev.ChallengeOffered(seat=state.turn, targets=targets))


def end_turn(flow: Flow) -> None:
    """Open the shop on a purchase square (if anything is affordable), else pass the turn."""
    state = flow.state
    square = state.current.square
    if state.board.kind[square] == "purchase" and shop_items(state):
        flow.emit(ev.ShopOpened(seat=state.turn))
    else:
        next_turn(flow)


def next_turn(flow: Flow) -> None:
    """The next seat in order plays; an ambushed agent loses that turn (MC-P12, MC-P5)."""
    state = flow.state
    limit = state.options["max_plies"]
    if limit is not None and state.turns >= limit:
        draw = Text.plural("Draw: the limit of {n} turn was reached", "Draw: the limit of {n} turns was reached",
                           n=limit)
        flow.emit(ev.GameEnded(winners=[], reason=str(draw), termination=MAX_PLIES))
        return
    flow.emit(ev.TurnPassed(seat=following_seat(state)))
    skip_lost_turn(flow)


def following_seat(state: State) -> int:
    """The next seat in order after the current one, past seats that left the table."""
    for step in range(1, state.seats + 1):
        seat = (state.turn + step) % state.seats
        if seat not in state.left:
            return seat
    return state.turn


def skip_lost_turn(flow: Flow) -> None:
    """If the current agent must lose this turn, record it and pass on."""
    if flow.state.current.skip:
        flow.emit(ev.TurnLost(seat=flow.state.turn))
        next_turn(flow)
