"""Foraging Squirrels: one scenario per rule of docs/rules.md §3 (FS-1 … FS-10), its edge cases, notation,
positions."""

from __future__ import annotations

import random
from typing import Union

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.squirrels as game
from domain.base import REVEAL_ALL, BadNotation, BadSetup, IllegalMove, Setup
from domain.squirrels.board import CELLS
from domain.squirrels.events import EVENTS, BoostersOpened, CardsDealt, FirstPlayerChosen, GameEnded, TurnPassed
from domain.squirrels.notation import Turn

RARITY = {"r": "rare", "m": "mythic", "u": "uncommon"}


def card(token: str) -> dict:
    """A card from a token: colour letters (WUBRG), C colourless, L land; marks r/m/u rarity, * foil,
    s squirrel."""
    return {"name": f"Card {token}", "rarity": next((RARITY[m] for m in token if m in RARITY), "common"),
            "colors": "".join(c for c in token if c in "WUBRG"), "foil": "*" in token, "squirrel": "s" in token,
            "land": "L" in token}


def position(rows: str, **extra) -> dict:
    """A position from five rows of tokens, row 5 first: '.' empty, 'S' the squirrel, else a card token."""
    lines = [line.split() for line in rows.strip().splitlines()]
    assert len(lines) == 5 and all(len(line) == 5 for line in lines)
    grid, cards = {}, {}
    for r, line in enumerate(lines):
        for c, token in enumerate(line):
            cell = f"{'abcde'[c]}{5 - r}"
            if token == "S":
                grid[cell] = "squirrel"
            elif token != ".":
                cid = len(cards) + 1
                cards[str(cid)] = card(token)
                grid[cell] = cid
    pile_cards = extra.pop("pile_cards", {})
    piles = extra.pop("piles", None)
    if pile_cards:
        piles = []
        for tokens in pile_cards:
            pile = []
            for token in tokens:
                cid = len(cards) + 1
                cards[str(cid)] = card(token)
                pile.append(cid)
            piles.append(pile)
    result = {"grid": grid, "cards": cards, **extra}
    if piles is not None:
        result["piles"] = piles
    return result


def start(rows: str, seats: int = 2, options: dict | None = None, **extra):
    """A live state from a position."""
    state = None
    for event in game.initial(Setup(seats, options or {}, position(rows, **extra)), random.Random(0)):
        state = game.evolve(state, event)
    return state


def play(state, text: str, seat: int | None = None):
    """The state after ``text`` by the seat to act, and the events."""
    seat = state.turn if seat is None else seat
    events = game.decide(state, seat, game.parse(text), random.Random(0))
    for event in events:
        state = game.evolve(state, event)
    return state, events


def fresh(seats: int = 2, seed: int = 1, **options):
    events = game.initial(Setup(seats, options), random.Random(seed))
    state = None
    for event in events:
        state = game.evolve(state, event)
    return state, events


def cell(state, name: str):
    return state.grid[CELLS.index(name)]


# Seat 1 to play, the first player (seat 0) has had a turn: digs are open to seat 1.
OPENED = {"first": 0, "turn": 1, "pile_cards": [["W"], []]}


# --- FS-1 players and packs -------------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
def test_FS_1_two_to_four_players(seats):
    state, _ = fresh(seats)
    assert game.status(state) == "playing" and len(state.piles) == seats


@pytest.mark.parametrize("seats", [1, 5])
def test_FS_1_other_seat_counts_refused(seats):
    with pytest.raises(BadSetup) as err:
        game.initial(Setup(seats), random.Random(0))
    assert err.value.field == "seats"


def test_FS_1_food_comes_from_two_set_boosters():
    _, events = fresh()
    packs = next(e for e in events if isinstance(e, BoostersOpened)).packs
    assert len(packs) == 2
    for pack in packs:
        assert sum(c["slot"] != "art" for c in pack) == 12 and sum(c["slot"] == "art" for c in pack) == 1


# --- FS-2 the deal ----------------------------------------------------------------------------------------------

def test_FS_2_magic_cards_and_one_art_card_dealt_face_up_into_5x5():
    state, events = fresh()
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert sorted(dealt.cells) == sorted(CELLS)
    assert list(dealt.cells.values()).count("squirrel") == 1
    food = [c for c in dealt.cells.values() if c != "squirrel"]
    assert sorted(food) == list(range(1, 25)) and dealt.set_aside == []
    packs = next(e for e in events if isinstance(e, BoostersOpened)).packs
    art = next(c for c in packs[dealt.squirrel_pack] if c["slot"] == "art")
    assert state.squirrel_art == art
    view = game.view(state, 0)
    squirrel = next(c for c, v in dealt.cells.items() if v == "squirrel")
    assert len(view["grid"]) == 25 and view["squirrel"] == squirrel


def test_FS_2_cells_a_to_e_left_to_right_row_1_at_the_bottom_up_toward_row_5():
    state = start("""
        . . G . .
        . . G . .
        . . S . .
        . . G . .
        R . . . .""")
    assert state.cards[cell(state, "a1")].colors == "R"
    after, events = play(state, "G up")
    assert events[0].cells == ["c4", "c5"] and events[0].to == "c5" and cell(after, "c5") == "squirrel"


# --- FS-3 first player ------------------------------------------------------------------------------------------

def test_FS_3_first_player_random_and_recorded():
    firsts = set()
    for seed in range(40):
        _, events = fresh(3, seed)
        chosen = [e for e in events if isinstance(e, FirstPlayerChosen)]
        assert len(chosen) == 1
        firsts.add(chosen[0].seat)
    assert firsts == {0, 1, 2}


def test_FS_3_play_goes_round_in_seat_order():
    state = start("""
        . . . . .
        . . . . .
        S R G B U
        . . . . .
        . . . . .""", seats=3, first=1, turn=2)
    order = []
    for text in ("R right", "G right", "B right", "U right"):
        order.append(state.turn)
        state, events = play(state, text)
    assert order == [2, 0, 1, 2]
    assert isinstance(events[-1], GameEnded)


# --- FS-4 a turn ------------------------------------------------------------------------------------------------

def test_FS_4_collects_the_matching_run_and_the_squirrel_takes_the_last_cell():
    state = start("""
        . . . . .
        . . . . .
        S G G R G
        . . . . .
        . . . . B""")
    after, events = play(state, "G right", seat=0)
    moved = events[0]
    assert (moved.frm, moved.to, moved.cells) == ("a3", "c3", ["b3", "c3"])
    assert cell(after, "a3") is None and cell(after, "b3") is None and cell(after, "c3") == "squirrel"
    assert after.piles[0] == tuple(moved.collected) and len(moved.collected) == 2
    assert state.cards[cell(after, "d3")].colors == "R"


def test_FS_4_matches_across_gaps():
    state = start("""
        . . . . .
        . . . . .
        S . G . G
        . . . . .
        . . . . B""")
    _, events = play(state, "G right")
    assert events[0].cells == ["c3", "e3"]


def test_FS_4_a_non_matching_card_after_a_gap_stops():
    state = start("""
        . . . . .
        . . . . .
        S . G . R
        . . . . .
        . . . . B""")
    after, events = play(state, "G right")
    assert events[0].cells == ["c3"] and cell(after, "c3") == "squirrel" and cell(after, "e3") is not None


def test_FS_4_the_edge_stops_the_scan():
    state = start("""
        . . . . .
        . . . . .
        G G S . .
        . . . . .
        . . . . B""")
    after, events = play(state, "G left")
    assert events[0].cells == ["b3", "a3"] and cell(after, "a3") == "squirrel"


# --- FS-5 matching ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("color", ["W", "U"])
def test_FS_5_multicoloured_card_matches_either_colour(color):
    state = start("""
        . . . . .
        . . . . .
        S WU . . .
        . . . . .
        . . . . B""")
    _, events = play(state, f"{color} right")
    assert events[0].cells == ["b3"]
    assert "G right" not in game.legal(state, 0)


def test_FS_5_C_matches_colourless_cards_and_lands():
    state = start("""
        . . . . .
        . . . . .
        S C L G .
        . . . . .
        . . . . B""")
    _, events = play(state, "C right")
    assert events[0].cells == ["b3", "c3"]
    land = start("""
        . . . . .
        . . . . .
        S L . . .
        . . . . .
        . . . . B""")
    assert game.legal(land, 0) == ["C right"]


# --- FS-6 at least one card -------------------------------------------------------------------------------------

def test_FS_6_a_turn_must_collect_at_least_one_card():
    state = start("""
        . . . . .
        . . . . .
        S R G . .
        . . . . .
        . . . . B""")
    with pytest.raises(IllegalMove, match="collects nothing"):
        play(state, "G right")
    with pytest.raises(IllegalMove, match="collects nothing"):
        play(state, "R up")
    assert game.legal(state, 0) == ["R right"]


# --- FS-7 dig ---------------------------------------------------------------------------------------------------

DIG_ROWS = """
    . . . . .
    . . . . B
    S R . . .
    . . . . .
    . . . . G"""


def test_FS_7_dig_before_the_move():
    state = start(DIG_ROWS, **OPENED)
    assert "G up" not in game.legal(state, 1)
    after, events = play(state, "dig e1 a4; G up")
    assert [type(e).__name__ for e in events] == ["Dug", "Moved", "TurnPassed"]
    assert events[0].frm == "e1" and events[0].to == "a4" and after.dug == (False, True)
    assert cell(after, "a4") == "squirrel"


def test_FS_7_dig_after_the_move():
    state = start(DIG_ROWS, **OPENED)
    after, events = play(state, "R right; dig e1 a3")
    assert [type(e).__name__ for e in events] == ["Moved", "Dug", "TurnPassed"]
    assert cell(after, "a3") == events[1].card and cell(after, "b3") == "squirrel"


def test_FS_7_dig_may_use_a_cell_the_move_just_emptied():
    state = start(DIG_ROWS, **OPENED)
    assert "R right; dig e1 a3" in game.legal(state, 1)
    assert "dig e1 a3; R right" not in game.legal(state, 1)


def test_FS_7_the_first_player_may_never_dig():
    state = start(DIG_ROWS, first=1, turn=1, pile_cards=[["W"], ["W"]])
    with pytest.raises(IllegalMove, match="first player may never dig"):
        play(state, "dig e1 a4; G up")
    assert not any("dig" in move for move in game.legal(state, 1))


def test_FS_7_once_per_game():
    state = start(DIG_ROWS, dug=[False, True], **OPENED)
    with pytest.raises(IllegalMove, match="already used your dig"):
        play(state, "R right; dig e1 a3")
    assert game.legal(state, 1) == ["R right"]


def test_FS_7_a_position_with_another_seat_to_move_means_the_first_player_has_played():
    """Issue #31: ``turn`` 1, ``first`` 0 and the piles left empty (their start value) is taken at its word: seat 0
    has played, so seat 1 may dig (it was accepted, then refused the dig)."""
    state = start(DIG_ROWS, first=0, turn=1)
    assert state.opened and "dig e1 a4; G up" in game.legal(state, 1)
    after, events = play(state, "dig e1 a4; G up")
    assert [type(e).__name__ for e in events][:2] == ["Dug", "Moved"] and after.dug == (False, True)
    three = start(DIG_ROWS, seats=3, first=1, turn=2)
    assert "dig e1 a4; G up" in game.legal(three, 2)


def test_FS_7_not_before_the_first_players_first_turn_is_over():
    state, _ = fresh(2, seed=3)
    assert not any("dig" in move for move in game.legal(state, state.turn))
    state, _ = play(state, game.legal(state, state.turn)[0])
    assert any(move.startswith("dig") for move in game.legal(state, state.turn))
    assert any("; dig" in move for move in game.legal(state, state.turn))


@pytest.mark.parametrize("text, reason", [
    ("dig a3 a4; R right", "holds the squirrel"),
    ("dig c3 a4; R right", "c3 is empty"),
    ("dig e1 b3; R right", "b3 is not empty"),
    ("dig e1 a3; R right", "a3 is not empty"),
    ("R right; dig b3 a1", "holds the squirrel"),
])
def test_FS_7_dig_moves_a_food_card_to_an_empty_cell(text, reason):
    with pytest.raises(IllegalMove, match=reason):
        play(start(DIG_ROWS, **OPENED), text)


def test_FS_7_a_dig_before_that_empties_the_line_leaves_no_move():
    state = start(DIG_ROWS, **OPENED)
    with pytest.raises(IllegalMove, match="collects nothing"):
        play(state, "dig b3 c1; R right")


def test_FS_7_a_refused_turn_changes_nothing():
    state = start(DIG_ROWS, **OPENED)
    before = game.dump_position(state)
    with pytest.raises(IllegalMove):
        play(state, "dig e1 a4; R up")
    assert game.dump_position(state) == before


# --- FS-8 the end -----------------------------------------------------------------------------------------------

def test_FS_8_ends_when_row_and_column_are_empty_though_cards_remain_elsewhere():
    state = start("""
        . . . . .
        . . . . .
        S G . . .
        . . . . .
        . . . . B""")
    after, events = play(state, "G right")
    assert isinstance(events[-1], GameEnded) and game.status(after) == "finished"
    assert cell(after, "e1") is not None and game.to_act(after) == [] and game.legal(after, 1) == []
    with pytest.raises(IllegalMove, match="game is over"):
        play(after, "B down", seat=1)


def test_FS_8_goes_on_while_the_line_holds_food():
    state = start("""
        . . . . .
        . . . . .
        S G . . B
        . . . . .
        . . . . .""")
    after, events = play(state, "G right")
    assert events[-1] == TurnPassed(seat=1) and game.status(after) == "playing"


END_ROWS = """
    . . . . .
    . . . . .
    S G . . .
    . . . . .
    . . . . B"""
OPEN_ROWS = """
    . . . . .
    . . . . .
    S G . . B
    . . . . .
    . . . . ."""


@pytest.mark.parametrize("rows, text, ends", [
    (END_ROWS, "G right", True),
    (END_ROWS, "G right; dig e1 b1", False),   # a dig after the move re-opens
    (END_ROWS, "dig e1 e3; G right", False),   # a dig before the move re-opens
    (OPEN_ROWS, "G right", False),
    (OPEN_ROWS, "G right; dig e3 e1", True),   # a dig after the move closes
    (OPEN_ROWS, "dig e3 e1; G right", True),   # a dig before the move closes
])
def test_FS_8_dig_before_or_after_the_move_reopening_or_closing_the_end(rows, text, ends):
    after, events = play(start(rows, **OPENED), text)
    assert isinstance(events[-1], GameEnded) is ends
    assert game.status(after) == ("finished" if ends else "playing")


def test_FS_8_a_position_with_an_empty_line_is_already_over():
    state = start("""
        . . . . .
        . . . . .
        S . . . .
        . . . . .
        . . . . B""", pile_cards=[["G"], ["R"]])
    assert game.status(state) == "finished" and game.result(state)["winners"] == [0, 1]


# --- FS-9 / FS-10 through a game (the tables are in test_squirrels_scoring.py) -----------------------------------

def test_FS_9_final_scores_count_cards_and_bonuses():
    state = start("""
        . . . . .
        . . . . .
        S Gr* Gs . .
        . . . . .
        . . . . B""", pile_cards=[[], ["W", "U"]])
    after, events = play(state, "G right")
    scores = events[-1].scores
    assert scores[0]["bonuses"] == ["foils", "rares", "squirrels"] and scores[0]["points"] == 5
    assert scores[1]["bonuses"] == ["colors"] and scores[1]["points"] == 3
    assert game.result(after) == {"winners": [0], "reason": "Seat 0 wins with 5 points.", "termination": "rules"}


@pytest.mark.parametrize("needs_one, points", [(False, 7), (True, 4)])
def test_FS_9_option_bonus_needs_one(needs_one, points):
    state = start("""
        . . . . .
        . . . . .
        S G G G .
        . . . . .
        . . . . B""", options={"bonus_needs_one": needs_one}, pile_cards=[[], ["W"]])
    _, events = play(state, "G right")
    assert events[-1].scores[0]["points"] == points  # 3 cards + colours (1-1), + foils, rares, squirrels (0-0)


def test_FS_10_a_tie_shares_the_win():
    state = start("""
        . . . . .
        . . . . .
        S G . . .
        . . . . .
        . . . . B""", pile_cards=[[], ["G"]])
    after, _ = play(state, "G right")
    assert game.result(after)["winners"] == [0, 1]
    assert "share the win" in game.result(after)["reason"]


# --- options -----------------------------------------------------------------------------------------------------

def test_option_max_plies_ends_the_game_in_a_draw():
    state, _ = fresh(3, seed=5, max_plies=2)
    for _ in range(2):
        state, events = play(state, game.legal(state, state.turn)[0])
    assert isinstance(events[-1], GameEnded)
    assert game.result(state) == {"winners": [], "reason": "Draw: the limit of 2 turns was reached",
                                  "termination": "max_plies"}
    assert len(events[-1].scores) == 3  # the points so far, still shown
    assert game.status(fresh(3, seed=5)[0]) == "playing"


def test_option_packs_draft_sets_the_surplus_aside():
    state, events = fresh(2, seed=4, packs="draft")
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert len(dealt.set_aside) == 6 and len(state.cards) == 30
    assert sorted([c for c in dealt.cells.values() if c != "squirrel"] + dealt.set_aside) == list(range(1, 31))


def test_option_card_pool_uses_the_players_list():
    pool = "number,name,rarity,colors,land,basic,squirrel\n1,Acorn,common,G,0,0,1\n2,Nut,rare,,0,0,0\n"
    state, _ = fresh(2, seed=2, card_pool=pool)
    assert {c.name for c in state.cards.values()} <= {"Acorn", "Nut"} and len(state.cards) == 24
    assert state.options["card_pool"] == pool


@pytest.mark.parametrize("options, field", [
    ({"colour": 1}, "options.colour"),
    ({"packs": "jumpstart"}, "options.packs"),
    ({"packs": 2}, "options.packs"),
    ({"card_pool": 3}, "options.card_pool"),
    ({"card_pool": "number,name\n1,x\n"}, "options.card_pool"),
    ({"card_pool": "number,name,rarity,colors,land,basic,squirrel\n1,X,special,G,0,0,0\n"}, "options.card_pool"),
    ({"card_pool": "number,name,rarity,colors,land,basic,squirrel\n"}, "options.card_pool"),
    ({"bonus_needs_one": "yes"}, "options.bonus_needs_one"),
    ({"max_plies": 0}, "options.max_plies"),
])
def test_bad_options_are_refused_naming_the_field(options, field):
    with pytest.raises(BadSetup) as err:
        game.initial(Setup(2, options), random.Random(0))
    assert err.value.field == field


# --- notation ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, turn", [
    ("G left", Turn("G", "left")),
    ("C up", Turn("C", "up")),
    ("dig b2 c4; G left", Turn("G", "left", ("b2", "c4"), True)),
    ("G left; dig b2 c4", Turn("G", "left", ("b2", "c4"), False)),
])
def test_notation_round_trip(text, turn):
    assert game.parse(text) == turn and game.format(turn) == text


def test_notation_is_lenient_on_case_and_spaces():
    assert game.format(game.parse("  g  LEFT ;DIG B2   c4 ")) == "G left; dig b2 c4"


@pytest.mark.parametrize("text", ["", "G", "X left", "G sideways", "G left; R up", "dig b2 c4",
                                  "dig b2 c4; dig c4 b2", "dig b2 f4; G left", "G left; dig b2", "a; b; c", 7])
def test_notation_refuses_what_is_not_a_turn(text):
    with pytest.raises(BadNotation):
        game.parse(text)


@pytest.mark.parametrize("text, message", [
    ("dig b2; G left", "'dig b2': a dig names two cells"),
    ("dig b2 c4 d5; G left", "'dig b2 c4 d5': a dig names two cells"),
    ("G left;", "nothing after ';'"),
    ("; G left", "nothing before ';'"),
    ("G left; R up", "two moves in one turn"),
    ("dig a1 a1; G left", "a dug card moves to another cell"),
])
def test_FS_7_notation_messages_say_what_is_wrong(text, message):
    with pytest.raises(BadNotation) as refusal:
        game.parse(text)
    assert message in str(refusal.value)


def test_not_your_turn():
    with pytest.raises(IllegalMove, match="not your turn"):
        play(start(DIG_ROWS, **OPENED), "R right", seat=0)


# --- positions ---------------------------------------------------------------------------------------------------

def test_position_round_trip_of_a_dealt_game():
    state, _ = fresh(3, seed=9, packs="draft")
    state, _ = play(state, game.legal(state, state.turn)[0])
    dumped = game.dump_position(state)
    loaded = None
    for event in game.initial(Setup(3, {"packs": "draft"}, dumped), random.Random(1)):
        loaded = game.evolve(loaded, event)
    assert game.dump_position(loaded) == dumped
    assert game.legal(loaded, loaded.turn) == game.legal(state, state.turn)
    assert loaded.opened == state.opened


def test_position_omitted_fields_take_start_values():
    state = start("""
        . . . . .
        . . . . .
        S G . . B
        . . . . .
        . . . . .""", seats=3)
    assert (state.first, state.turn, state.dug, state.piles) == (0, 0, (False,) * 3, ((),) * 3)


def test_position_without_grid_deals_afresh():
    events = game.initial(Setup(2, {}, {"first": 1, "dug": [True, False]}), random.Random(0))
    state = None
    for event in events:
        state = game.evolve(state, event)
    assert state.first == 1 and state.turn == 1 and state.dug == (True, False) and len(state.cards) == 24


BASE = position("""
    . . . . .
    . . . . .
    S G . . B
    . . . . .
    . . . . .""")


@pytest.mark.parametrize("change, field", [
    ({"grid": {**BASE["grid"], "b3": "squirrel"}}, "position.grid"),
    ({"grid": {**BASE["grid"], "f3": 1}}, "position.grid.f3"),
    ({"grid": {**BASE["grid"], "c3": 9}}, "position.grid.c3"),
    ({"grid": {**BASE["grid"], "c3": 2}}, "position.grid.e3"),
    ({"grid": {**BASE["grid"], "c3": "nut"}}, "position.grid.c3"),
    ({"piles": [[1], []]}, "position.piles.0"),
    ({"piles": [[]]}, "position.piles"),
    ({"cards": {**BASE["cards"], "3": card("R")}}, "position.cards.3"),
    ({"cards": {**BASE["cards"], "2": {**card("L"), "colors": "G"}}}, "position.cards.2.colors"),
    ({"cards": {**BASE["cards"], "2": {**card("G"), "rarity": "bonus"}}}, "position.cards.2.rarity"),
    ({"cards": {**BASE["cards"], "2": {**card("G"), "colors": "GX"}}}, "position.cards.2.colors"),
    ({"cards": {**BASE["cards"], "2": {**card("G"), "foil": 1}}}, "position.cards.2.foil"),
    ({"cards": {**BASE["cards"], "2": {**card("G"), "art": 1}}}, "position.cards.2.art"),
    ({"first": 2}, "position.first"),
    ({"turn": -1}, "position.turn"),
    ({"dug": [True, False]}, "position.dug.0"),
    ({"dug": [False]}, "position.dug"),
    ({"score": 3}, "position.score"),
])
def test_inconsistent_positions_are_refused_naming_the_problem(change, field):
    with pytest.raises(BadSetup) as err:
        game.initial(Setup(2, {}, {**BASE, **change}), random.Random(0))
    assert err.value.field == field


def test_FS_2_a_position_with_more_than_24_food_cards_is_refused():
    """FS-1/FS-2: two packs give 24 food cards; a position with 34 on the grid and in the piles is refused."""
    cards = {str(cid): card("G") for cid in range(1, 35)}
    grid = {cell: cid for cid, cell in enumerate([c for c in CELLS if c != "c3"], start=1)} | {"c3": "squirrel"}
    piles = [list(range(25, 35)), []]
    with pytest.raises(BadSetup) as err:
        game.initial(Setup(2, {}, {"grid": grid, "cards": cards, "piles": piles}), random.Random(0))
    assert err.value.field == "position.grid" and "34 food cards" in str(err.value) and "24" in str(err.value)
    fine = {"grid": grid, "cards": {k: v for k, v in cards.items() if int(k) <= 24}, "piles": [[], []]}
    assert game.initial(Setup(2, {}, fine), random.Random(0))


def test_position_cards_without_grid_refused():
    with pytest.raises(BadSetup) as err:
        game.initial(Setup(2, {}, {"cards": {}}), random.Random(0))
    assert err.value.field == "position.grid"


# --- views, events -----------------------------------------------------------------------------------------------

def test_view_is_the_same_for_everyone_and_rebuilds_the_game():
    state, _ = fresh(4, seed=11)
    views = [game.view(state, v) for v in (0, 1, 2, 3, None, REVEAL_ALL)]
    assert all(v == views[0] for v in views)
    view = views[0]
    assert msgspec.json.decode(msgspec.json.encode(view)) == view
    keys = {"grid", "cards", "piles", "dug", "first", "turn", "set_aside"}
    rebuilt = None
    for event in game.initial(Setup(4, {}, {k: view[k] for k in keys}), random.Random(0)):
        rebuilt = game.evolve(rebuilt, event)
    assert game.legal(rebuilt, rebuilt.turn) == game.legal(state, state.turn)
    first_card = view["cards"]["1"]
    assert set(first_card) == {"number", "name", "rarity", "colors", "foil", "squirrel", "land"}
    assert view["scores"][0] == {"cards": 0, "foils": 0, "rares": 0, "colors": 0, "squirrels": 0,
                                 "bonuses": ["foils", "rares", "colors", "squirrels"], "points": 4}


def test_events_round_trip_through_json_and_describe():
    state, events = fresh(2, seed=12)
    while game.status(state) == "playing":
        new = game.decide(state, state.turn, game.parse(game.legal(state, state.turn)[-1]), random.Random(0))
        for event in new:
            state = game.evolve(state, event)
        events += new
    decoder = msgspec.json.Decoder(Union[EVENTS])  # noqa: UP007 - a union built from the tuple
    replayed = None
    for event in events:
        again = decoder.decode(msgspec.json.encode(event))
        assert again == event and game.redact(event, 0) is event
        assert isinstance(game.describe(event), str) and game.describe(event)
        replayed = game.evolve(replayed, again)
    assert replayed == state
    assert "SQUIRREL" in game.render(state) and "Seat 1" in game.render(state)


# Random play (moved from test_squirrels_properties.py; the generic properties are in test_conformance.py) -------

@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]), packs=st.sampled_from(["set", "draft"]))
def test_random_play_always_has_winners_and_every_view_rebuilds_the_position(seed, seats, packs):
    """FS-10: a game always has a winner (ties share it); the view holds the position JSON, key for key."""
    rng = random.Random(seed)
    state = None
    for event in game.initial(Setup(seats, {"packs": packs}), rng):
        state = game.evolve(state, event)
    while game.status(state) == "playing":
        view = game.view(state, None)
        position = game.dump_position(state)
        assert {k: view[k] for k in position} == position
        seat = game.to_act(state)[0]
        for event in game.decide(state, seat, game.parse(rng.choice(game.legal(state, seat))), rng):
            state = game.evolve(state, event)
    assert game.result(state)["winners"]


def test_FS_4_FS_7_evolve_checks_the_facts_of_an_event():
    """A dig of a card that is not on its cell, a move collecting other cards than the grid holds, a seat that
    does not exist: ``BadEvent``."""
    from msgspec.structs import replace

    from domain.base import BadEvent
    from domain.squirrels.events import Dug, Moved

    rng = random.Random(4)
    state = None
    for event in game.initial(Setup(2), rng):
        state = game.evolve(state, event)
    seat = game.to_act(state)[0]
    moved = game.decide(state, seat, game.parse(game.legal(state, seat)[0]), rng)[0]
    assert isinstance(moved, Moved)
    with pytest.raises(BadEvent, match="does not collect"):
        game.evolve(state, replace(moved, collected=[*moved.collected[:-1], 999]))
    with pytest.raises(BadEvent, match="no seat"):
        game.evolve(state, replace(moved, seat=7))
    food = next(cell for cell, content in zip(CELLS, state.grid, strict=True) if isinstance(content, int))
    with pytest.raises(BadEvent, match="is not on"):
        game.evolve(state, Dug(seat=seat, card=999, frm=food, to=food))
