"""Claiming a game of an opponent away on their turn (domain/table.py): who is away is the service's to say; when a
claim is allowed, and what it makes, is the table's. A replay needs no presence: the claim is an event."""

from __future__ import annotations

import pytest

from domain.base import IllegalMove
from tests.domain.test_table import Game


def started(clock=None) -> Game:
    game = Game("murus", clock=clock)
    game.send(0, game.table.legal(game.state, 0)[0])  # seat 1 to act
    return game


@pytest.mark.parametrize("claim, winners", [("claim victory", [0]), ("claim draw", [])])
def test_a_claim_against_an_away_opponent_ends_the_game_abandoned(claim, winners):
    game = started(clock={"initial": 600})
    assert game.table.table_commands(game.state, 0, frozenset({1}))[-2:] == ["claim victory", "claim draw"]
    events = game.table.decide(game.state, 0, game.table.parse(claim), None, away=frozenset({1}))
    game.apply(events)
    outcome = "Seat 0 wins." if winners else "Seat 0 claims a draw."
    assert game.result == {"winners": winners, "termination": "abandoned",
                           "reason": f"Seat 1 left the game. {outcome}"}
    replayed = Game("murus", clock={"initial": 600})
    replayed.apply(game.table.decide(replayed.state, 0, replayed.table.parse(replayed.table.legal(
        replayed.state, 0)[0]), None))
    replayed.apply(events)
    assert replayed.result == game.result  # no presence needed to replay it


@pytest.mark.parametrize("case", ["no clock", "opponent here", "my own turn", "spectator"])
def test_no_claim_otherwise(case):
    game = started(clock=None if case == "no clock" else {"initial": 600})
    away = frozenset() if case == "opponent here" else frozenset({1})
    seat = {"my own turn": 1, "spectator": None}.get(case, 0)
    assert not game.table.claimable(game.state, seat, away)
    if seat is not None:
        assert "claim victory" not in game.table.table_commands(game.state, seat, away)
        with pytest.raises(IllegalMove, match="away for a minute"):
            game.table.decide(game.state, seat, game.table.parse("claim victory"), None, away=away)
