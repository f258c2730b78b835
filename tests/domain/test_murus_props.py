"""Murus: perft check numbers, and properties of random play (hypothesis) against a naive generator."""

from __future__ import annotations

import importlib.util
import pathlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import murus
from domain.base import REVEAL_ALL, BadNotation, IllegalMove, Setup
from domain.murus import board
from tests.domain.test_murus_helpers import fold, new_game, play

_spec = importlib.util.spec_from_file_location(
    "perft_murus", pathlib.Path(__file__).resolve().parents[2] / "bench" / "perft_murus.py")
naive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(naive)

CELL_NAMES = [f"{c}{r}" for r in range(1, 8) for c in "abcdefgh"]
OPERATORS = ["-", "x", "xx", "*"]


# Perft ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth, nodes", [(1, 20), (2, 400), (3, 6960), (4, 121104)])
def test_perft_basic_check_numbers_of_rules(depth, nodes):
    assert murus.perft(new_game(), depth) == nodes


@pytest.mark.parametrize("depth, nodes", [(1, 32), (2, 1024), (3, 28416)])
def test_perft_advanced_regression(depth, nodes):
    # Counted by this generator and by the naive one of bench/perft_murus.py (they agree up to depth 4).
    assert murus.perft(new_game(variant="advanced"), depth) == nodes
    assert naive.naive_perft(naive.naive_start(), 0, depth, True) == nodes


def test_perft_stops_at_a_finished_game():
    over, _ = play(new_game({"d5": "RR", "a7": "GG"}), "d5-d7")
    assert murus.perft(over, 0) == 1 and murus.perft(over, 1) == 0
    # A breakthrough one ply ahead ends its line: d5-d7 contributes nothing at depth 2.
    state = new_game({"d5": "RR", "a7": "GG"})
    assert murus.perft(state, 2) == sum(
        murus.perft(play(state, text)[0], 1) for text in murus.legal(state, 0))
    assert murus.perft(play(state, "d5-d7")[0], 1) == 0


# Random play ------------------------------------------------------------------------------------------------

def _wrong_command(rng: random.Random, state) -> str:
    """A random well-formed command, often starting from one of the mover's own stacks."""
    own = [cell for cell, stack in murus.dump_position(state)["cells"].items()
           if stack[0] == "RG"[murus.to_act(state)[0]]]
    frm = rng.choice(own) if own and rng.random() < 0.8 else rng.choice(CELL_NAMES)
    return f"{frm}{rng.choice(OPERATORS)}{rng.choice(CELL_NAMES)}"


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["basic", "advanced"]))
def test_random_play_is_legal_ends_and_replays(seed, variant):
    rng = random.Random(seed)
    events = murus.initial(Setup(seats=2, options={"variant": variant, "max_plies": 150}), rng)
    state = fold(events)
    while murus.status(state) == "playing":
        seat = murus.to_act(state)[0]
        legal = murus.legal(state, seat)
        assert legal and murus.legal(state, seat ^ 1) == []
        # Same moves as the naive generator written from the rules; the set-wise count agrees.
        cells = naive.naive_from_cells(murus.view(state, seat)["cells"])
        expected = {f"{op}{CELL_NAMES[8 * f[1] + f[0]]}{CELL_NAMES[8 * t[1] + t[0]]}"
                    for op, f, t in naive.naive_moves(cells, seat, variant == "advanced")}
        assert {text[2:-2] + text[:2] + text[-2:] for text in legal} == expected
        assert board.count_moves(state.pos, variant == "advanced") == len(legal)
        # decide accepts exactly the legal commands, and explains every refusal.
        for _ in range(3):
            text = _wrong_command(rng, state)
            if text not in legal:
                with pytest.raises(IllegalMove) as refused:
                    murus.decide(state, seat, murus.parse(text), rng)
                assert "is not a legal move here" not in str(refused.value)
        with pytest.raises(IllegalMove, match="not your turn"):
            murus.decide(state, seat ^ 1, murus.parse(rng.choice(legal)), rng)
        new = murus.decide(state, seat, murus.parse(rng.choice(legal)), rng)
        events += new
        state = fold(new, state)
        # The position JSON reloads to the same board; the view is the same for every viewer.
        position = murus.dump_position(state)
        if murus.status(state) == "playing":
            assert new_game(position["cells"], position["turn"], variant=variant).pos == state.pos
        view = murus.view(state, 0)
        assert view == murus.view(state, 1) == murus.view(state, None) == murus.view(state, REVEAL_ALL)
    assert murus.to_act(state) == [] and state.ply <= 150
    assert fold(events) == state
    assert murus.result(state)["reason"]


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=8))
def test_parse_either_round_trips_or_raises_bad_notation(text):
    try:
        cmd = murus.parse(text)
    except BadNotation:
        return
    assert murus.parse(murus.format(cmd)) == cmd
