"""Every tutorial step is a real position of its game, and its moves are legal there (the decider says so)."""

from __future__ import annotations

import pytest

from domain import tutorials
from domain.base import REVEAL_ALL, commands
from domain.registry import game_module, game_types
from domain.text import Text

ALL = tutorials.tutorials()


def test_every_game_has_a_tutorial_in_the_registry_order():
    assert list(ALL) == [t.name for t in game_types()]


@pytest.mark.parametrize("game", list(ALL))
def test_each_step_loads_and_each_of_its_moves_is_legal_for_the_seat_to_act(game):
    module = game_module(game)
    for number, step in enumerate(ALL[game].steps):
        assert isinstance(step.text, Text) and isinstance(step.why, Text) and step.moves, (game, number)
        state = tutorials.state_of(module, step)
        seat = tutorials.seat_of(module, state)
        legal = set(commands(module.legal(state, seat)))
        for move in step.moves:
            assert move in legal, (game, number, move)
            module.decide(state, seat, module.parse(move), __import__("random").Random(0))  # raises if illegal
        assert len(step.moves) < len(legal), (game, number)  # a choice: some legal move is wrong
        if step.then:
            assert len(step.moves) == 1, (game, number)
            state = tutorials.after(module, state, seat, step.moves)
            for move, text in step.then:
                assert isinstance(text, Text)
                assert seat in module.to_act(state), (game, number, move)
                assert move in set(commands(module.legal(state, seat))), (game, number, move)
                state = tutorials.after(module, state, seat, [move])


def test_the_player_is_the_same_seat_in_every_step():
    for game, tutorial in ALL.items():
        module = game_module(game)
        seats = {tutorials.seat_of(module, tutorials.state_of(module, step)) for step in tutorial.steps
                 if not step.position.get("first")}
        assert len(seats) == 1 or game == "squirrels", (game, seats)


def test_steps_teach_what_they_say():
    """The outcomes the texts promise: a capture, a win, the most cards, a teleport."""
    def outcome(game, index, move=None):
        module = game_module(game)
        step = ALL[game].steps[index]
        state = tutorials.state_of(module, step)
        seat = tutorials.seat_of(module, state)
        return module, tutorials.after(module, state, seat, [move or step.moves[0]]), seat

    module, state, _ = outcome("murus", 4)
    assert module.result(state)["winners"] == [0]  # breakthrough
    module, state, _ = outcome("mouseguard", 7)
    assert module.status(state) == "finished"
    module, state, _ = outcome("mouseguard", 2)
    assert module.view(state, REVEAL_ALL)["captured"]["white"] == 1
    module, state, seat = outcome("squirrels", 4)
    assert module.result(state)["winners"] == [seat]
    module, state, seat = outcome("squirrels", 4, "G left")
    assert module.result(state)["winners"] == [0, 1]
    for index, count in ((0, 2), (1, 3), (2, 3), (3, 3)):
        module, state, seat = outcome("squirrels", index)
        assert len(module.view(state, REVEAL_ALL)["piles"][seat]) - len(ALL["squirrels"].steps[index]
                                                                           .position["piles"][seat]) == count
    module, state, _ = outcome("commando", 4)
    assert module.view(state, REVEAL_ALL)["agents"][0]["square"] == 37  # the teleport
