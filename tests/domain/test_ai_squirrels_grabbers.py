"""Foraging Squirrels, three or four seats: while every other seat has only grabbed, hard searches the whole game
exactly against grabbers (``grabbers``); a seat that strayed once is searched as a thinker by the tree."""

from __future__ import annotations

import random

import pytest

import domain.squirrels as game
from domain.ai import squirrels as ai
from domain.ai.squirrels import grabbers, model
from tests.domain.step_clock import StepClock
from tests.domain.test_ai_squirrels_model import deal, play, views


def expectimax(rules, sim, me) -> float:
    """``me``'s expected reward by plain recursion: its best action, the others' grabs equally likely."""
    if sim.over:
        return rules.reward(sim)[me]
    if sim.turn == me:
        return max(after(rules, sim, action, me) for action in rules.actions(sim))
    moves = rules.grabs(sim)
    return sum(after(rules, sim, (None, *move, None), me) for move in moves) / len(moves)


def after(rules, sim, action, me) -> float:
    child = sim.copy()
    rules.play(child, action)
    return expectimax(rules, child, me)


def endgame(seed: int, seats: int, cards: int):
    """A position of a game played by easy players down to ``cards`` food cards (or fewer)."""
    states = deal(seed, seats)
    rng = random.Random(seed)
    while game.status(states[-1]) == "playing":
        rules, sim = ai.rebuild(game.view(states[-1], states[-1].turn))
        if sum(card >= 0 for card in sim.grid) <= cards:
            break
        states = play(states, ["easy"] * seats, rng.randrange(1000), until=states[-1].plies + 1)
    return states


@pytest.mark.parametrize("seats", [3, 4])
def test_the_exact_search_against_grabbers_agrees_with_plain_expectimax(seats):
    checked = 0
    for seed in range(12):
        states = endgame(seed, seats, 9)
        if game.status(states[-1]) != "playing":
            continue
        rules, sim = ai.rebuild(game.view(states[-1], states[-1].turn))
        search = ai.Grabbers(rules, sim.turn, StepClock(), float("inf"))
        action, value = search.best(sim)
        assert value == pytest.approx(expectimax(rules, sim, sim.turn))
        assert after(rules, sim, action, sim.turn) == pytest.approx(value)
        checked += 1
    assert checked >= 8


def test_the_exact_search_gives_up_at_its_deadline():
    rules, sim = ai.rebuild(game.view(deal(3, 3)[-1], deal(3, 3)[-1].turn))
    with pytest.raises(ai.Unsolved):
        ai.Grabbers(rules, sim.turn, StepClock(), 0.01).best(sim)


def test_a_seat_that_never_strayed_counts_as_a_grabber():
    # Seat 0 has not played yet, seat 1 has grabbed, seat 2 has strayed; seat 3 asks.
    assert model.sure_grabbers([model.PRIOR, 0.8, 0.03, model.PRIOR], 3) == [1.0, 1.0, 0.03, model.PRIOR]


def test_hard_keeps_its_dig_when_spending_it_loses_against_grabbers():
    # The other two seats (easy) have grabbed; hard, to move and still holding its dig, spent it here for a
    # bigger grab with its tree search alone ("dig e1 a3; B down", worth 0.1 against grabbers); searched to the
    # end, the plain move is worth 0.76.
    states = play(deal(10, 3), ["easy"] * 3, 10, until=4)
    me = states[-1].turn
    history = views(states, me)
    rules, sim = ai.rebuild(history[-1])
    exact = ai.Grabbers(rules, me, StepClock(), float("inf"))
    worth = {ai.notation(action): exact._after(sim, action) for action in rules.actions(sim)}
    assert max(value for text, value in worth.items() if "dig" in text) < 0.2
    assert worth["B down"] == max(worth.values()) > 0.7
    text = ai.choose(history[-1], me, "hard", random.Random(1), 0.2, StepClock(0.0001), history=history)
    assert text == "B down"


def test_a_seat_that_thinks_is_left_to_the_tree(monkeypatch):
    # A normal seat strays from the best gain within its first moves: hard no longer takes everyone for a grabber.
    states = play(deal(1, 3), ["easy", "normal", "normal"], 1, until=6)
    me = states[-1].turn
    history = views(states, me)
    chances = model.sure_grabbers(model.grab_chances(history, 3, me, random.Random(0), StepClock(), 0.1), me)
    assert any(chance < 1.0 for seat, chance in enumerate(chances) if seat != me)
    searched = []
    monkeypatch.setattr(grabbers.Grabbers, "best", lambda self, sim: searched.append(sim))
    text = ai.choose(history[-1], me, "hard", random.Random(1), 0.2, StepClock(), history=history)
    assert text in game.legal(states[-1], me) and not searched
