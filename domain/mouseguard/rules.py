"""The Mouse Guard decider: ``initial``, ``decide``, ``legal``, ``to_act``, ``status``, ``result``.

What one action does on the board (``resolve_*``, ``turn_options``) lives in ``turns``."""

from __future__ import annotations

from functools import reduce
from itertools import combinations
from typing import Any

from domain.base import (
    MAX_PLIES,
    RULES,
    BadSetup,
    IllegalMove,
    Result,
    Rng,
    Setup,
    check_options,
    limit_reached,
    outcome,
)
from domain.mouseguard import turns
from domain.mouseguard.board import BLACK, COLOURS, LOCATIONS, WHITE, geometry, name
from domain.mouseguard.cards import HAND_SIZE, full_deck, is_rescue_hand, refill
from domain.mouseguard.catalog import CATALOG
from domain.mouseguard.events import (
    CardDrawn,
    CardPlayed,
    ColoursDrawn,
    DeckSet,
    DeckShuffled,
    Event,
    GameCreated,
    GameEnded,
    HandSet,
    MicePlaced,
    PlacementsRevealed,
    Rescued,
    TurnEnded,
    TurnPassed,
)
from domain.mouseguard.notation import Command, Exit, Pass, Place, Rescue, Turn, format
from domain.mouseguard.position import load_position
from domain.mouseguard.state import State, evolve
from domain.text import Text

NAME = CATALOG.name
SEATS = CATALOG.seats
OPTIONS: dict[str, Any] = CATALOG.defaults()
MICE = 4


def _deal(hands: tuple[list[str] | None, ...], deck: list[str] | tuple[str, ...], black: int) -> list[Event]:
    """MG-4: 3 cards to each colour without a hand, one at a time, Black first, from the top of ``deck``."""
    events: list[Event] = []
    deck = list(deck)
    for _ in range(HAND_SIZE):
        for colour in (BLACK, WHITE):
            if hands[colour] is None:
                events.append(CardDrawn(seat=black if colour == BLACK else 1 - black, card=deck.pop(0)))
    return events


def initial(setup: Setup, rng: Rng) -> list[Event]:
    """The events that create a game: options, colours drawn at random (MG-3), the deck, the hands.

    A game that starts with the secret setup deals no card here: MG-4 deals once both placements are revealed
    (see ``_place``); a game from a position with mice deals the missing hands at once."""
    if setup.seats != 2:
        raise BadSetup("seats", Text("Mouse Guard is played by 2 seats, not {seats}", seats=setup.seats))
    options = check_options(setup.options, CATALOG.options)
    geo = geometry(options["edge_points"])
    loaded = load_position(setup.position, geo) if setup.position is not None else None
    black = rng.randrange(2)
    public = None if loaded is None else loaded.public
    events: list[Event] = [GameCreated(seats=2, options=options, position=public),
                           ColoursDrawn(black=black)]
    if loaded is not None and loaded.deck is not None:
        deck = list(loaded.deck)
        events.append(DeckSet(count=len(deck), order=list(deck)))
    else:
        deck = full_deck() if loaded is None else list(loaded.remaining)
        rng.shuffle(deck)
        events.append(DeckShuffled(count=len(deck), source="fresh" if loaded is None else "remainder",
                                   order=list(deck)))
    if loaded is None or loaded.public["mice"] is None:
        return events  # the setup comes first: the cards are dealt when the placements are revealed
    for colour, hand in enumerate(loaded.hands):
        if hand is not None:
            events.append(HandSet(seat=black if colour == BLACK else 1 - black, count=len(hand), cards=list(hand)))
    return events + _deal(loaded.hands, deck, black)


def to_act(state: State) -> list[int]:
    """The seats that may send a command: both during the secret setup until they have placed."""
    if state.phase == "setup":
        return sorted(state.seat_of(c) for c in (BLACK, WHITE) if state.placements[c] is None)
    if state.phase == "playing":
        return [state.seat_of(state.turn)]
    return []


def status(state: State) -> str:
    """``"setup"``, ``"playing"`` or ``"finished"``."""
    return state.phase


def result(state: State) -> Result | None:
    """None while the game runs, then ``{"winners", "reason", "termination"}`` (a copy)."""
    if state.result is None:
        return None
    return outcome(**{**state.result, "reason": turns.reason_text(state.result["reason"])})


def _fold(state: State, events: list[Event]) -> State:
    return reduce(evolve, events, state)


def _place(state: State, seat: int, colour: int, cmd: Place) -> list[Event]:
    """MG-4: a secret placement; the second one reveals both, then 3 cards are dealt to each."""
    geo = geometry(state.options.edge_points)
    if state.placements[colour] is not None:
        raise IllegalMove(Text("you have already placed your mice"))
    if len(cmd.points) != MICE:
        raise IllegalMove(Text("place exactly {mice} mice, not {count}", mice=MICE, count=len(cmd.points)))
    for point in cmd.points:
        if cmd.points.count(point) > 1:
            raise IllegalMove(Text("{point} is named twice", point=point))
        if LOCATIONS[point] not in geo.setup_points[colour]:
            rows = geo.setup_rows_text(colour)
            raise IllegalMove(Text("{point} is not a playable point of your setup rows ({rows})",
                                   point=point, rows=rows))
    events: list[Event] = [MicePlaced(seat=seat, points=list(cmd.points))]
    other = state.placements[1 - colour]
    if other is not None:
        black, white = (cmd.points, other) if colour == BLACK else (other, cmd.points)
        events.append(PlacementsRevealed(black=list(black), white=list(white)))
        # From the deck shuffled at the start; a hand already dealt (a game created before MG-4 dealt after the
        # setup) is kept as it is.
        events += _deal(tuple(list(hand) if hand else None for hand in state.hands), state.deck, state.black)
    return events


def _play_card(state: State, board: turns.Board, colour: int, cmd: Turn) -> tuple[turns.Effects, turns.Board]:
    geo, mover = geometry(state.options.edge_points), LOCATIONS[cmd.to]
    args = [LOCATIONS[a] for a in cmd.args]
    if cmd.card == "sword":
        return turns.resolve_sword(geo, board, colour, mover, args[0], args[1])
    if cmd.card == "stronghold":
        return turns.resolve_stronghold(geo, board, colour, mover, args[0])
    return turns.resolve_diplomacy(geo, board, colour, mover, args[0], args[1] if len(args) > 1 else None,
                                   state.options.diplomacy_metric)


def _action(state: State, seat: int, colour: int, cmd: Command) -> tuple[list[Event], turns.Board]:
    """The events of one turn's action (MG-6), before the draw, and the board after it."""
    geo, hand = geometry(state.options.edge_points), state.hands[colour]
    match cmd:
        case Turn():
            if cmd.card == "rescue" and not state.options.rescue_after_move:
                raise IllegalMove(Text("a rescue is the whole turn: 'rescue {at}' (option rescue_after_move is "
                                       "off)", at=cmd.args[0]))
            effects, board = turns.resolve_step(geo, state.board, colour, LOCATIONS[cmd.frm], LOCATIONS[cmd.to])
            if cmd.card is None:
                return effects, board
            if cmd.card == "rescue":  # MG-18 after the step (option rescue_after_move)
                _check_rescue(state, hand, colour)
                board = turns.resolve_rescue(geo, board, colour, LOCATIONS[cmd.args[0]])
                return effects + [Rescued(seat=seat, colour=COLOURS[colour], at=cmd.args[0])], board
            if cmd.card not in hand:
                raise IllegalMove(Text("you hold no {card}", card=cmd.card))
            card_effects, board = _play_card(state, board, colour, cmd)
            played = CardPlayed(seat=seat, colour=COLOURS[colour], card=cmd.card, args=list(cmd.args))
            return effects + [played] + card_effects, board
        case Exit():
            return turns.resolve_exit(geo, state.board, colour, LOCATIONS[cmd.square], LOCATIONS[cmd.to],
                                      None if cmd.step is None else LOCATIONS[cmd.step],
                                      state.options.exit_extra_step)
        case Rescue():
            if state.options.rescue_after_move:
                raise IllegalMove(Text("with option rescue_after_move a rescue follows the turn's step: "
                                       "'c3-c4 rescue {at}'", at=cmd.at))
            _check_rescue(state, hand, colour)
            board = turns.resolve_rescue(geo, state.board, colour, LOCATIONS[cmd.at])
            return [Rescued(seat=seat, colour=COLOURS[colour], at=cmd.at)], board
        case Pass():
            options = turns.turn_options(geo, state.board, colour, state.options.diplomacy_metric,
                                         state.options.exit_extra_step)
            if options:
                raise IllegalMove(Text("you cannot pass while you can play (e.g. {cmd})",
                                       cmd=format(options[0].cmd)))
            if not state.options.rescue_after_move and _can_rescue(state, colour):  # (after a step: none here)
                raise IllegalMove(Text("you cannot pass while you can rescue a mouse"))
            if cmd.card not in hand:
                raise IllegalMove(Text("you hold no {card}", card=cmd.card))
            return [TurnPassed(seat=seat, colour=COLOURS[colour], card=cmd.card)], state.board
    raise IllegalMove(Text("the setup is over: a turn is a move, an exit, a rescue or a pass"))


def _check_rescue(state: State, hand, colour: int) -> None:
    """MG-18's conditions on the hand and the captured mice."""
    if not is_rescue_hand(hand):
        raise IllegalMove(Text("a rescue needs exactly one sword, one stronghold and one diplomacy in "
                               "your hand"))
    if state.captured[colour] == 0:
        raise IllegalMove(Text("none of your mice is captured"))


def _can_rescue(state: State, colour: int) -> bool:
    geo = geometry(state.options.edge_points)
    return (is_rescue_hand(state.hands[colour]) and state.captured[colour] > 0
            and bool(turns.rescue_points(geo, state.board, colour)))


def decide(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    """The events of ``seat`` playing ``cmd``; ``IllegalMove`` says why it cannot."""
    if state.phase == "finished":
        raise IllegalMove(Text("the game is over"))
    if seat not in (0, 1):
        raise IllegalMove(Text("there is no seat {seat}", seat=seat))
    colour = state.colour_of(seat)
    if state.phase == "setup":
        if not isinstance(cmd, Place):
            raise IllegalMove(Text("the mice are being placed: send 'place' and four points of your setup rows"))
        return _place(state, seat, colour, cmd)
    if seat not in to_act(state):
        raise IllegalMove(Text("it is not your turn"))
    events, board = _action(state, seat, colour, cmd)
    effects = [e for e in events if not isinstance(e, CardPlayed)]
    won = turns.victory(board, colour, effects)
    if won:
        return events + [GameEnded(winners=[seat], reason=str(won), termination=RULES)]
    after = _fold(state, events)
    events += refill(seat, len(after.hands[colour]), after.deck, after.discard, rng)
    ply = state.plies + 1
    events.append(TurnEnded(seat=seat, ply=ply))
    limit = state.options.max_plies
    if limit is not None and ply >= limit:
        events.append(GameEnded(winners=[], reason=str(limit_reached(limit)), termination=MAX_PLIES))
    return events


def legal(state: State, seat: int) -> list[str]:
    """Every legal whole turn of ``seat`` in canonical notation (empty when it need not act)."""
    if seat not in to_act(state):
        return []
    colour = state.colour_of(seat)
    geo = geometry(state.options.edge_points)
    if state.phase == "setup":
        return [format(Place(tuple(name(p) for p in points)))
                for points in combinations(geo.setup_points[colour], MICE)]
    hand = state.hands[colour]
    options = turns.turn_options(geo, state.board, colour, state.options.diplomacy_metric,
                                 state.options.exit_extra_step)
    moves = [format(o.cmd) for o in options if o.card is None or o.card in hand]
    rescues = []
    if is_rescue_hand(hand) and state.captured[colour] > 0:
        if not state.options.rescue_after_move:
            rescues = [f"rescue {name(p)}" for p in turns.rescue_points(geo, state.board, colour)]
        else:  # MG-18 after each plain step, onto the points open once it is made
            for o in options:
                if isinstance(o.cmd, Turn) and o.card is None:
                    _, after = turns.resolve_step(geo, state.board, colour, LOCATIONS[o.cmd.frm],
                                                  LOCATIONS[o.cmd.to])
                    rescues += [f"{o.cmd.frm}-{o.cmd.to} rescue {name(p)}"
                                for p in turns.rescue_points(geo, after, colour)]
    if moves or rescues:
        return moves + rescues
    return [format(Pass(card)) for card in dict.fromkeys(hand)]
