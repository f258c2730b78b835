"""The game state and ``evolve``: each event applied mechanically, never mutating the old state."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from domain.base import MAX_PLIES, RULES, BadEvent, BadSetup
from domain.commando import events as ev
from domain.commando.board import DEFAULT_BOARD, Board, load_board
from domain.commando.catalog import CATALOG
from domain.commando.constants import DIE_FACES, FULL_DECK

"""Who must decide what: roll or map; pay or stay at the wall; commit weapons; challenge or not; the fight
winner's swap or stay; the loser's pay or retreat; use an accessory or accept a card; buy or done."""


class Agent(msgspec.Struct, frozen=True):
    """One seat's agent: where it stands (a track or green square id) and what it holds."""

    square: int
    money: int
    weapons: int = 0
    accessories: int = 0
    maps: int = 1
    skip: bool = False


class Fight(msgspec.Struct, frozen=True):
    """A fight in progress; ``commits`` (attacker, defender) are secret until ``revealed``."""

    kind: str
    attacker: int
    defender: int
    square: int
    then: str
    commits: tuple[int | None, int | None] = (None, None)
    revealed: bool = False
    dice: tuple[int | None, int | None] = (None, None)
    winner: int | None = None

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.defender if self.winner == self.attacker else self.attacker


class State(msgspec.Struct, frozen=True):
    """Everything about a game; ``turn`` is the current player, ``phase`` the decision awaited."""

    board: Board
    options: dict[str, Any]
    agents: tuple[Agent, ...]
    turn: int
    phase: str = "turn"
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    card: str | None = None
    fight: Fight | None = None
    steps_left: int = 0
    wall_moved: bool = False
    bought: tuple[str, ...] = ()
    challenged: bool = False
    last_die: int | None = None
    turns: int = 1
    winners: tuple[int, ...] | None = None
    reason: str | None = None
    termination: str | None = None
    left: tuple[int, ...] = ()
    """Seats that left the table (resigned or out of time): out of the race, never fought."""

    @property
    def seats(self) -> int:
        return len(self.agents)

    @property
    def current(self) -> Agent:
        return self.agents[self.turn]


def board_from_option(option: dict[str, Any] | None) -> Board:
    """The board an option value names: None is the shipped default board."""
    return DEFAULT_BOARD if option is None else load_board(option)


def _agent(state: State, seat: int, **changes: Any) -> tuple[Agent, ...]:
    agents = list(state.agents)
    agents[seat] = msgspec.structs.replace(agents[seat], **changes)
    return tuple(agents)


def _replace(state: State, **changes: Any) -> State:
    return msgspec.structs.replace(state, **changes)


def _created(_: State | None, e: ev.GameCreated) -> State:
    if not CATALOG.seats[0] <= e.seats == len(e.agents) <= CATALOG.seats[1] or not 0 <= e.turn < e.seats:
        raise BadEvent(f"game_created: {e.seats} seats, {len(e.agents)} agents and seat {e.turn} to play do not "
                       f"make a game of {CATALOG.seat_range()} seats")
    board = DEFAULT_BOARD if e.board == DEFAULT_BOARD.spec else load_board(e.board)
    agents = tuple(Agent(**a) for a in e.agents)
    return State(board=board, options=dict(e.options), agents=agents, turn=e.turn, discard=tuple(e.discard))


def _shuffled(s: State, e: ev.DeckShuffled) -> State:
    return _replace(s, deck=tuple(e.order or ()), discard=() if e.reshuffle else s.discard)


def _rolled(s: State, e: ev.DiceRolled) -> State:
    if e.purpose == "move" or s.fight is None:
        return _replace(s, last_die=e.face)
    dice = (e.face, s.fight.dice[1]) if e.seat == s.fight.attacker else (s.fight.dice[0], e.face)
    return _replace(s, fight=msgspec.structs.replace(s.fight, dice=dice))


def _map_used(s: State, e: ev.MapUsed) -> State:
    return _replace(s, agents=_agent(s, e.seat, maps=s.agents[e.seat].maps - 1), last_die=None)


def _moved(s: State, e: ev.Moved) -> State:
    agents = _agent(s, e.seat, square=e.to, money=s.agents[e.seat].money + e.banknotes)
    ends_fight = e.reason in ("defeat", "retreat")
    return _replace(s, agents=agents, steps_left=0, fight=None if ends_fight else s.fight)


def _wall_reached(s: State, e: ev.WallReached) -> State:
    return _replace(s, phase="wall", steps_left=e.steps_left, wall_moved=e.moved)


def _wall_crossed(s: State, e: ev.WallCrossed) -> State:
    return _replace(s, agents=_agent(s, e.seat, money=s.agents[e.seat].money - e.fee), wall_moved=False)


def _wall_stopped(s: State, e: ev.WallStopped) -> State:
    return _replace(s, steps_left=0, wall_moved=False)


def _card_drawn(s: State, e: ev.CardDrawn) -> State:
    return _replace(s, phase="caution", card=e.card, deck=s.deck[1:])


def _card_resolved(s: State, e: ev.CardResolved) -> State:
    a = s.agents[e.seat]
    agents = _agent(s, e.seat, accessories=a.accessories - int(e.accessory), money=a.money + e.money,
                    skip=a.skip or e.skip)
    return _replace(s, agents=agents, card=None, discard=(*s.discard, e.card))


def _challenge_offered(s: State, e: ev.ChallengeOffered) -> State:
    return _replace(s, phase="challenge")


def _fight_started(s: State, e: ev.FightStarted) -> State:
    fight = Fight(kind=e.kind, attacker=e.attacker, defender=e.defender, square=e.square, then=e.then)
    return _replace(s, phase="commit", fight=fight, challenged=s.challenged or e.kind == "challenge")


def _committed(s: State, e: ev.WeaponsCommitted) -> State:
    f = s.fight
    assert f is not None
    commits = (e.count, f.commits[1]) if e.seat == f.attacker else (f.commits[0], e.count)
    return _replace(s, fight=msgspec.structs.replace(f, commits=commits))


def _revealed(s: State, e: ev.WeaponsRevealed) -> State:
    f = s.fight
    assert f is not None
    agents = _agent(s, f.attacker, weapons=s.agents[f.attacker].weapons - e.attacker)
    agents = _agent(_replace(s, agents=agents), f.defender, weapons=s.agents[f.defender].weapons - e.defender)
    fight = msgspec.structs.replace(f, commits=(e.attacker, e.defender), revealed=True)
    return _replace(s, agents=agents, fight=fight)


def _won(s: State, e: ev.FightWon) -> State:
    assert s.fight is not None
    phase = "choice" if s.fight.kind == "challenge" else s.phase
    return _replace(s, phase=phase, fight=msgspec.structs.replace(s.fight, winner=e.winner))


def _swapped(s: State, e: ev.Swapped) -> State:
    agents = _agent(s, e.winner, square=e.loser_square)
    agents = _agent(_replace(s, agents=agents), e.loser, square=e.winner_square)
    return _replace(s, agents=agents, fight=None)


def _swap_declined(s: State, e: ev.SwapDeclined) -> State:
    return _replace(s, phase="fine")


def _fined(s: State, e: ev.Fined) -> State:
    return _replace(s, agents=_agent(s, e.seat, money=s.agents[e.seat].money - e.amount), fight=None)


def _shop_opened(s: State, e: ev.ShopOpened) -> State:
    return _replace(s, phase="shop")


def _bought(s: State, e: ev.Bought) -> State:
    a = s.agents[e.seat]
    field = "weapons" if e.item == "weapon" else "accessories"
    agents = _agent(s, e.seat, money=a.money - e.price, **{field: getattr(a, field) + 1})
    return _replace(s, agents=agents, bought=(*s.bought, e.item))


def _unchanged(s: State, e: ev.Event) -> State:
    return s


def _turn_lost(s: State, e: ev.TurnLost) -> State:
    return _replace(s, agents=_agent(s, e.seat, skip=False))


def _turn_passed(s: State, e: ev.TurnPassed) -> State:
    return _replace(s, turn=e.seat, phase="turn", bought=(), challenged=False, last_die=None, fight=None,
                    card=None, steps_left=0, turns=s.turns + 1)


def _ended(s: State, e: ev.GameEnded) -> State:
    # Before ``termination`` was recorded, the only game without a winner was a max_plies draw.
    termination = e.termination or (RULES if e.winners else MAX_PLIES)
    return _replace(s, phase="finished", winners=tuple(e.winners), reason=e.reason, termination=termination)


_APPLY: dict[type, Callable[[Any, Any], State]] = {
    ev.GameCreated: _created, ev.DeckShuffled: _shuffled, ev.DiceRolled: _rolled, ev.MapUsed: _map_used,
    ev.Moved: _moved, ev.WallReached: _wall_reached, ev.WallCrossed: _wall_crossed,
    ev.WallStopped: _wall_stopped, ev.CardDrawn: _card_drawn, ev.CardResolved: _card_resolved,
    ev.ChallengeOffered: _challenge_offered, ev.ChallengeDeclined: _unchanged, ev.FightStarted: _fight_started,
    ev.WeaponsCommitted: _committed, ev.WeaponsRevealed: _revealed, ev.FightWon: _won, ev.Swapped: _swapped,
    ev.SwapDeclined: _swap_declined, ev.Fined: _fined, ev.ShopOpened: _shop_opened, ev.Bought: _bought,
    ev.ShopClosed: _unchanged, ev.TurnLost: _turn_lost, ev.TurnPassed: _turn_passed, ev.GameEnded: _ended,
}


def evolve(state: State | None, event: ev.Event) -> State:
    """The state after ``event``; ``state`` is None before ``game_created``. ``BadEvent`` for an event that is
    not Mission commando's, malformed or out of place."""
    if state is None and not isinstance(event, ev.GameCreated):
        raise BadEvent("the first event of a game is game_created")
    apply = _APPLY.get(type(event))
    if apply is None:
        raise BadEvent(f"not a Mission commando event: {event!r}")
    try:
        if state is not None:
            _check(state, event)
        after = apply(state, event)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, BadSetup) as exc:
        raise BadEvent(f"{type(event).__name__} cannot be applied: {exc}") from None
    for seat, agent in enumerate(after.agents):
        if min(agent.money, agent.weapons, agent.accessories, agent.maps) < 0:
            raise BadEvent(f"{type(event).__name__} leaves seat {seat}'s agent with less than nothing: {agent}")
    return after


def _check(state: State, event: ev.Event) -> None:
    """The facts an event carries, against the state: its seat, square, die face or card (``BadEvent``)."""
    name = type(event).__name__
    seat = getattr(event, "seat", None)
    if seat is not None and not 0 <= seat < state.seats:
        raise BadEvent(f"{name} names no seat of the game: {seat!r}")
    match event:
        case ev.DiceRolled(face=face) if face not in DIE_FACES:
            raise BadEvent(f"{name}: a die has no face {face!r}")
        case ev.Moved(seat=mover, frm=frm, to=to) if frm != state.agents[mover].square or not (
                0 <= to < len(state.board.kind)):
            raise BadEvent(f"{name}: seat {mover}'s agent is on square {state.agents[mover].square}, not {frm}, "
                           f"or square {to} is off the board")
        case ev.CardDrawn(card=card) if not state.deck or card != state.deck[0]:
            top = state.deck[0] if state.deck else "nothing (the pile is empty)"
            raise BadEvent(f"{name} names {card!r}, but the top of the caution pile is {top}")
        case ev.CardResolved(card=card) if card != state.card:
            raise BadEvent(f"{name} resolves {card!r}, but the card drawn is {state.card!r}")
        case ev.DeckShuffled(order=order, count=count, reshuffle=reshuffle) if order is not None and (
                count != len(order) or any(card not in FULL_DECK for card in order)
                or (reshuffle and sorted(order) != sorted((*state.deck, *state.discard)))):
            raise BadEvent(f"{name}: {count} cards {order!r} are not the caution cards it shuffles")


def full_deck_minus(cards: tuple[str, ...] | list[str]) -> list[str]:
    """The caution cards not in ``cards`` (the rest of the ten), in the fixed order of ``FULL_DECK``."""
    rest = list(FULL_DECK)
    for card in cards:
        rest.remove(card)
    return rest


class Flow:
    """Events emitted so far by one command, and the state they lead to (each folded in at once, so ``decide``
    and a replay of its events always agree; ``flow.py`` and ``fights.py`` emit through it)."""

    def __init__(self, state: State, rng: random.Random):
        self.state = state
        self.rng = rng
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)
