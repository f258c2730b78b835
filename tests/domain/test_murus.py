"""Murus Gallicus: one or more scenarios per rule of docs/rules.md §1 (MS-1…MS-8, MS-A1…MS-A4)."""

from __future__ import annotations

import importlib.util
import pathlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import murus
from domain.base import BadNotation, BadSetup, IllegalMove, Setup
from domain.murus import board
from tests.domain.support import murus_candidates
from tests.domain.test_murus_helpers import fold, new_game, play, types

_spec = importlib.util.spec_from_file_location(
    "perft_murus", pathlib.Path(__file__).resolve().parents[2] / "bench" / "perft_murus.py")
naive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(naive)

COLUMNS = "abcdefgh"


def cells_of(state) -> dict[str, str]:
    return murus.dump_position(state)["cells"]


def moves_from(state, cell: str) -> set[str]:
    return {text for text in murus.legal(state, murus.to_act(state)[0]) if text.startswith(cell)}


def refuse(state, text: str, reason: str) -> None:
    """``text`` is refused with a message containing ``reason`` and is not in ``legal``."""
    seat = murus.to_act(state)[0]
    assert text not in murus.legal(state, seat)
    with pytest.raises(IllegalMove, match=reason):
        murus.decide(state, seat, murus.parse(text), random.Random(0))


# MS-1 -------------------------------------------------------------------------------------------------------

def test_MS_1_setup_a_tower_on_every_home_cell():
    state = new_game()
    expected = {f"{c}1": "RR" for c in COLUMNS} | {f"{c}7": "GG" for c in COLUMNS}
    assert murus.dump_position(state) == {"turn": "romans", "cells": expected}
    assert sum(len(s) for s in expected.values() if s[0] == "R") == 16


def test_MS_1_game_created_carries_options_and_start_position():
    events = murus.initial(Setup(seats=2), random.Random(0))
    assert types(events) == ["game_created"]
    assert events[0].options == {"variant": "basic", "max_plies": None}
    assert events[0].position == murus.dump_position(new_game())


# MS-2 -------------------------------------------------------------------------------------------------------

def test_MS_2_romans_move_first_and_turns_alternate():
    state = new_game()
    assert murus.to_act(state) == [0] and murus.legal(state, 1) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        murus.decide(state, 1, murus.parse("a7-a5"), random.Random(0))
    state, _ = play(state, "a1-a3")
    assert murus.to_act(state) == [1] and murus.view(state, 0)["turn"] == "gauls"
    with pytest.raises(IllegalMove, match="not your turn"):
        murus.decide(state, 0, murus.parse("b1-b3"), random.Random(0))
    state, _ = play(state, "a7-a5")
    assert murus.to_act(state) == [0] and state.ply == 2


def test_MS_2_passing_is_not_a_command():
    with pytest.raises(BadNotation):
        murus.parse("pass")


# MS-3 -------------------------------------------------------------------------------------------------------

def test_MS_3_walls_never_move_or_act():
    state, _ = play(new_game(), "a1-a3", "h7-h5")
    refuse(state, "a3-a5", "a3 is a wall: walls never move")
    state = new_game({"d3": "R", "e4": "G", "a1": "RR", "h7": "GG"})
    refuse(state, "d3xe4", "d3 is a wall")


def test_MS_3_stack_limit_two_and_no_mixed_stacks():
    with pytest.raises(BadSetup, match="limit of 2") as bad:
        new_game({"d3": "RRR"})
    assert bad.value.field == "position.cells.d3"
    with pytest.raises(BadSetup, match="never mixes") as bad:
        new_game({"d3": "RG"})
    assert bad.value.field == "position.cells.d3"


def test_MS_3_tower_on_own_tower_is_blocked_in_basic():
    state = new_game({"d1": "RR", "d2": "RR", "h7": "GG"})
    refuse(state, "d1-d3", "d2 holds your tower")
    state = new_game({"d1": "RR", "d3": "RR", "h7": "GG"})
    refuse(state, "d1-d3", "d3 holds your tower")


# MS-4 -------------------------------------------------------------------------------------------------------

def test_MS_4_opening_moves_eight_straight_and_six_plus_six_diagonal():
    legal = set(murus.legal(new_game(), 0))
    straight = {f"{c}1-{c}3" for c in COLUMNS}
    right = {f"{COLUMNS[i]}1-{COLUMNS[i + 2]}3" for i in range(6)}
    left = {f"{COLUMNS[i + 2]}1-{COLUMNS[i]}3" for i in range(6)}
    assert legal == straight | right | left and len(legal) == 20


def test_MS_4_distribute_leaves_one_stone_on_each_cell():
    state, events = play(new_game(), "a1-a3")
    assert types(events) == ["moved"]
    moved = events[0]
    assert (moved.seat, moved.move, moved.kind, moved.frm, moved.to) == (0, "a1-a3", "distribute", "a1", "a3")
    assert moved.cells == {"a1": "", "a2": "R", "a3": "R"}
    assert "a1" not in cells_of(state) and cells_of(state)["a2"] == "R" and cells_of(state)["a3"] == "R"


def test_MS_4_distribute_onto_own_walls_builds_towers():
    state, _ = play(new_game({"d1": "RR", "d2": "R", "d3": "R", "h7": "GG"}), "d1-d3")
    assert cells_of(state) == {"d2": "RR", "d3": "RR", "h7": "GG"}


def test_MS_4_distribute_diagonally_and_backwards():
    state, _ = play(new_game({"d4": "RR", "h7": "GG"}), "d4-b2")
    assert cells_of(state) == {"c3": "R", "b2": "R", "h7": "GG"}


def test_MS_4_enemy_wall_on_c1_allows_only_a_sacrifice_that_way():
    state = new_game({"d3": "RR", "d4": "G", "a7": "GG"})
    refuse(state, "d3-d5", "d4 holds Gauls stones")
    assert "d3xd4" in murus.legal(state, 0)


def test_MS_4_enemy_stone_on_c2_blocks():
    state = new_game({"d3": "RR", "d5": "G", "a7": "GG"})
    refuse(state, "d3-d5", "d5 holds Gauls stones")


def test_MS_4_blocked_c1_forbids_the_direction_no_jumping():
    state = new_game({"d3": "RR", "d4": "GG", "a7": "GG"})
    refuse(state, "d3-d5", "d4 holds Gauls stones")


def test_MS_4_tower_on_an_edge_cell():
    state = new_game({"a4": "RR", "h7": "GG"})
    assert moves_from(state, "a4") == {"a4-a6", "a4-a2", "a4-c4", "a4-c6", "a4-c2"}
    state = new_game({"h1": "RR", "a7": "GG"})
    assert moves_from(state, "h1") == {"h1-h3", "h1-f1", "h1-f3"}


def test_MS_4_far_cell_must_be_two_cells_away_in_a_line():
    state = new_game()
    refuse(state, "a1-b3", "two cells away in a straight line")
    refuse(state, "a1-a2", "two cells away in a straight line")
    refuse(state, "a1-a4", "two cells away in a straight line")


def test_MS_4_only_own_towers_distribute():
    state = new_game()
    refuse(state, "a7-a5", "a7 is not your tower")
    refuse(state, "d4-d6", "d4 is empty")


# MS-5 -------------------------------------------------------------------------------------------------------

def test_MS_5_sacrifice_leaves_a_wall_and_removes_the_enemy_wall():
    state, events = play(new_game({"d3": "RR", "e4": "G", "a7": "GG"}), "d3xe4")
    assert types(events) == ["moved", "captured"]
    assert events[0].kind == "sacrifice" and events[0].cells == {"d3": "R", "e4": ""}
    assert (events[1].seat, events[1].cell, events[1].removed, events[1].left) == (0, "e4", 1, "")
    assert cells_of(state) == {"d3": "R", "a7": "GG"}


def test_MS_5_sacrifice_is_optional():
    state = new_game({"d3": "RR", "e4": "G", "a7": "GG"})
    assert {"d3xe4", "d3-d5", "d3-b1"} <= set(murus.legal(state, 0))


def test_MS_5_never_against_a_tower():
    refuse(new_game({"d3": "RR", "e4": "GG", "a7": "GG"}), "d3xe4", "e4 is an enemy tower")


def test_MS_5_target_must_be_an_adjacent_enemy_wall():
    state = new_game({"d3": "RR", "d2": "R", "d5": "G", "a7": "GG"})
    refuse(state, "d3xd5", "d5 is not next to d3")
    refuse(state, "d3xd4", "d4 is empty")
    refuse(state, "d3xd2", "d2 holds your own stones")


def test_MS_5_gauls_sacrifice_too():
    state, events = play(new_game({"e5": "GG", "d4": "R", "a1": "RR"}, turn="gauls"), "e5xd4")
    assert cells_of(state) == {"a1": "RR", "e5": "G"} and events[1].seat == 1


def test_MS_5_double_sacrifice_and_fire_do_not_exist_in_basic():
    state = new_game({"d3": "RR", "e4": "G", "a7": "GG"})
    refuse(state, "d3xxe4", "only in the advanced variant")
    refuse(state, "d3*d5", "only in the advanced variant")


# MS-6 -------------------------------------------------------------------------------------------------------

def test_MS_6_romans_break_through_at_once():
    state, events = play(new_game({"d5": "RR", "a7": "GG", "h6": "GG"}), "d5-d7")
    assert types(events) == ["moved", "game_ended"]
    assert murus.result(state) == {"winners": [0], "reason": "Romans reached row 7", "termination": "rules"}
    assert murus.status(state) == "finished" and murus.to_act(state) == [] and murus.legal(state, 1) == []
    with pytest.raises(IllegalMove, match="game is over"):
        murus.decide(state, 1, murus.parse("h6-h4"), random.Random(0))


def test_MS_6_gauls_break_through_diagonally():
    state, _ = play(new_game({"c3": "GG", "h1": "RR"}, turn="gauls"), "c3-a1")
    assert murus.result(state) == {"winners": [1], "reason": "Gauls reached row 1", "termination": "rules"}


def test_MS_6_breakthrough_by_the_far_cell_only():
    # A tower next to the goal row has no forward move: its far cell would be off the board.
    state = new_game({"d6": "RR", "a7": "GG"})
    assert moves_from(state, "d6") == {"d6-d4", "d6-b6", "d6-f6", "d6-b4", "d6-f4"}
    with pytest.raises(BadNotation):
        murus.parse("d6-d8")


def test_MS_6_a_position_already_broken_through_is_refused_in_basic():
    with pytest.raises(BadSetup, match="would be over") as bad:
        new_game({"d7": "R", "a1": "RR", "h7": "GG"}, turn="gauls")
    assert bad.value.field == "position.cells.d7"


# MS-7 -------------------------------------------------------------------------------------------------------

def test_MS_7_stalemate_with_only_walls_left():
    state = new_game({"d3": "RR", "a1": "R", "h7": "GG", "a7": "GG"})
    state, events = play(state, "d3-d5")
    assert murus.status(state) == "playing"
    state, events = play(state, "h7-h5")  # the Romans now start their turn with walls only
    assert types(events) == ["moved", "game_ended"]
    assert murus.result(state) == {"winners": [1], "reason": "Romans have no legal move", "termination": "rules"}


def test_MS_7_stalemate_with_all_towers_blocked():
    # Gaul towers on every neighbour of a4 in reach: the last gap (b3) becomes a tower.
    cells = {"a4": "RR", "h2": "R", "a5": "GG", "a3": "GG", "b4": "GG", "b5": "GG", "b3": "G", "d3": "GG"}
    state = new_game(cells, turn="gauls")
    assert murus.legal(state, 1)
    state, events = play(state, "d3-b3")
    assert types(events) == ["moved", "game_ended"]
    assert murus.result(state) == {"winners": [1], "reason": "Romans have no legal move", "termination": "rules"}


def test_MS_7_a_stalemated_start_position_ends_at_once():
    events = murus.initial(Setup(seats=2, position={"turn": "gauls", "cells": {"a1": "RR", "d5": "G"}}),
                           random.Random(0))
    assert types(events) == ["game_created", "game_ended"]
    assert events[1].winners == [0] and events[1].reason == "Gauls have no legal move"


# MS-8 -------------------------------------------------------------------------------------------------------

def test_MS_8_no_draw_without_max_plies():
    state = new_game()
    rng = random.Random(7)
    for _ in range(30):
        if murus.status(state) != "playing":
            break
        state, _ = play(state, rng.choice(murus.legal(state, murus.to_act(state)[0])))
    assert murus.result(state) is None or murus.result(state)["winners"]


def test_MS_8_max_plies_ends_in_a_draw():
    state, events = play(new_game(max_plies=2), "a1-a3")
    assert murus.status(state) == "playing"
    state, events = play(state, "a7-a5")
    assert types(events) == ["moved", "game_ended"]
    assert murus.result(state) == {"winners": [], "reason": "Draw: the limit of 2 moves was reached",
                                   "termination": "max_plies"}


def test_MS_8_a_win_on_the_last_ply_beats_the_draw():
    state, _ = play(new_game({"d5": "RR", "a7": "GG"}, max_plies=1), "d5-d7")
    assert murus.result(state)["winners"] == [0]


@pytest.mark.parametrize("value", [0, -3, "10", True, 2.5])
def test_MS_8_max_plies_must_be_a_positive_integer(value):
    with pytest.raises(BadSetup) as bad:
        murus.initial(Setup(seats=2, options={"max_plies": value}), random.Random(0))
    assert bad.value.field == "options.max_plies"


# MS-A1 ------------------------------------------------------------------------------------------------------

def test_MS_A1_distribution_onto_own_tower_makes_a_catapult():
    state, _ = play(new_game({"d1": "RR", "d2": "RR", "d3": "R", "h7": "GG"}, variant="advanced"), "d1-d3")
    assert cells_of(state) == {"d2": "RRR", "d3": "RR", "h7": "GG"}


def test_MS_A1_never_onto_a_catapult():
    state = new_game({"d1": "RR", "d2": "RRR", "h7": "GG"}, variant="advanced")
    refuse(state, "d1-d3", "d2 holds your catapult")


def test_MS_A1_catapults_never_distribute():
    state = new_game({"d2": "RRR", "a1": "RR", "h7": "GG"}, variant="advanced")
    refuse(state, "d2-d4", "d2 is a catapult: catapults never distribute")


def test_MS_A1_stack_limit_three():
    assert cells_of(new_game({"d2": "RRR", "h7": "GG"}, variant="advanced"))["d2"] == "RRR"
    with pytest.raises(BadSetup, match="limit of 3"):
        new_game({"d2": "RRRR"}, variant="advanced")


def test_MS_A1_opening_towers_may_also_move_sideways_onto_towers():
    legal = murus.legal(new_game(variant="advanced"), 0)
    assert len(legal) == 32 and "a1-c1" in legal and "h1-f1" in legal
    state, _ = play(new_game(variant="advanced"), "a1-c1")
    assert cells_of(state)["b1"] == "RRR" and cells_of(state)["c1"] == "RRR"


# MS-A2 ------------------------------------------------------------------------------------------------------

def fires(state, cell):
    return {text for text in moves_from(state, cell) if "*" in text}


def test_MS_A2_fire_reaches_two_or_three_cells_sideways_or_forward():
    romans = new_game({"d3": "RRR", "h7": "GG"}, variant="advanced")
    assert fires(romans, "d3") == {"d3*b3", "d3*a3", "d3*f3", "d3*g3", "d3*d5", "d3*d6",
                                   "d3*b5", "d3*a6", "d3*f5", "d3*g6"}
    gauls = new_game({"e5": "GGG", "a1": "RR"}, turn="gauls", variant="advanced")
    assert fires(gauls, "e5") == {"e5*c5", "e5*b5", "e5*g5", "e5*h5", "e5*e3", "e5*e2",
                                  "e5*c3", "e5*b2", "e5*g3", "e5*h2"}


def test_MS_A2_fire_never_backwards_nor_at_other_distances():
    state = new_game({"d3": "RRR", "h7": "GG"}, variant="advanced")
    refuse(state, "d3*d1", "exactly 2 or 3 cells left, right, forward or diagonally forward")
    refuse(state, "d3*d4", "exactly 2 or 3 cells")
    refuse(state, "d3*d7", "exactly 2 or 3 cells")
    refuse(state, "d3*e5", "exactly 2 or 3 cells")


def test_MS_A2_fire_onto_an_empty_cell_builds_a_wall_and_leaves_a_tower():
    state, events = play(new_game({"d3": "RRR", "h7": "GG"}, variant="advanced"), "d3*d5")
    assert types(events) == ["moved"] and events[0].kind == "fire"
    assert cells_of(state) == {"d3": "RR", "d5": "R", "h7": "GG"}


@pytest.mark.parametrize("enemy, left", [("G", ""), ("GG", "G"), ("GGG", "GG")])
def test_MS_A2_fire_at_an_enemy_stack_removes_one_stone(enemy, left):
    state, events = play(new_game({"d3": "RRR", "d6": enemy, "h7": "GG"}, variant="advanced"), "d3*d6")
    assert types(events) == ["moved", "captured"]
    assert (events[1].cell, events[1].removed, events[1].left) == ("d6", 1, left)
    assert cells_of(state).get("d6", "") == left and cells_of(state)["d3"] == "RR"


def test_MS_A2_never_at_an_own_stack():
    state = new_game({"d3": "RRR", "d5": "R", "h7": "GG"}, variant="advanced")
    refuse(state, "d3*d5", "d5 holds your own stones")


def test_MS_A2_only_catapults_fire():
    state = new_game({"d3": "RR", "h7": "GG"}, variant="advanced")
    refuse(state, "d3*d5", "d3 is not a catapult")
    refuse(state, "h7*h5", "h7 is not your catapult")


# MS-A3 ------------------------------------------------------------------------------------------------------

def test_MS_A3_single_sacrifice_against_a_catapult():
    state, events = play(new_game({"d3": "RR", "e4": "GGG", "h7": "GG"}, variant="advanced"), "d3xe4")
    assert cells_of(state) == {"d3": "R", "e4": "GG", "h7": "GG"}
    assert (events[1].removed, events[1].left) == (1, "GG")


def test_MS_A3_double_sacrifice_against_a_catapult():
    state, events = play(new_game({"d3": "RR", "e4": "GGG", "h7": "GG"}, variant="advanced"), "d3xxe4")
    assert events[0].kind == "double_sacrifice"
    assert cells_of(state) == {"e4": "G", "h7": "GG"}
    assert (events[1].removed, events[1].left) == (2, "G")


def test_MS_A3_double_sacrifice_only_against_a_catapult():
    state = new_game({"d3": "RR", "e4": "G", "h7": "GG"}, variant="advanced")
    refuse(state, "d3xxe4", "a double sacrifice only hits a catapult")
    state = new_game({"d3": "RR", "e4": "GG", "h7": "GG"}, variant="advanced")
    refuse(state, "d3xe4", "e4 is an enemy tower: a sacrifice only removes a wall or a catapult")
    refuse(state, "d3xxe4", "e4 is an enemy tower")


def test_MS_A3_catapults_never_sacrifice():
    state = new_game({"d3": "RRR", "e4": "G", "h7": "GG"}, variant="advanced")
    refuse(state, "d3xe4", "catapults never distribute or sacrifice")


# MS-A4 ------------------------------------------------------------------------------------------------------

def test_MS_A4_reaching_the_goal_row_wins_only_if_it_survives_a_turn():
    state, events = play(new_game({"d5": "RR", "a7": "GG", "h4": "GG"}, variant="advanced"), "d5-d7")
    assert types(events) == ["moved"] and murus.view(state, None)["intruders"] == ["d7"]
    state, events = play(state, "h4-h2")
    assert types(events) == ["moved", "game_ended"]
    assert murus.result(state) == {"winners": [0], "reason": "Romans reached row 7 and held it for a turn",
                                   "termination": "rules"}


def test_MS_A4_the_opponent_may_remove_the_intruder():
    state = new_game({"d5": "RR", "h1": "RR", "e7": "GG", "a7": "GG"}, variant="advanced")
    state, _ = play(state, "d5-d7", "e7xd7")
    assert murus.status(state) == "playing" and "d7" not in cells_of(state)


def test_MS_A4_gauls_hold_row_one_after_a_fire():
    state = new_game({"e4": "GGG", "a1": "RR", "h7": "GG"}, turn="gauls", variant="advanced")
    state, _ = play(state, "e4*e1", "a1-a3")
    assert murus.result(state) == {"winners": [1], "reason": "Gauls reached row 1 and held it for a turn",
                                   "termination": "rules"}


def test_MS_A4_checked_before_stalemate():
    # The Romans have no legal action, but their wall on row 7 survived: they win rather than lose.
    events = murus.initial(Setup(seats=2, options={"variant": "advanced"},
                                 position={"turn": "romans", "cells": {"d7": "R", "a7": "GG"}}), random.Random(0))
    assert types(events) == ["game_created", "game_ended"]
    assert events[1].winners == [0] and "held it" in events[1].reason


def test_MS_A4_an_intruder_of_the_side_not_to_move_is_a_threat_not_a_win():
    state = new_game({"d7": "R", "a7": "GG", "a1": "RR"}, turn="gauls", variant="advanced")
    assert murus.status(state) == "playing" and murus.view(state, 1)["intruders"] == ["d7"]


# Perft and random play against the naive generator of bench/perft_murus.py (moved from test_murus_props.py; the
# generic properties are in test_conformance.py) ----------------------------------------------------------------

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


CELL_NAMES = [f"{c}{r}" for r in range(1, 8) for c in "abcdefgh"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["basic", "advanced"]))
def test_random_play_matches_the_naive_generator_and_explains_every_refusal(seed, variant):
    rng = random.Random(seed)
    state = fold(murus.initial(Setup(seats=2, options={"variant": variant, "max_plies": 150}), rng))
    while murus.status(state) == "playing":
        seat = murus.to_act(state)[0]
        legal = murus.legal(state, seat)
        # Same moves as the naive generator written from the rules; the set-wise count agrees.
        cells = naive.naive_from_cells(murus.view(state, seat)["cells"])
        expected = {f"{op}{CELL_NAMES[8 * f[1] + f[0]]}{CELL_NAMES[8 * t[1] + t[0]]}"
                    for op, f, t in naive.naive_moves(cells, seat, variant == "advanced")}
        assert {text[2:-2] + text[:2] + text[-2:] for text in legal} == expected
        assert board.count_moves(state.pos, variant == "advanced") == len(legal)
        # Every refusal names the rule it breaks, not just "not a legal move".
        for text in murus_candidates(state, seat, rng)[:3]:
            if text not in legal:
                with pytest.raises(IllegalMove) as refused:
                    murus.decide(state, seat, murus.parse(text), rng)
                assert "is not a legal move here" not in str(refused.value)
        state = fold(murus.decide(state, seat, murus.parse(rng.choice(legal)), rng), state)
    assert state.ply <= 150


def test_MS_evolve_checks_the_facts_of_an_event():
    """A ``moved`` event by the side not to move, or giving a cell a stack that cannot exist, is a ``BadEvent``."""
    from msgspec.structs import replace

    from domain.base import BadEvent

    state = new_game()
    moved = murus.decide(state, 0, murus.parse("a1-a3"), random.Random(0))[0]
    assert murus.evolve(state, moved).ply == 1
    with pytest.raises(BadEvent, match="seat 1 cannot move now"):
        murus.evolve(state, replace(moved, seat=1))
    with pytest.raises(BadEvent, match="no such cell or stack"):
        murus.evolve(state, replace(moved, cells={"a9": "R"}))
    with pytest.raises(BadEvent, match="no such cell or stack"):
        murus.evolve(state, replace(moved, cells={"a2": "RGR"}))
