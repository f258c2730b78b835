"""The Murus decider: ``initial``, ``decide``, ``legal``, ``to_act``, ``status``, ``result`` (docs/rules.md §1)."""

from __future__ import annotations

from domain.base import (
    MAX_PLIES,
    RULES,
    BadSetup,
    Event,
    IllegalMove,
    Result,
    Rng,
    Setup,
    check_options,
    limit_reached,
    outcome,
    read_limit_reached,
)
from domain.murus import board
from domain.murus.board import BREAKTHROUGH, DISTRIBUTE, HELD, Position
from domain.murus.catalog import CATALOG
from domain.murus.events import Captured, GameCreated, GameEnded, Moved
from domain.murus.explain import explain_illegal
from domain.murus.notation import CELL_NAMES, MOVE_TEXTS, PLAYER_NAMES, Command, format, to_move
from domain.murus.position import STONE_LETTERS, load_position, position_json
from domain.murus.state import State
from domain.text import Text, first_match, match, term

NAME = CATALOG.name
SEATS = CATALOG.seats
OPTIONS = CATALOG.defaults()
KIND_NAMES = ("distribute", "sacrifice", "double_sacrifice", "fire")
GOAL_ROW_NUMBERS = (7, 1)
"""The row number each side must reach, by side."""


def initial(setup: Setup, rng: Rng) -> list[Event]:
    """``game_created`` with the options and start position; ``game_ended`` too if that position is over."""
    if setup.seats != 2:
        raise BadSetup("seats", Text("Murus Gallicus is played by exactly 2 players, not {seats}",
                                     seats=setup.seats))
    options = check_options(setup.options, CATALOG.options)
    advanced = options["variant"] == "advanced"
    pos = load_position(setup.position, advanced)
    events: list[Event] = [GameCreated(seats=setup.seats, options=options, position=position_json(pos))]
    ending = _ending(pos, advanced, ply=0, max_plies=None)
    if ending is not None:
        events.append(ending)
    return events


def _text(bit: int, p1: int, p2: int, p3: int, letter: str) -> str:
    """The stack text of cell ``bit`` in the planes ``p1``–``p3`` of the side written ``letter`` ("" if none)."""
    if not p1 & bit:
        return ""
    return letter * (1 + (p2 & bit != 0) + (p3 & bit != 0))


def decide(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    """The events of ``seat`` playing ``cmd`` (parsed, as in every game); ``IllegalMove`` says why not."""
    if state is None:
        raise IllegalMove(Text("There is no game yet."))
    if state.result is not None:
        raise IllegalMove(Text("The game is over."))
    if seat != state.side:
        raise IllegalMove(Text("It is not your turn: the {player_names} are to move.",
                               player_names=PLAYER_NAMES[state.side]))
    move = to_move(cmd)
    pos = state.pos
    if not board.is_legal(pos, move, state.advanced):
        raise IllegalMove(explain_illegal(pos, state.advanced, cmd))
    child = board.play(pos, move)
    # The mover's planes are m (before) and d (after), the other side's t and c; the cells whose stack changed
    # are those where any plane differs, in board order.
    m1, m2, m3, t1, t2, t3, side = pos
    c1, c2, c3, d1, d2, d3, _ = child
    mine, theirs = STONE_LETTERS[side], STONE_LETTERS[side ^ 1]
    changed = (m1 ^ d1) | (m2 ^ d2) | (m3 ^ d3) | (t1 ^ c1) | (t2 ^ c2) | (t3 ^ c3)
    cells = {}
    while changed:
        bit = changed & -changed
        cells[CELL_NAMES[bit.bit_length() - 1]] = _text(bit, d1, d2, d3, mine) or _text(bit, c1, c2, c3, theirs)
        changed ^= bit
    kind = move[0]
    events: list[Event] = [Moved(
        seat=seat, move=format(cmd), kind=KIND_NAMES[kind], frm=cmd.frm, to=cmd.to, cells=cells,
    )]
    target = 1 << move[2]
    if kind != DISTRIBUTE and t1 & target:
        left = _text(target, d1, d2, d3, mine) or _text(target, c1, c2, c3, theirs)
        removed = 1 + (t2 & target != 0) + (t3 & target != 0) - len(left)
        events.append(Captured(seat=seat, cell=cmd.to, removed=removed, left=left))
    ending = _ending(child, state.advanced, ply=state.ply + 1, max_plies=state.options["max_plies"])
    if ending is not None:
        events.append(ending)
    return events


def _ending(pos: Position, advanced: bool, ply: int, max_plies: int | None) -> GameEnded | None:
    """``game_ended`` if the game is over when ``pos`` is reached after ``ply`` plies (MS-6/7/8, MS-A4)."""
    over = board.outcome(pos, advanced)
    if over is not None:
        winner, how = over
        if how == BREAKTHROUGH:
            reason = Text("{side} reached row {row}", side=PLAYER_NAMES[winner], row=GOAL_ROW_NUMBERS[winner])
        elif how == HELD:
            reason = Text("{side} reached row {row} and held it for a turn", side=PLAYER_NAMES[winner],
                          row=GOAL_ROW_NUMBERS[winner])
        else:
            reason = Text("{side} have no legal move", side=PLAYER_NAMES[winner ^ 1])
        return GameEnded(winners=[winner], reason=str(reason), termination=RULES)
    if max_plies is not None and ply >= max_plies:
        return GameEnded(winners=[], reason=str(limit_reached(max_plies)), termination=MAX_PLIES)
    return None


def reason_text(reason: str) -> Text:
    """A game's stored reason (its English, in a ``game_ended`` event) read back as the text it was made from."""
    side = term(*PLAYER_NAMES)
    return first_match(
        reason,
        lambda r: match(r, "{side} reached row {row}", side=side, row=int),
        lambda r: match(r, "{side} reached row {row} and held it for a turn", side=side, row=int),
        lambda r: match(r, "{side} have no legal move", side=side),
        read_limit_reached)


def to_act(state: State) -> list[int]:
    """The seat to move, or nobody once the game is over."""
    return [] if state.result is not None else [state.side]


def legal(state: State, seat: int) -> list[str]:
    """Every legal command of ``seat``, in notation, sorted."""
    if state.result is not None or seat != state.side:
        return []
    texts = MOVE_TEXTS
    return sorted([texts[move] for move in board.generate(state.pos, state.advanced)])


def status(state: State) -> str:
    """"playing" or "finished" (Murus has no setup phase)."""
    return "finished" if state.result is not None else "playing"


def result(state: State) -> Result | None:
    """``{"winners", "reason", "termination"}`` once the game is over (a copy), else None."""
    if state.result is None:
        return None
    return outcome(**{**state.result, "reason": reason_text(state.result["reason"])})


def perft(state: State, depth: int) -> int:
    """Number of move sequences of ``depth`` plies from ``state`` (a finished game has none; ``max_plies``
    is a server limit, not a rule, and is ignored)."""
    if state.result is not None:
        return int(depth == 0)
    return board.perft(state.pos, depth, state.advanced)

