"""The Foraging Squirrels decider: ``initial``, ``decide``, ``legal``, ``to_act``, ``status``, ``result``
(FS-1 … FS-11)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.base import MAX_PLIES, RULES, BadSetup, Event, IllegalMove, Result, Rng, Setup, check_options, outcome
from domain.squirrels import board
from domain.squirrels.board import CELL_INDEX, CELLS, COLORS, DIRECTIONS, SQUIRREL, Card
from domain.squirrels.boosters import open_boosters
from domain.squirrels.cards import CardFact, CardPoolError, mh2_cards, parse_card_pool
from domain.squirrels.catalog import CATALOG
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
from domain.squirrels.notation import Turn
from domain.squirrels.position import FOOD, load_position
from domain.squirrels.scoring import reason_text, score, verdict, winners
from domain.squirrels.state import State, evolve
from domain.text import Text

NAME = CATALOG.name
SEATS = CATALOG.seats
OPTIONS = CATALOG.defaults()


def checked_options(options: dict[str, Any]) -> tuple[dict[str, Any], tuple[CardFact, ...]]:
    """Options merged over their defaults, and the card list the packs come from; raises ``BadSetup``."""
    merged = check_options(options, CATALOG.options)
    pool_text = merged["card_pool"]
    try:
        pool = mh2_cards() if pool_text is None else parse_card_pool(pool_text)
    except CardPoolError as exc:
        raise BadSetup("options.card_pool", str(exc)) from None
    return merged, pool


def _deal(rng: Rng, pool: tuple[CardFact, ...], kind: str) -> list[Event]:
    """FS-2/FS-11: open two packs, set the surplus aside, pick the squirrel, deal the grid."""
    packs = open_boosters(rng, pool, kind)
    next_id = 1
    for pack in packs:
        for record in pack:
            if record["slot"] != "art":
                record["id"] = next_id
                next_id += 1
    ids = list(range(1, next_id))
    rng.shuffle(ids)
    food, set_aside = ids[:FOOD], sorted(ids[FOOD:])
    squirrel_pack = rng.randrange(len(packs))
    art = next(record for record in packs[squirrel_pack] if record["slot"] == "art")
    order: list[Any] = [*food, SQUIRREL]
    rng.shuffle(order)
    return [BoostersOpened(packs=packs),
            CardsDealt(cells=dict(zip(CELLS, order)), set_aside=set_aside, squirrel_pack=squirrel_pack,
                       squirrel_art=art)]


def initial(setup: Setup, rng: Rng) -> list[Event]:
    """The events that create a game: from a position, or packs opened, dealt and a random first player."""
    if not isinstance(setup.seats, int) or not SEATS[0] <= setup.seats <= SEATS[1]:
        raise BadSetup("seats", Text("Foraging Squirrels is for 2 to 4 players, not {seats}",
                                     seats=repr(setup.seats)))
    options, pool = checked_options(setup.options)
    fields = None if setup.position is None else load_position(setup.position, setup.seats)  # BadSetup
    created = GameCreated(seats=setup.seats, options=options, position=setup.position)
    state = evolve(None, created)
    if state.phase == "playing":
        return [created, *_ending(state)]
    events: list[Event] = [created, *_deal(rng, pool, options["packs"])]
    first = rng.randrange(setup.seats) if fields is None else fields["first"]
    return [*events, FirstPlayerChosen(seat=first)]


def _ending(state: State) -> list[Event]:
    """FS-8 (and ``max_plies``): a ``GameEnded`` when the game is over after a turn, else nothing."""
    limit = state.options["max_plies"]
    if board.line_has_food(state.grid) and (limit is None or state.plies < limit):
        return []
    scores = score(state.cards, state.piles, state.options["bonus_needs_one"])
    if board.line_has_food(state.grid):
        # ``max_plies`` stops a game the rules have not ended: a draw, as its label says (no one won by FS-10).
        return [GameEnded(winners=[], scores=scores, termination=MAX_PLIES,
                          reason=str(Text.plural("Draw: the limit of {n} turn was reached",
                                                 "Draw: the limit of {n} turns was reached", n=limit)))]
    return [GameEnded(winners=winners(scores, state.left), reason=str(verdict(scores, state.left)), scores=scores,
                      termination=RULES)]


def _dig_event(state: State, seat: int, frm: str, to: str) -> Dug:
    if seat == state.first:
        raise IllegalMove(Text("The first player may never dig."))
    if state.dug[seat]:
        raise IllegalMove(Text("You have already used your dig in this game."))
    if not state.opened:
        raise IllegalMove(Text("No one may dig before the first player's first turn is over."))
    content = state.grid[CELL_INDEX[frm]]
    if content == SQUIRREL:
        raise IllegalMove(Text("{frm} holds the squirrel; only a food card can be dug.", frm=frm))
    if content is None:
        raise IllegalMove(Text("{frm} is empty: there is no food card to dig.", frm=frm))
    if state.grid[CELL_INDEX[to]] is not None:
        raise IllegalMove(Text("{to} is not empty: a dug card goes to an empty cell.", to=to))
    return Dug(seat=seat, card=content, frm=frm, to=to)


def _move_event(state: State, seat: int, color: str, direction: str) -> Moved:
    collected = board.scan(state.grid, state.cards, color, direction)
    if not collected:
        raise IllegalMove(Text("{color} {direction} collects nothing: a turn must collect at least one card.",
                               color=color, direction=direction))
    return Moved(seat=seat, color=color, direction=direction, frm=CELLS[board.squirrel_index(state.grid)],
                 to=CELLS[collected[-1]], collected=[state.grid[i] for i in collected],
                 cells=[CELLS[i] for i in collected])


def decide(state: State, seat: int, cmd: Turn, rng: Rng) -> list[Event]:
    """The events of one whole turn (dig, move, dig, then the next turn or the end)."""
    if state.phase != "playing":
        raise IllegalMove("The game is over." if state.phase == "finished" else "The game has not started.")
    if seat != state.turn:
        raise IllegalMove(Text("It is not your turn."))
    events: list[Event] = []
    steps = ("move",) if cmd.dig is None else ("dig", "move") if cmd.dig_first else ("move", "dig")
    for step in steps:
        if step == "dig":
            event: Event = _dig_event(state, seat, *cmd.dig)
        else:
            event = _move_event(state, seat, cmd.color, cmd.direction)
        events.append(event)
        state = evolve(state, event)
    return events + (_ending(state) or [TurnPassed(seat=board.next_seat(state, seat))])


def _moves(grid: board.Grid, cards: dict[int, Card]) -> list[str]:
    return [f"{color} {direction}" for direction in DIRECTIONS for color in COLORS
            if board.scan(grid, cards, color, direction)]


def legal(state: State, seat: int) -> list[str]:
    """Every command ``decide`` accepts from ``seat`` now, in canonical notation."""
    if state.phase != "playing" or seat != state.turn:
        return []
    moves = _moves(state.grid, state.cards)
    if not board.can_dig(state, seat):
        return moves
    found = list(moves)
    grid = state.grid
    for frm in board.food_cells(grid):
        for to in board.empty_cells(grid):
            dig = f"dig {CELLS[frm]} {CELLS[to]}"
            found += [f"{dig}; {move}" for move in _moves(board.dig(grid, frm, to), state.cards)]
    for move in moves:
        after = evolve(state, _move_event(state, seat, *move.split()))
        for frm in board.food_cells(after.grid):
            found += [f"{move}; dig {CELLS[frm]} {CELLS[to]}" for to in board.empty_cells(after.grid)]
    return found


def to_act(state: State) -> list[int]:
    """The seat to play, or nobody once the game is over."""
    return [state.turn] if state.phase == "playing" else []


def status(state: State) -> str:
    """"setup" until the grid is dealt, then "playing", then "finished"."""
    return state.phase


def result(state: State) -> Result | None:
    """``{"winners", "reason", "termination"}`` once the game is over (a copy), else None."""
    if state.result is None:
        return None
    return outcome(**{**state.result, "reason": reason_text(state.result["reason"])})


def leave(state: State, seat: int) -> State:
    """``seat`` leaves the table (``domain/table.py``: resigned or out of time, three or more seats): it gets no
    more turns and cannot win; its pile stays on the table. Pure: the table's event replays it."""
    state = replace(state, left=(*state.left, seat), opened=state.opened or seat == state.first)
    if state.phase == "playing" and state.turn == seat:
        state = replace(state, turn=board.next_seat(state, seat))
    return state
