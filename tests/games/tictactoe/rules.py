"""The tic-tac-toe decider: ``initial``, ``decide``, ``legal``, ``to_act``, ``status``, ``result``."""

from __future__ import annotations

from domain.base import MAX_PLIES, RULES, BadSetup, Event, IllegalMove, Result, Rng, Setup, check_options, outcome
from tests.games.tictactoe.catalog import CATALOG
from tests.games.tictactoe.events import GameCreated, GameEnded, Marked
from tests.games.tictactoe.notation import CELLS, Command
from tests.games.tictactoe.position import MARKS, load_position
from tests.games.tictactoe.state import State, evolve

NAME = CATALOG.name
SEATS = CATALOG.seats
OPTIONS = CATALOG.defaults()
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def initial(setup: Setup, rng: Rng) -> list[Event]:
    if setup.seats != 2:
        raise BadSetup("seats", f"tic-tac-toe is for 2 players, not {setup.seats}")
    options = check_options(setup.options, CATALOG.options)
    cells, turn = load_position(setup.position)
    created = GameCreated(seats=2, options=options, position={
        "turn": turn, "cells": {c: MARKS[s] for c, s in zip(CELLS, cells, strict=True) if s is not None}})
    return [created, *_ending(evolve(None, created))]


def _ending(state: State) -> list[Event]:
    for line in LINES:
        marks = {state.cells[i] for i in line}
        if len(marks) == 1 and None not in marks:
            seat = marks.pop()
            return [GameEnded(winners=[seat], reason=f"{MARKS[seat]} has three in a row", termination=RULES)]
    if None not in state.cells:
        return [GameEnded(winners=[], reason="The grid is full: a draw", termination=RULES)]
    limit = state.options["max_plies"]
    if limit is not None and state.plies >= limit:
        return [GameEnded(winners=[], reason=f"The limit of {limit} plies was reached: a draw",
                          termination=MAX_PLIES)]
    return []


def decide(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    if state.result is not None:
        raise IllegalMove("The game is over.")
    if seat != state.turn:
        raise IllegalMove(f"It is not your turn: {MARKS[state.turn]} is to move.")
    if state.cells[CELLS.index(cmd.cell)] is not None:
        raise IllegalMove(f"{cmd.cell} is already marked.")
    marked = Marked(seat=seat, cell=cmd.cell)
    return [marked, *_ending(evolve(state, marked))]


def to_act(state: State) -> list[int]:
    return [] if state.result is not None else [state.turn]


def legal(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    return [cell for cell, mark in zip(CELLS, state.cells, strict=True) if mark is None]


def status(state: State) -> str:
    return "finished" if state.result is not None else "playing"


def result(state: State) -> Result | None:
    return None if state.result is None else outcome(**state.result)


def perft(state: State, depth: int) -> int:
    """Number of move sequences of ``depth`` plies from ``state`` (a finished game has none)."""
    if state.result is not None:
        return int(depth == 0)
    if depth == 0:
        return 1
    total = 0
    for cell in legal(state, state.turn):
        after = state
        for event in decide(state, state.turn, Command(cell), None):
            after = evolve(after, event)
        total += perft(after, depth - 1)
    return total
