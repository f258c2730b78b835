"""A tournament's decider (domain/tournaments/state.py): requests, rounds, the end."""

from __future__ import annotations

import pytest

from domain.tournaments import events as ev
from domain.tournaments.state import (
    Refused,
    decide_game_over,
    decide_join,
    decide_start,
    decide_withdraw,
    evolve,
    next_events,
    tables_to_start,
)


def made(system="swiss", players="abcd", **kw):
    state = evolve(None, ev.Created("a", "murus", system, "T", {"initial": 60}, **kw), "t", 0)
    for name in players:
        state = evolve(state, ev.Joined(name), "t", 1)
    return state


def apply(state, events, at=2):
    for e in events:
        state = evolve(state, e, "t", at)
    return state


def start_games(state):
    for number, i, _ in tables_to_start(state):
        state = apply(state, [ev.GameStarted(number, i, f"g{number}-{i}")])
    return state


def finish_all(state, winners=(0,)):
    for gid in list(state.games):
        state = apply(state, decide_game_over(state, gid, list(winners), True))
    return state


def test_requests_are_refused_with_reasons():
    state = made(max_players=4)
    with pytest.raises(Refused, match="joined"):
        decide_join(state, "A")
    with pytest.raises(Refused, match="full"):
        decide_join(state, "e")
    with pytest.raises(Refused) as refused:
        decide_start(state, "b", 0)
    assert refused.value.kind == "forbidden"
    state = apply(state, decide_withdraw(state, "d"))
    assert state.players == ("a", "b", "c")
    state = apply(state, decide_join(state, "d"))  # back before the start
    state = apply(state, decide_start(state, "a", 0))
    with pytest.raises(Refused, match="started"):
        decide_join(state, "e")
    with pytest.raises(Refused, match="not playing"):
        decide_withdraw(state, "e")


def test_a_start_at_its_time_with_too_few_players_ends_it():
    state = made(players="a", starts_at=100)
    assert next_events(state, 99) == []
    assert next_events(state, 100) == [ev.Started(), ev.Ended("players")]


def test_an_upcoming_tournament_nobody_starts_lapses():
    """Without a start time, a tournament its creator never starts ends after LAPSE_MS: it no longer counts among
    the open ones."""
    from domain.tournaments.state import LAPSE_MS

    state = made()
    assert next_events(state, LAPSE_MS - 1) == []
    assert next_events(state, LAPSE_MS) == [ev.Ended("lapsed")]


def test_swiss_rounds_wait_for_every_game_then_end():
    state = apply(made(rounds=2), [ev.Started()])
    state = start_games(apply(state, next_events(state, 0)))
    gid = next(iter(state.games))
    state = apply(state, decide_game_over(state, gid, [0], True))
    assert next_events(state, 0) == []  # one game of the round still on
    assert decide_game_over(state, gid, [1], True) == []  # recorded once
    state = finish_all(state)
    state = start_games(apply(state, next_events(state, 0)))
    assert len(state.rounds) == 2
    state = finish_all(state)
    assert next_events(state, 0) == [ev.Ended("rounds")]


def test_round_robin_forfeits_a_withdrawn_players_games():
    """Four players, three rounds; d withdraws after round 1: its two games left are not played, the opponent
    scores a win."""
    state = apply(made("round_robin"), [ev.Started()])
    assert state.total_rounds == 3
    state = finish_all(start_games(apply(state, next_events(state, 0))), winners=())
    state = apply(state, decide_withdraw(state, "d"))
    for _ in range(2):
        paired = next_events(state, 0)
        (event,) = paired
        forfeit = [t for i, t in enumerate(event.tables) if i in event.forfeits]
        assert len(forfeit) == 1 and "d" in forfeit[0]
        state = finish_all(start_games(apply(state, paired)), winners=(0,))
        assert all("d" not in players for _, _, players in tables_to_start(state))
    assert next_events(state, 0) == [ev.Ended("rounds")]
    games = {s.username: s.games for s in state.standings()}
    assert games["d"] == 1 and games["a"] == 3


def test_arena_pairs_the_free_and_ends_when_time_is_up():
    state = apply(made("arena", players="abcde", minutes=3), [ev.Started()], at=0)
    assert state.ends_at == 180_000
    first = next_events(state, 1)
    assert len(first[0].tables) == 2  # five players: one waits
    state = start_games(apply(state, first))
    gid = next(iter(state.games))
    state = apply(state, decide_game_over(state, gid, [0], True))
    again = next_events(state, 2)
    (event,) = again
    assert len(event.tables) == 1 and set(event.tables[0]) != set(state.rounds[0].tables[0].players)
    state = start_games(apply(state, again))
    assert next_events(state, 180_000) == []  # games still on
    state = finish_all(state)
    assert next_events(state, 180_000) == [ev.Ended("time")]
