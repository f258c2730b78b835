"""The registry of games (``domain/registry.py``) and a game's registration (``domain/game_type.py``): the one
place every part of a game is found."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain import ai, murus, registry
from domain.base import Setup
from domain.game_type import GameType
from tests.domain.step_clock import StepClock
from tests.domain.support import fold
from tests.games import tictactoe


def test_the_built_in_games_are_registered_in_the_catalogs_order():
    assert tuple(registry.GAME_NAMES) == ("murus", "mouseguard", "squirrels", "commando")
    assert [t.name for t in registry.game_types()] == list(registry.GAME_NAMES)
    assert [info.name for info in registry.catalog()] == list(registry.GAME_NAMES)
    assert registry.game_type("murus") is murus.GAME and registry.game_module("murus") is murus
    assert [t.hidden_information for t in registry.game_types()] == [False, True, True, True]


def test_registered_lasts_for_the_block_and_adds_the_game_everywhere():
    assert "tictactoe" not in registry.GAME_NAMES
    with registry.registered(tictactoe.GAME) as name:
        assert name == "tictactoe" and registry.GAME_NAMES[-1] == "tictactoe"
        assert registry.game_info("tictactoe") is tictactoe.CATALOG
        assert registry.game_module("tictactoe") is tictactoe
    assert "tictactoe" not in registry.GAME_NAMES
    with pytest.raises(KeyError):
        registry.game_type("tictactoe")


def test_a_name_taken_by_another_game_is_refused_and_the_same_registration_again_changes_nothing():
    registry.register(murus.GAME)
    assert registry.game_type("murus") is murus.GAME
    impostor = replace(murus.GAME, decider="tests.games.tictactoe")
    with pytest.raises(ValueError, match="'murus' is registered already"):
        registry.register(impostor)
    with pytest.raises(TypeError, match="takes a GameType"):
        registry.register("murus")  # type: ignore[arg-type]
    assert registry.game_type("murus") is murus.GAME


def test_a_registration_names_a_board_file_and_an_ai_exactly_when_the_catalog_offers_levels():
    with pytest.raises(ValueError, match="board must be a file name under web/static/boards/"):
        GameType(decider="domain.murus", catalog=murus.CATALOG, ai="domain.ai.murus", board="../app.js")
    with pytest.raises(ValueError, match="exactly when it names an AI module"):
        GameType(decider="domain.murus", catalog=murus.CATALOG)
    with pytest.raises(ValueError, match="not the string"):
        GameType(decider="domain.murus", catalog=murus.CATALOG, ai="domain.ai.murus", hidden="hands")


def test_the_ai_is_found_through_the_registration_not_by_its_module_name():
    """Tic-tac-toe's AI lives in tests/games/tictactoe/ai.py, where no naming convention would look."""
    with pytest.raises(KeyError):
        ai.ai_module("tictactoe")
    with registry.registered(tictactoe.GAME):
        assert ai.ai_module("tictactoe").__name__ == "tests.games.tictactoe.ai"
        state = fold(tictactoe, tictactoe.initial(Setup(seats=2, position={"turn": 0, "cells": {
            "a1": "X", "b1": "X", "a2": "O", "b2": "O"}}), random.Random(1)))
        view = tictactoe.view(state, 0)
        assert ai.choose("tictactoe", view, 0, "easy", random.Random(1), 0.01, StepClock()) == "c1"  # wins
        assert ai.choose("tictactoe", {**view, "position": {"turn": 1, "cells": view["position"]["cells"]}},
                         1, "easy", random.Random(1), 0.01, StepClock()) == "c2"  # O wins too, on its own line


def test_tictactoes_perft_gives_the_known_counts():
    state = fold(tictactoe, tictactoe.initial(Setup(seats=2), random.Random(0)))
    assert [tictactoe.GAME.perft(state, d) for d in range(6)] == [1, 9, 72, 504, 3024, 9 * 8 * 7 * 6 * 5]
    won = fold(tictactoe, tictactoe.initial(Setup(seats=2, position={"turn": 1, "cells": {
        "a1": "X", "b1": "X", "c1": "X", "a2": "O", "b2": "O"}}), random.Random(0)))
    assert [tictactoe.GAME.perft(won, d) for d in range(3)] == [1, 0, 0]  # a finished game has no moves
