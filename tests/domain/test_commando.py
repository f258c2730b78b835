"""Mission commando: one or more scenarios per rule ID of docs/rules.md §4 (MC-1…MC-13, MC-P1…MC-P12)."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import commando
from domain.base import REVEAL_ALL, BadNotation, BadSetup, IllegalMove, Setup, commands
from domain.commando.board import DEFAULT_BOARD
from domain.commando.constants import CAUTION_DECK
from domain.commando.state import State
from tests.domain.test_commando_helpers import Dice, Game, agent, find, fold, types

REST = ["trap", "trap", "ambush", "ambush", "ambush", "obstacle", "obstacle", "obstacle", "lucky_find"]


def deck(top: str) -> list[str]:
    """A full caution deck with ``top`` first."""
    cards = ["obstacle", *REST]
    cards.remove(top)
    return [top, *cards]


# MC-1 ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 8])
def test_MC_1_two_to_eight_agents_start_on_the_start_square(seats):
    game = Game(seats=seats, position=False)
    assert [a.square for a in game.state.agents] == [0] * seats
    assert game.to_act == [game.state.turn]


@pytest.mark.parametrize("seats", [0, 1, 9])
def test_MC_1_other_player_counts_are_refused(seats):
    """MC-1: the rules do not limit the players (2–5 advised); the API's limit of 8 does."""
    with pytest.raises(BadSetup) as error:
        commando.initial(Setup(seats=seats), random.Random(0))
    assert error.value.field == "seats"


def test_MC_1_first_agent_into_the_enemy_base_wins():
    game = Game(agent(56), agent(0))
    game.play("roll", 3)
    assert types(game.last)[-1] == "game_ended"
    assert commando.status(game.state) == "finished"
    assert commando.result(game.state) == {"winners": [0], "termination": "rules",
                                           "reason": "Seat 0's agent reached the enemy base. Seat 0 wins."}
    assert game.to_act == [] and commando.legal(game.state, 1) == []
    with pytest.raises(IllegalMove, match="over"):
        commando.decide(game.state, 1, commando.parse("roll"), Dice(1))


# MC-2 ------------------------------------------------------------------------------------------------------

def test_MC_2_roll_then_move_forward_that_many_squares():
    game = Game(agent(30), agent(0))
    events = game.play("roll", 4)
    assert types(events)[:2] == ["dice_rolled", "moved"]
    assert game.square(0) == 34
    assert game.state.turn == 1 and game.phase == "turn"


def test_MC_2_no_turning_back_only_forward_commands_exist():
    game = Game(agent(30), agent(0))
    assert commando.legal(game.state, 0) == ["roll", "map 1", "map 2", "map 3", "map 4", "map 5"]
    with pytest.raises(BadNotation):
        commando.parse("back 2")


# MC-3 ------------------------------------------------------------------------------------------------------

def test_MC_3_zero_on_a_caution_square_draws_again():
    game = Game(agent(3), agent(0), deck=deck("trap"))
    game.play("roll", 0)
    assert types(game.last)[:3] == ["dice_rolled", "card_drawn", "card_resolved"]
    assert game.agent(0).money == 2 and game.square(0) == 3


def test_MC_3_zero_on_a_fight_square_offers_a_challenge():
    game = Game(agent(13), agent(20))
    game.play("roll", 0)
    assert game.phase == "challenge" and commando.legal(game.state, 0) == ["challenge 1", "no challenge"]


def test_MC_3_zero_on_a_purchase_square_opens_the_shop():
    game = Game(agent(8), agent(0))
    game.play("roll", 0)
    assert game.phase == "shop"


def test_MC_3_zero_on_a_teleport_square_teleports():
    game = Game(agent(22), agent(0))
    game.play("roll", 0)
    assert game.square(0) == 37


def test_MC_3_zero_on_a_plain_or_numbered_square_does_nothing():
    game = Game(agent(10), agent(0))
    game.play("roll", 0)
    assert game.square(0) == 10 and game.agent(0).money == 3
    assert types(game.last) == ["dice_rolled", "turn_passed"]


# MC-4 ------------------------------------------------------------------------------------------------------

def test_MC_4_landing_on_a_special_square_applies_it():
    game = Game(agent(1), agent(0), deck=deck("lucky_find"))
    game.play("roll", 2)
    assert "card_drawn" in types(game.last) and game.agent(0).money == 4


def test_MC_4_passing_over_special_squares_does_not_apply_them():
    game = Game(agent(1), agent(0))
    game.play("roll", 3)  # over the caution square 3
    assert game.square(0) == 4 and "card_drawn" not in types(game.last)


def test_MC_4_a_teleport_square_counts_like_any_square_when_passing():
    game = Game(agent(20), agent(0))
    game.play("roll", 4)  # 21, 22 (teleport), 23, 24
    assert game.square(0) == 24


# MC-5 ------------------------------------------------------------------------------------------------------

def test_MC_5_crossing_the_red_wall_costs_one():
    game = Game(agent(43, money=2), agent(0))
    game.play("roll", 3)
    assert game.phase == "wall" and game.square(0) == 44 and game.state.steps_left == 2
    assert commando.legal(game.state, 0) == ["pay", "stay"]
    game.play("pay")
    assert types(game.last)[:2] == ["wall_crossed", "moved"]
    assert game.square(0) == 46 and game.agent(0).money == 2  # -1 fee, +1 for square 45


def test_MC_5_the_wall_is_crossed_only_once_per_move():
    game = Game(agent(44, money=1), agent(0))
    game.play("roll", 5)
    assert not [e for e in game.last if type(e).__name__ == "Moved"]  # still before the wall
    game.play("pay")
    assert game.square(0) == 49 and game.agent(0).money == 1


def test_MC_5_waiting_at_the_wall_is_not_landing_but_stopping_there_is():
    game = Game(agent(42, money=2), agent(44))
    game.play("roll", 3)
    assert game.phase == "wall" and "fight_started" not in types(game.last)
    game.play("stay", 1, 4)
    assert types(game.last)[:2] == ["wall_stopped", "fight_started"]
    assert game.square(1) == 44 and game.square(0) == 68


# MC-6 ------------------------------------------------------------------------------------------------------

def test_MC_6_passing_over_a_numbered_square_earns_a_banknote():
    game = Game(agent(3), agent(0))
    game.play("roll", 3)
    assert game.square(0) == 6 and game.agent(0).money == 4


def test_MC_6_landing_on_a_numbered_square_earns_a_banknote():
    game = Game(agent(8), agent(0))
    game.play("roll", 2)
    assert game.square(0) == 10 and game.agent(0).money == 4


def test_MC_6_starting_on_a_numbered_square_earns_nothing():
    game = Game(agent(5), agent(0))
    game.play("roll", 2)
    assert game.agent(0).money == 3


# MC-7 ------------------------------------------------------------------------------------------------------

def test_MC_7_buy_one_weapon_and_one_accessory_at_the_end_of_the_turn():
    game = Game(agent(6, money=5), agent(0))
    game.play("roll", 2)
    assert game.phase == "shop" and commando.legal(game.state, 0) == ["buy weapon", "buy accessory", "done"]
    game.play("buy weapon")
    assert game.agent(0).weapons == 1 and game.agent(0).money == 3
    assert commando.legal(game.state, 0) == ["buy accessory", "done"]
    assert "already bought a weapon" in game.refuse("buy weapon")
    game.play("buy accessory")
    assert game.agent(0).accessories == 1 and game.agent(0).money == 2
    assert game.state.turn == 1, "nothing left to buy: the turn passes"


def test_MC_7_buying_is_optional():
    game = Game(agent(6, money=5), agent(0))
    game.play("roll", 2)
    game.play("done")
    assert types(game.last) == ["shop_closed", "turn_passed"] and game.agent(0).money == 5


def test_MC_7_a_map_cannot_be_bought():
    with pytest.raises(BadNotation):
        commando.parse("buy map")


def test_MC_7_no_shop_off_a_purchase_square_or_without_money():
    game = Game(agent(6, money=0), agent(7, money=5), agent(0))
    game.play("roll", 2)
    assert game.state.turn == 1 and "shop_opened" not in types(game.last)
    game.play("roll", 2)
    assert game.square(1) == 9 and game.state.turn == 2


# MC-8 ------------------------------------------------------------------------------------------------------

def test_MC_8_collision_attacker_wins_and_the_defender_goes_to_the_green_path():
    game = Game(agent(10), agent(12))
    game.play("roll", 2, 5, 3)
    assert types(game.last)[:7] == ["dice_rolled", "moved", "fight_started", "weapons_revealed", "dice_rolled",
                                    "dice_rolled", "fight_won"]
    assert game.square(0) == 12 and game.square(1) == 60


def test_MC_8_collision_defender_wins_and_keeps_the_square():
    game = Game(agent(38), agent(40))
    game.play("roll", 2, 1, 4)
    assert game.square(1) == 40 and game.square(0) == 68  # district 2's green path


def test_MC_8_challenge_winner_swaps_places():
    game = Game(agent(11), agent(30))
    game.play("roll", 2)
    assert game.phase == "challenge"
    game.play("challenge 1", 5, 1)
    assert game.phase == "choice" and game.to_act == [0]
    assert commando.legal(game.state, 0) == ["swap", "stay"]
    game.play("swap")
    assert game.square(0) == 30 and game.square(1) == 13 and game.state.turn == 1


def test_MC_8_challenge_winner_stays_and_the_loser_pays_two():
    game = Game(agent(11), agent(30, money=3))
    game.play("roll", 2)
    game.play("challenge 1", 5, 1)
    game.play("stay")
    assert game.phase == "fine" and game.to_act == [1]
    assert commando.legal(game.state, 1) == ["pay", "retreat"]
    game.play("pay", seat=1)
    assert game.agent(1).money == 1 and game.square(1) == 30 and game.state.turn == 1


def test_MC_8_challenge_loser_may_go_to_the_green_path_of_their_district():
    game = Game(agent(11), agent(30, money=3))
    game.play("roll", 2)
    game.play("challenge 1", 5, 1)
    game.play("stay")
    game.play("retreat", seat=1)
    assert game.square(1) == 68 and game.agent(1).money == 3


def test_MC_8_the_defender_can_win_a_challenge_and_swap():
    game = Game(agent(11), agent(30))
    game.play("roll", 2)
    game.play("challenge 1", 1, 5)
    assert game.to_act == [1]
    assert game.refuse("roll", seat=0) == \
        "it is not your turn to act: the game waits for Seat 1 to swap places with the fight's loser, or stay"
    game.play("swap", seat=1)
    assert game.square(1) == 13 and game.square(0) == 30


# MC-9 ------------------------------------------------------------------------------------------------------

def test_MC_9_both_sides_commit_in_secret_then_reveal():
    game = Game(agent(11, weapons=2), agent(30, weapons=3))
    game.play("roll", 2)
    game.play("challenge 1")
    assert game.phase == "commit" and game.to_act == [0, 1]
    secret = game.play("commit 2", seat=1)
    assert types(secret) == ["weapons_committed"] and secret[0].count == 2
    assert commando.redact(secret[0], 0).count is None and commando.redact(secret[0], None).count is None
    assert commando.redact(secret[0], 1).count == 2 and commando.redact(secret[0], REVEAL_ALL).count == 2
    assert commando.view(game.state, 0)["fight"]["commits"] == {"attacker": None, "defender": None}
    assert commando.view(game.state, 1)["fight"]["commits"] == {"attacker": None, "defender": 2}
    assert commando.view(game.state, 0)["agents"][1]["weapons"] == 3, "weapon counts move only at the reveal"
    assert game.to_act == [0]
    assert game.refuse("commit 1", seat=1) == \
        "you have already committed your weapons: the fight waits for the other side"
    game.play("commit 1", 3, 3, seat=0)
    revealed = game.last[1]
    assert (revealed.attacker, revealed.defender) == (1, 2)
    assert game.state.fight.winner == 1, "4 against 5"
    assert game.agent(0).weapons == 1 and game.agent(1).weapons == 1, "committed weapons are discarded"


def test_MC_9_ties_go_to_the_defender():
    game = Game(agent(10), agent(12))
    game.play("roll", 2, 3, 3)
    assert game.square(1) == 12 and game.square(0) == 60


def test_MC_9_weapons_add_one_each_to_the_die():
    game = Game(agent(10, weapons=2), agent(12))
    game.play("roll", 2)
    assert game.to_act == [0], "a side without weapons is not asked"
    game.play("commit 2", 2, 3)
    won = find(game.last, "fight_won")
    assert (won.attacker_total, won.defender_total) == (4, 3)
    assert game.square(0) == 12 and game.square(1) == 60


def test_MC_9_a_fight_without_weapons_needs_no_commitment():
    game = Game(agent(10), agent(12))
    game.play("roll", 2, 3, 3)
    assert "weapons_committed" not in types(game.last)


def test_MC_9_cannot_commit_more_weapons_than_held():
    game = Game(agent(10, weapons=2), agent(12))
    game.play("roll", 2)
    assert game.refuse("commit 3") == "you hold only 2 weapons"


# MC-10 -----------------------------------------------------------------------------------------------------

def test_MC_10_agents_on_green_paths_cannot_be_challenged():
    game = Game(agent(11), agent(30), agent(68))
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["challenge 1", "no challenge"]
    assert "green path" in game.refuse("challenge 2")


def test_MC_10_no_fight_when_every_other_agent_is_on_a_green_path():
    game = Game(agent(11), agent(64), agent(70))
    game.play("roll", 2)
    assert game.phase == "turn" and game.state.turn == 1 and "challenge_offered" not in types(game.last)


def test_MC_10_agents_share_green_squares_without_a_fight():
    game = Game(agent(60), agent(62))
    game.play("roll", 2)
    assert game.square(0) == 62 and "fight_started" not in types(game.last)


def test_MC_10_agents_share_the_start_square():
    game = Game(agent(0), agent(1), agent(0))
    assert game.square(0) == game.square(2) == 0


# MC-11 -----------------------------------------------------------------------------------------------------

def test_MC_11_an_accessory_cancels_a_caution_card():
    game = Game(agent(1, accessories=1), agent(0), deck=deck("trap"))
    game.play("roll", 2)
    assert game.phase == "caution" and commando.legal(game.state, 0) == ["use accessory", "accept"]
    game.play("use accessory")
    assert game.agent(0).accessories == 0 and game.agent(0).money == 3
    assert game.state.discard[-1] == "trap"


def test_MC_11_accepting_keeps_the_accessory():
    game = Game(agent(1, accessories=1), agent(0), deck=deck("trap"))
    game.play("roll", 2)
    game.play("accept")
    assert game.agent(0).accessories == 1 and game.agent(0).money == 2


# MC-12 -----------------------------------------------------------------------------------------------------

def test_MC_12_a_map_replaces_the_roll_once():
    game = Game(agent(30), agent(0))
    game.play("map 4")
    assert types(game.last)[:2] == ["map_used", "moved"] and game.square(0) == 34
    assert game.agent(0).maps == 0
    game.play("roll", 1)
    assert commando.legal(game.state, 0) == ["roll"]
    assert "no map left" in game.refuse("map 2")


def test_MC_12_a_map_is_used_only_at_the_start_of_a_turn():
    game = Game(agent(6, money=5), agent(0))
    game.play("roll", 2)
    assert "not possible now" in game.refuse("map 2")


# MC-13 -----------------------------------------------------------------------------------------------------

def test_MC_13_landing_on_a_teleport_moves_to_its_pair():
    game = Game(agent(19), agent(0))
    game.play("roll", 3)
    moves = [(e.frm, e.to, e.reason) for e in game.last if type(e).__name__ == "Moved"]
    assert moves == [(19, 22, "move"), (22, 37, "teleport")] and game.square(0) == 37


# MC-P1 -----------------------------------------------------------------------------------------------------

def test_MC_P1_default_board():
    board = DEFAULT_BOARD
    assert board.length == 60 and board.start == 0 and board.base == 59
    assert [(d.first, d.last) for d in board.districts] == [(0, 14), (15, 29), (30, 44), (45, 59)]
    for d in board.districts:
        assert len(d.green) == 4 and d.green_from == d.first and d.green_to == d.first + 5
        kinds = Counter(board.kind[sq] for sq in range(d.first, d.last + 1))
        assert (kinds["purchase"], kinds["fight"], kinds["caution"]) == (1, 1, 2)
    assert sorted(board.numbered) == list(range(5, 60, 5))
    assert board.teleports == {22: 37} and board.wall == (44, 45)
    summary = commando.view(Game(seats=2).state, None)["board"]
    assert summary["teleports"] == [{"from": 22, "to": 37}] and summary["wall"] == [44, 45]
    assert len(summary["squares"]) == 76 and summary["green_paths"][1]["squares"] == [64, 65, 66, 67]


# MC-P2 -----------------------------------------------------------------------------------------------------

def test_MC_P2_the_die_shows_zero_to_five():
    game = Game(agent(30), agent(0))
    faces = Counter()
    for seed in range(200):
        events = commando.decide(game.state, 0, commando.parse("roll"), random.Random(seed))
        faces[events[0].face] += 1
    assert set(faces) == {0, 1, 2, 3, 4, 5}


def test_MC_P2_overshooting_the_base_stops_on_it():
    game = Game(agent(57), agent(0))
    game.play("roll", 5)
    assert game.square(0) == 59 and commando.result(game.state)["winners"] == [0]


# MC-P3 -----------------------------------------------------------------------------------------------------

def test_MC_P3_agents_start_with_three_banknotes():
    game = Game(seats=3, position=False)
    assert [a.money for a in game.state.agents] == [3, 3, 3]


def test_MC_P3_stop_before_the_wall_instead_of_paying():
    game = Game(agent(42, money=2), agent(0))
    game.play("roll", 4)
    game.play("stay")
    assert game.square(0) == 44 and game.agent(0).money == 2 and game.state.turn == 1


def test_MC_P3_without_money_the_agent_stops_before_the_wall():
    game = Game(agent(42, money=0), agent(0))
    game.play("roll", 4)
    assert "wall_stopped" in types(game.last) and game.square(0) == 44 and game.state.turn == 1


def test_MC_P3_stopping_where_it_stood_does_not_land_again():
    board = {**DEFAULT_BOARD.spec, "caution": [3, 11, 18, 26, 33, 41, 44, 56]}
    game = Game(agent(44, money=0), agent(0), board=board)
    game.play("roll", 2)
    assert "card_drawn" not in types(game.last)


def test_MC_P3_a_loser_with_fewer_than_two_banknotes_must_retreat():
    game = Game(agent(11), agent(30, money=1))
    game.play("roll", 2)
    game.play("challenge 1", 5, 1)
    game.play("stay")
    assert game.square(1) == 68 and game.agent(1).money == 1 and game.state.turn == 1


# MC-P4 -----------------------------------------------------------------------------------------------------

def test_MC_P4_prices_and_the_accessory_limit():
    game = Game(agent(6, money=9, accessories=3), agent(0))
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["buy weapon", "done"]
    assert "3 accessories" in game.refuse("buy accessory")
    game.play("buy weapon")
    assert game.agent(0).money == 7


def test_MC_P4_a_weapon_costs_two():
    game = Game(agent(6, money=1), agent(0))
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["buy accessory", "done"]
    assert game.refuse("buy weapon") == "a weapon costs 2 banknotes and you have 1"


def test_MC_P4_any_number_of_weapons_may_be_committed_and_are_discarded():
    game = Game(agent(10, weapons=5), agent(12, weapons=1))
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["commit 0..5"]  # one entry for every count
    game.play("commit 5", seat=0)
    game.play("commit 0", 1, 5, seat=1)
    assert game.agent(0).weapons == 0 and game.agent(1).weapons == 1
    assert game.square(0) == 12 and game.square(1) == 60, "1 + 5 weapons beat 5"


# MC-P5 -----------------------------------------------------------------------------------------------------

def test_MC_P5_the_caution_deck_has_ten_cards():
    assert CAUTION_DECK == {"obstacle": 4, "ambush": 3, "trap": 2, "lucky_find": 1}
    game = Game(seats=2, position=False)
    assert sorted(game.state.deck) == sorted(["obstacle"] * 4 + ["ambush"] * 3 + ["trap"] * 2 + ["lucky_find"])


def test_MC_P5_obstacle_goes_back_two():
    game = Game(agent(1), agent(0), deck=deck("obstacle"))
    game.play("roll", 2)
    assert game.square(0) == 1 and game.state.discard[-1] == "obstacle"


def test_MC_P5_obstacle_back_onto_an_agent_is_a_collision():
    game = Game(agent(8), agent(9), deck=deck("obstacle"))
    game.play("roll", 3, 4, 1)
    assert game.square(0) == 9 and game.square(1) == 60
    assert game.state.turn == 1, "going back applies no square: the turn ends"


def test_MC_P5_obstacle_never_goes_back_over_the_wall_or_behind_the_start():
    board = {**DEFAULT_BOARD.spec, "caution": [1, 11, 18, 26, 33, 41, 46, 56]}
    obstacles = ["obstacle"] * 4 + ["ambush"] * 3 + ["trap"] * 2 + ["lucky_find"]
    game = Game(agent(44, money=1), agent(0), deck=obstacles, board=board)
    game.play("roll", 2)
    game.play("pay")  # 45, then 46: an obstacle sends the agent back, but not over the wall
    assert game.square(0) == 45
    game.play("roll", 1)  # seat 1 to the caution square 1: back to the start only
    assert game.square(1) == 0


def test_MC_P5_ambush_loses_the_next_turn():
    game = Game(agent(1), agent(0), deck=deck("ambush"))
    game.play("roll", 2)
    assert game.agent(0).skip
    game.play("roll", 1)
    assert types(game.last)[-3:] == ["turn_passed", "turn_lost", "turn_passed"]
    assert game.state.turn == 1 and not game.agent(0).skip


def test_MC_P5_trap_pays_one_or_nothing_when_broke():
    game = Game(agent(1, money=0), agent(0), deck=deck("trap"))
    game.play("roll", 2)
    assert game.agent(0).money == 0


def test_MC_P5_lucky_find_needs_no_accessory():
    game = Game(agent(1, accessories=2), agent(0), deck=deck("lucky_find"))
    game.play("roll", 2)
    assert game.agent(0).money == 4 and game.agent(0).accessories == 2 and game.state.turn == 1


def test_MC_P5_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    game = Game(agent(1), agent(0), deck=[])
    assert len(game.state.discard) == 10
    game.play("roll", 2)
    assert types(game.last)[2:4] == ["deck_shuffled", "card_drawn"] and game.last[2].reshuffle
    assert len(game.state.deck) + len(game.state.discard) == 10


# MC-P6 -----------------------------------------------------------------------------------------------------

def test_MC_P6_each_agent_starts_with_one_map_of_one_to_five_squares():
    game = Game(seats=2, position=False)
    assert [a.maps for a in game.state.agents] == [1, 1]
    game = Game(agent(30), agent(0))
    assert game.refuse("map 6") == "a map moves 1 to 5 squares, not 6"
    assert game.refuse("map 0") == "a map moves 1 to 5 squares, not 0"


# MC-P7 -----------------------------------------------------------------------------------------------------

def test_MC_P7_a_challenge_needs_a_fight_square():
    game = Game(agent(10), agent(30))
    assert "not possible now" in game.refuse("challenge 1")
    game.play("roll", 2)
    assert game.state.turn == 1


# MC-P8 -----------------------------------------------------------------------------------------------------

def test_MC_P8_green_path_moves_earn_nothing_and_rejoin_the_track():
    game = Game(agent(60), agent(61), agent(0))
    game.play("roll", 3)
    assert game.square(0) == 63 and game.agent(0).money == 3
    game.play("roll", 4)
    assert game.square(1) == 6 and game.agent(1).money == 4


# MC-P9 -----------------------------------------------------------------------------------------------------

def test_MC_P9_the_moving_agent_attacks_and_the_loser_goes_to_the_first_green_square():
    game = Game(agent(48), agent(52))
    game.play("roll", 4, 0, 1)
    started = game.last[2]
    assert (started.kind, started.attacker, started.defender) == ("collision", 0, 1)
    assert game.square(0) == 72


# MC-P10 ----------------------------------------------------------------------------------------------------

def test_MC_P10_challenge_any_agent_not_on_a_green_path_even_behind():
    game = Game(agent(11), agent(2), agent(50))
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["challenge 1", "challenge 2", "no challenge"]
    game.play("no challenge")
    assert types(game.last)[0] == "challenge_declined" and game.state.turn == 1


def test_MC_P10_once_per_turn_even_after_a_collision_on_the_fight_square():
    game = Game(agent(11), agent(13), agent(30))
    game.play("roll", 2, 5, 0)
    assert game.square(1) == 60 and game.phase == "challenge"
    assert commando.legal(game.state, 0) == ["challenge 2", "no challenge"]
    game.play("challenge 2", 4, 2)
    game.play("stay")
    game.play("pay", seat=2)
    assert game.state.turn == 1 and game.state.challenged is False


def test_MC_P10_cannot_challenge_oneself_or_a_missing_seat():
    game = Game(agent(11), agent(30))
    game.play("roll", 2)
    assert game.refuse("challenge 0") == "you cannot challenge yourself"
    assert game.refuse("challenge 4") == "there is no seat 4"


# MC-P11 ----------------------------------------------------------------------------------------------------

def test_MC_P11_the_teleport_exit_effect_applies():
    board = {**DEFAULT_BOARD.spec, "caution": [3, 11, 18, 26, 33, 37, 48, 56]}
    game = Game(agent(19), agent(0), board=board, deck=deck("lucky_find"))
    game.play("roll", 3)
    assert game.square(0) == 37 and "card_drawn" in types(game.last)


def test_MC_P11_an_agent_on_the_teleport_exit_is_fought():
    game = Game(agent(19), agent(37))
    game.play("roll", 3, 4, 2)
    assert game.square(0) == 37 and game.square(1) == 68


# MC-P12 ----------------------------------------------------------------------------------------------------

def test_MC_P12_the_first_player_is_drawn_then_seat_order():
    firsts = {Game(seats=4, position=False, seed=seed).state.turn for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    game = Game(agent(30), agent(31), agent(32), turn=1)
    order = []
    for _ in range(4):
        order.append(game.state.turn)
        game.play("roll", 0)
    assert order == [1, 2, 0, 1]


def test_MC_P12_a_position_without_turn_starts_with_seat_0():
    assert Game(agent(30), agent(31), turn=None).state.turn == 0


def test_MC_P12_the_first_agent_on_the_base_wins_at_once():
    game = Game(agent(55, money=0), agent(0), deck=deck("lucky_find"))
    game.play("roll", 4)
    assert types(game.last) == ["dice_rolled", "moved", "game_ended"]


# Secrets followed through play (moved from test_commando_properties.py; the generic properties, a one-step secret
# pair included, are in test_conformance.py) ---------------------------------------------------------------------

STEP_BOUND = 3000
games = st.fixed_dictionaries({
    "seats": st.integers(2, 5),
    "seed": st.integers(0, 2**32 - 1),
    "max_plies": st.one_of(st.none(), st.integers(1, 80)),
    "start_money": st.integers(0, 8),
})


def new_game(params) -> tuple[random.Random, list, State]:
    rng = random.Random(params["seed"])
    options = {"max_plies": params["max_plies"], "start_money": params["start_money"]}
    events = commando.initial(Setup(seats=params["seats"], options=options), rng)
    return rng, events, fold(events)


def hidden_variant(state: State, viewer: int | None, rng: random.Random) -> State:
    """The same game with everything ``viewer`` may not know changed: deck order, others' commitments."""
    deck = list(state.deck)
    rng.shuffle(deck)
    fight = state.fight
    if fight is not None and not fight.revealed:
        commits = list(fight.commits)
        for i, seat in enumerate((fight.attacker, fight.defender)):
            if seat != viewer and commits[i] is not None:
                commits[i] = rng.randint(0, state.agents[seat].weapons)
        fight = msgspec.structs.replace(fight, commits=tuple(commits))
    return msgspec.structs.replace(state, deck=tuple(deck), fight=fight)


@settings(max_examples=25, deadline=None)
@given(games)
def test_views_and_events_never_show_another_seats_secrets(params):
    rng, _, state = new_game(params)
    other_rng = random.Random(params["seed"] + 1)
    viewers = [None, *range(state.seats)]
    for _ in range(STEP_BOUND):
        if commando.status(state) == "finished":
            break
        for viewer in viewers:
            variant = hidden_variant(state, viewer, other_rng)
            assert commando.view(variant, viewer) == commando.view(state, viewer)
            if viewer is not None:
                assert commando.legal(variant, viewer) == commando.legal(state, viewer)
        seat = rng.choice(commando.to_act(state))
        text = rng.choice(commands(commando.legal(state, seat)))
        seed = rng.random()
        new = commando.decide(state, seat, commando.parse(text), random.Random(seed))
        if text.startswith("commit") and len(commando.to_act(state)) == 2:
            # another count committed first: every other viewer sees the very same events
            for other_text in commands(commando.legal(state, seat)):
                other = commando.decide(state, seat, commando.parse(other_text), random.Random(seed))
                for viewer in viewers:
                    if viewer != seat:
                        assert [commando.redact(e, viewer) for e in other] == [commando.redact(e, viewer)
                                                                              for e in new]
        for event in new:
            for viewer in viewers:
                redacted = commando.redact(event, viewer)
                assert getattr(redacted, "order", None) is None
                if viewer != getattr(event, "seat", viewer) and hasattr(event, "count") and \
                        type(event).__name__ == "WeaponsCommitted":
                    assert redacted.count is None
        state = fold(new, state)


def test_MC_P5_evolve_checks_the_facts_of_an_event():
    """A caution card drawn that is not the top of the pile, a die face 6, a move from a square the agent is not
    on: ``BadEvent``."""
    from domain.base import BadEvent
    from domain.commando import events as ev

    state = fold(commando.initial(Setup(seats=2), random.Random(3)))
    top = state.deck[0]
    other = next(card for card in CAUTION_DECK if card != top)
    assert commando.evolve(state, ev.CardDrawn(seat=0, card=top)).card == top
    with pytest.raises(BadEvent, match=f"the top of the caution pile is {top}"):
        commando.evolve(state, ev.CardDrawn(seat=0, card=other))
    with pytest.raises(BadEvent, match="no face 6"):
        commando.evolve(state, ev.DiceRolled(seat=0, face=6))
    with pytest.raises(BadEvent, match="not 40"):
        commando.evolve(state, ev.Moved(seat=0, frm=40, to=41))
