"""Mouse Guard: setup (MG-1…MG-4), options, notation, positions, views and the event feed."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import mouseguard as mg
from domain.base import REVEAL_ALL, BadNotation, BadSetup, IllegalMove, Setup
from domain.mouseguard.events import CardDrawn
from tests.domain.test_mouseguard_helpers import fold, mice, play, position, refused, start, types


def decide(state, seat, text):
    return mg.decide(state, seat, mg.parse(text), random.Random(0))


# MG-1: edge points


def test_MG_1_edge_points_off_only_interior_points():
    state = start()
    assert len(mg.legal(state, 0)) == 210  # C(10, 4): rows 2–3 × columns b–f
    assert mg.view(state, 0)["setup_rows"] == {"black": [2, 3], "white": [7, 8]}
    state = start(position({"b5": "black", "d8": "white"}))
    refused(state, "b5-a5", "a5 is on the board edge, which is not playable")


def test_MG_1_edge_points_on_all_points_playable():
    state = start(edge_points=True)
    assert len(mg.legal(state, 0)) == 1001  # C(14, 4): rows 1–2 (black) or 8–9 (white) × 7 columns
    assert mg.view(state, 0)["setup_rows"] == {"black": [1, 2], "white": [8, 9]}
    state = start(position({"b5": "black", "d8": "white"}), edge_points=True)
    state, _ = play(state, "b5-a5")
    assert mice(state) == {"a5": "black", "d8": "white"}


def test_MG_1_pushed_onto_the_edge_is_captured_but_not_with_edge_points():
    pos = position({"c4": "black", "b5": "white", "d8": "white"})
    narrow, _ = play(start(pos), "c4-c5 sword b5 b6")
    wide, _ = play(start(pos, edge_points=True), "c4-c5 sword b5 b6")
    assert "b5" not in mice(narrow) and narrow.captured[1] == 3
    assert mice(wide)["a5"] == "white" and wide.captured[1] == 2


def test_MG_1_position_refuses_edge_point_unless_option():
    with pytest.raises(BadSetup) as error:
        start(position({"a5": "black", "d8": "white"}))
    assert error.value.field == "position.mice.a5"
    assert mice(start(position({"a5": "black", "d8": "white"}), edge_points=True))["a5"] == "black"


# MG-2, MG-3: pieces, deck, colours


def test_MG_2_thirty_cards_ten_of_each_in_the_shuffled_deck():
    state = start()
    assert len(state.deck) == 30 and state.hands == ((), ())  # MG-4: dealt after the setup
    assert Counter(state.deck) == {"sword": 10, "stronghold": 10, "diplomacy": 10}
    assert len({start(seed=seed).deck for seed in range(5)}) > 1


def test_MG_3_colours_drawn_at_random_and_black_moves_first():
    blacks = set()
    for seed in range(12):
        events = mg.initial(Setup(seats=2), random.Random(seed))
        assert types(events)[:3] == ["game_created", "colours_drawn", "deck_shuffled"]
        state = fold(events)
        blacks.add(state.black)
        black, white = state.black, 1 - state.black
        state = fold(decide(state, white, "place c7 c8 d7 d8"), state)
        state = fold(decide(state, black, "place b2 c3 d2 e3"), state)
        assert mg.to_act(state) == [black]
    assert blacks == {0, 1}


def test_MG_3_colours_drawn_also_from_a_position():
    blacks = {start(position({"c4": "black", "d8": "white"}), seed=seed).black for seed in range(12)}
    assert blacks == {0, 1}


# MG-4: secret simultaneous setup


def test_MG_4_secret_setup_revealed_together():
    state = start()
    assert mg.status(state) == "setup" and mg.to_act(state) == [0, 1]
    events = decide(state, 1, "place e8 b7 c7 d8" if state.black == 0 else "place e3 b2 c2 d3")
    assert types(events) == ["mice_placed"]
    assert mg.redact(events[0], 0).points is None and mg.redact(events[0], None).points is None
    assert mg.redact(events[0], 1).points is not None
    state = fold(events, state)
    assert mg.to_act(state) == [0]
    assert mg.view(state, 0)["placement"] is None and mg.view(state, 0)["placed"][mg.view(state, 1)["colour"]]
    assert mg.view(state, 1)["placement"] == events[0].points and mg.view(state, 0)["mice"] == {}
    with pytest.raises(IllegalMove, match="already placed"):
        decide(state, 1, "place b7 c7 d7 e7" if state.black == 0 else "place b2 c2 d2 e2")
    second = decide(state, 0, "place b2 c2 d2 e2" if state.black == 0 else "place b7 c7 d7 e7")
    assert types(second) == ["mice_placed", "placements_revealed"] + ["card_drawn"] * 6
    state = fold(second, state)
    assert mg.status(state) == "playing" and mg.to_act(state) == [state.black]
    assert len(mg.view(state, None)["mice"]) == 8


def test_MG_4_placement_refusals():
    state = start()
    black = state.black
    for text, reason in [("place b2 c2 d2", "place exactly 4 mice, not 3"),
                         ("place b2 b2 c2 d2", "b2 is named twice"),
                         ("place b2 c2 d2 b4", "b4 is not a playable point of your setup rows (2–3)"),
                         ("place a2 b2 c2 d2", "a2 is not a playable point of your setup rows (2–3)"),
                         ("place b7 c7 d7 e7", "b7 is not a playable point of your setup rows (2–3)"),
                         ("c2-c3", "the mice are being placed")]:
        with pytest.raises(IllegalMove) as error:
            decide(state, black, text)
        assert reason in str(error.value)
    with pytest.raises(IllegalMove, match="setup rows \\(7–8\\)"):
        decide(state, 1 - black, "place b2 c2 d2 e2")
    assert "place b2 c2 d2 e2" in mg.legal(state, black)
    playing = start(position({"c4": "black", "d8": "white"}))
    refused(playing, "place b2 c2 d2 e2", "the setup is over")


def test_MG_4_cards_dealt_only_after_placements_revealed():
    events = mg.initial(Setup(seats=2), random.Random(5))
    assert types(events) == ["game_created", "colours_drawn", "deck_shuffled"]  # no hand during the setup
    shuffled = events[2]
    assert all(mg.redact(shuffled, viewer).order is None for viewer in (0, 1, None))
    assert mg.redact(shuffled, REVEAL_ALL).order == shuffled.order
    state = fold(events)
    black, white = state.black, 1 - state.black
    first = decide(state, white, "place b7 c8 d7 e8")
    assert types(first) == ["mice_placed"]
    state = fold(first, state)
    for viewer in (0, 1, None):
        seen = mg.view(state, viewer)
        assert seen["hand_counts"] == {"black": 0, "white": 0} and seen["deck_count"] == 30
        if viewer is None:
            assert "hand" not in seen and "hands" not in seen["position"]
        else:
            assert seen["hand"] == [] and seen["position"]["hands"] == {seen["colour"]: []}
    assert state.hands == ((), ()) and mg.dump_position(state)["hands"] == {"black": [], "white": []}
    revealing = decide(state, black, "place b2 c3 d2 e3")
    assert types(revealing) == ["mice_placed", "placements_revealed"] + ["card_drawn"] * 6
    draws = revealing[2:]
    assert [draw.seat for draw in draws] == [black, white] * 3  # one at a time, Black first
    assert [draw.card for draw in draws] == shuffled.order[:6]  # from the deck shuffled at the start
    for draw in draws:
        assert mg.redact(draw, draw.seat).card == draw.card
        assert mg.redact(draw, 1 - draw.seat).card is None and mg.redact(draw, None).card is None
        assert mg.redact(draw, REVEAL_ALL).card == draw.card
    state = fold(revealing, state)
    assert mg.status(state) == "playing" and len(state.deck) == 24 and list(state.deck) == shuffled.order[6:]
    assert [len(hand) for hand in state.hands] == [3, 3]
    for seat in (black, white):
        seen = mg.view(state, seat)
        assert seen["hand"] == list(state.hands[state.colour_of(seat)]) and "hands" not in seen
        assert seen["hand_counts"] == {"black": 3, "white": 3} and seen["deck_count"] == 24
        assert sorted(seen["hand"]) == sorted(d.card for d in draws if d.seat == seat)
    assert "hand" not in mg.view(state, None) and mg.view(state, None)["hand_counts"] == {"black": 3, "white": 3}
    assert mg.describe(revealing[1]).endswith("3 cards are dealt to each")


def test_MG_4_a_stored_game_dealt_before_its_setup_is_not_dealt_again():
    events = mg.initial(Setup(seats=2), random.Random(4))
    deck = events[2].order
    old = events + [CardDrawn(seat=events[1].black if i % 2 == 0 else 1 - events[1].black, card=deck[i])
                    for i in range(6)]  # the stream of a game created when the deal came first
    state = fold(old)
    state = fold(decide(state, state.black, "place b2 c3 d2 e3"), state)
    revealing = decide(state, 1 - state.black, "place b7 c8 d7 e8")
    assert types(revealing) == ["mice_placed", "placements_revealed"]
    state = fold(revealing, state)
    assert [len(hand) for hand in state.hands] == [3, 3] and len(state.deck) == 24


def test_MG_4_a_game_from_a_position_in_play_is_dealt_at_once():
    events = mg.initial(Setup(seats=2, position={"mice": {"c4": "black", "d8": "white"},
                                                 "captured": {"black": 3, "white": 3}}), random.Random(2))
    assert types(events)[3:] == ["card_drawn"] * 6
    assert [len(hand) for hand in fold(events).hands] == [3, 3]


def test_refusals_outside_the_turn():
    state = start(position({"c4": "black", "b5": "white"}))
    black, white = state.black, 1 - state.black
    with pytest.raises(IllegalMove, match="it is not your turn"):
        decide(state, white, "b5-b6")
    with pytest.raises(IllegalMove, match="there is no seat 2"):
        decide(state, 2, "c4-c5")
    refused(state, "b5-b6", "the mouse on b5 is not yours")
    refused(state, "d4-d5", "there is no mouse on d4")
    refused(state, "c4-d5", "d5 is not one orthogonal step from c4")
    state, _ = play(state, "c4-c5 sword b5 b6")
    with pytest.raises(IllegalMove, match="the game is over"):
        decide(state, white, "b5-b6")
    assert mg.legal(state, black) == [] and mg.to_act(state) == []


# Options


@pytest.mark.parametrize("options, field", [
    ({"colour": "black"}, "options.colour"), ({"edge_points": "yes"}, "options.edge_points"),
    ({"exit_extra_step": 1}, "options.exit_extra_step"), ({"diplomacy_metric": "euclid"},
                                                          "options.diplomacy_metric"),
    ({"max_plies": 0}, "options.max_plies")])
def test_bad_options_refused(options, field):
    with pytest.raises(BadSetup) as error:
        mg.initial(Setup(seats=2, options=options), random.Random(0))
    assert error.value.field == field


def test_seat_count_refused():
    with pytest.raises(BadSetup) as error:
        mg.initial(Setup(seats=3), random.Random(0))
    assert error.value.field == "seats"


def test_options_have_defaults_and_appear_in_the_view():
    assert mg.view(start(), None)["options"] == {"edge_points": False, "exit_extra_step": False,
                                                 "rescue_after_move": False, "diplomacy_metric": "squares",
                                                 "max_plies": None}
    chosen = {"edge_points": True, "exit_extra_step": True, "rescue_after_move": True,
              "diplomacy_metric": "chebyshev", "max_plies": 9}
    assert mg.view(start(**chosen), None)["options"] == chosen


# Notation


CANONICAL = ["place b2 c3 d2 e3", "c3-c4", "c3-c4 sword c5 d5", "c3-c4 stronghold C4", "c3-c4 diplomacy e6",
             "c3-c4 diplomacy D5 e6", "exit D5 d6", "exit D5 d6 e6", "rescue c2", "pass sword",
             "pass stronghold", "pass diplomacy"]


@pytest.mark.parametrize("text", CANONICAL)
def test_notation_round_trip(text):
    assert mg.format(mg.parse(text)) == text


def test_notation_normalises_placement_order_and_spaces():
    assert mg.format(mg.parse("place  e3 c3 b2 d2 ")) == "place b2 c3 d2 e3"
    assert mg.format(mg.parse(" c3-c4   sword c5 d5")) == "c3-c4 sword c5 d5"


@pytest.mark.parametrize("text", [
    "", "h3-h4", "c3c4", "c3-c4 sword c5", "c3-c4 axe", "c3-c4 stronghold c4", "c3-c4 diplomacy D5",
    "c3-c4 diplomacy D5 E6", "exit d5 d6", "exit D9 d6", "rescue C2", "pass", "pass axe", "place",
    "place b2 c3 x9", "c3-c4 sword c5 d5 diplomacy e6", "exit D5 d6 sword"])
def test_bad_notation(text):
    with pytest.raises(BadNotation):
        mg.parse(text)


# Position


def test_position_round_trip_mid_game():
    rng = random.Random(7)
    state = start(seed=7)
    while mg.status(state) != "finished" and state.plies < 25:
        for seat in mg.to_act(state):
            state = fold(mg.decide(state, seat, mg.parse(rng.choice(mg.legal(state, seat))), rng), state)
    assert mg.status(state) == "playing"
    dumped = mg.dump_position(state)
    reloaded = start(dumped, seed=99)
    assert mg.dump_position(reloaded) == dumped
    assert reloaded.board == state.board and reloaded.hands == state.hands and reloaded.deck == state.deck


def test_position_round_trip_in_setup():
    state = start()
    dumped = mg.dump_position(state)
    assert "mice" not in dumped and dumped["hands"] == {"black": [], "white": []} and len(dumped["deck"]) == 30
    reloaded = start(dumped, seed=99)
    assert mg.status(reloaded) == "setup" and mg.dump_position(reloaded) == dumped
    after = []
    for game in (state, reloaded):  # the given deck is dealt at the reveal, whoever plays which colour
        game = fold(decide(game, game.black, "place b2 c3 d2 e3"), game)
        after.append(fold(decide(game, 1 - game.black, "place b7 c8 d7 e8"), game))
    assert after[0].hands == after[1].hands and after[0].deck == after[1].deck
    without_hands = {key: value for key, value in dumped.items() if key != "hands"}
    assert mg.dump_position(start(without_hands)) == dumped


def test_position_omitted_fields_take_start_values():
    events = mg.initial(Setup(seats=2, position={"mice": {"c4": "black", "d8": "white"},
                                                 "captured": {"black": 3, "white": 3}}), random.Random(1))
    assert types(events)[:3] == ["game_created", "colours_drawn", "deck_shuffled"]
    assert events[2].source == "remainder" and events[2].count == 30
    state = fold(events)
    assert state.turn == 0 and state.discard == () and len(state.deck) == 24
    state = start({})
    assert mg.status(state) == "setup" and len(state.deck) == 30 and state.hands == ((), ())


def test_position_given_deck_and_hands_are_used_as_is():
    deck = ["diplomacy"] * 8 + ["stronghold"] * 9 + ["sword"] * 7
    pos = position({"c4": "black", "d8": "white"}, deck=deck,
                   hands={"black": ["sword", "sword", "stronghold"], "white": ["sword", "diplomacy", "diplomacy"]})
    events = mg.initial(Setup(seats=2, position=pos), random.Random(0))
    assert types(events) == ["game_created", "colours_drawn", "deck_set", "hand_set", "hand_set"]
    assert all(mg.redact(e, None).cards is None for e in events[3:])
    state = fold(events)
    assert state.deck == tuple(deck) and state.hands == (("sword", "sword", "stronghold"),
                                                          ("sword", "diplomacy", "diplomacy"))


@pytest.mark.parametrize("pos, field, reason", [
    ([], "position", "must be an object"),
    ({"board": {}}, "position.board", "unknown field"),
    ({"turn": "red", "mice": {}}, "position.turn", "black or white"),
    ({"mice": {"z9": "black"}}, "position.mice.z9", "not a point"),
    ({"mice": {"c4": "red"}}, "position.mice.c4", "not a colour"),
    ({"mice": {"d5": "black", "D5": "white", "c4": "white"}, "captured": {"black": 3, "white": 2}},
     "position.mice.d5", "d5 is a corner of the stronghold on D5"),
    ({"mice": {"c4": "black", "d8": "white"}}, "position.mice", "black has 1 mouse on the board and 0 captured"),
    ({"mice": {"c4": "black", "d5": "black", "d8": "white"}}, "position.mice",
     "black has 2 mice on the board and 0 captured"),
    ({"mice": {"c4": "white"}, "captured": {"black": 4, "white": 3}}, "position.mice", "every black mouse"),
    ({"mice": {"A8": "black", "d4": "white"}, "captured": {"black": 3, "white": 3}}, "position.mice.A8",
     "already won"),
    ({"mice": {"c4": "black", "d8": "white"}, "captured": {"black": 5, "white": 3}}, "position.captured.black",
     "from 0 to 4"),
    ({"mice": {"c4": "black", "d8": "white"}, "captured": {"black": 3, "white": 3}, "hands": {"black": ["sword"]}},
     "position.hands.black", "3 cards"),
    ({"mice": {"c4": "black", "d8": "white"}, "captured": {"black": 3, "white": 3}, "hands": {"white": []}},
     "position.hands.white", "3 cards"),
    ({"hands": {"black": ["sword"] * 3}}, "position.hands.black", "the hand must be empty"),
    ({"discard": ["sword"] * 10 + ["stronghold"] * 10 + ["diplomacy"] * 5}, "position.deck", "too few cards"),
    ({"hands": {"green": []}}, "position.hands.green", "unknown colour"),
    ({"discard": ["axe"]}, "position.discard[0]", "not a card"),
    ({"discard": ["sword"] * 11}, "position", "11 sword cards"),
    # 31 cards, one stronghold short and two diplomacies too many: the surplus is the mistake named
    ({"deck": ["sword"] * 10 + ["stronghold"] * 9 + ["diplomacy"] * 12}, "position",
     "12 diplomacy cards (31 cards in all), but the game has 10 of each, 30 in all"),
    ({"deck": ["sword"] * 10}, "position.deck", "missing"),
    ({"turn": "white"}, "position.turn", "Black moves first"),
    ({"captured": {"black": 1}}, "position.captured", "nothing is captured"),
])
def test_inconsistent_positions_refused(pos, field, reason):
    with pytest.raises(BadSetup) as error:
        mg.initial(Setup(seats=2, position=pos), random.Random(0))
    assert error.value.field == field
    assert reason in str(error.value)


# Views, the event feed, describe, render


def test_view_of_a_seat():
    state = start(position({"c4": "black", "D5": "white", "f8": "white"}))
    black = state.black
    seen = mg.view(state, black)
    assert seen["colour"] == "black" and seen["you"] == black and seen["turn"] == "black"
    assert seen["hand"] == ["sword", "stronghold", "diplomacy"]
    assert seen["hand_counts"] == {"black": 3, "white": 3} and seen["deck_count"] == 24
    assert seen["mice"] == {"c4": "black", "f8": "white", "D5": "white"}
    assert seen["strongholds"] == ["D5"] and seen["closed"] == ["d5", "e5", "d6", "e6"]
    assert seen["position"] == {"turn": "black", "mice": seen["mice"], "discard": [],
                                "captured": {"black": 3, "white": 2},
                                "hands": {"black": ["sword", "stronghold", "diplomacy"]}}
    assert "hands" not in seen and "deck" not in seen
    other = mg.view(state, 1 - black)
    assert other["hand"] == ["diplomacy"] * 3 and other["position"]["hands"] == {"white": other["hand"]}
    msgspec.json.encode(seen)


def test_view_of_a_spectator_has_no_hand():
    state = start()
    seen = mg.view(state, None)
    assert "hand" not in seen and "hands" not in seen and seen["placement"] is None
    assert "hands" not in seen["position"]


def test_reveal_all_and_finished_games_show_everything():
    state = start(position({"c4": "black", "b5": "white"}))
    assert mg.view(state, REVEAL_ALL)["deck"] == list(state.deck)
    state, _ = play(state, "c4-c5 sword b5 b6")
    for viewer in (0, 1, None):
        seen = mg.view(state, viewer)
        assert seen["phase"] == "finished" and seen["hands"] and seen["deck"] == list(state.deck)
        assert seen["result"]["winners"] == [state.black]


def test_describe_every_event_even_redacted():
    state = start(seed=3)
    events = mg.initial(Setup(seats=2), random.Random(3))
    state = fold(events)
    rng = random.Random(3)
    while mg.status(state) != "finished" and state.plies < 60:
        for seat in mg.to_act(state):
            new = mg.decide(state, seat, mg.parse(rng.choice(mg.legal(state, seat))), rng)
            events += new
            state = fold(new, state)
    for event in events:
        for viewer in (0, 1, None, REVEAL_ALL):
            line = mg.describe(mg.redact(event, viewer))
            assert isinstance(line, str) and line and "None" not in line


def test_render_draws_the_board():
    state = start(position({"c4": "black", "D5": "white", "f8": "white"}))
    text = mg.render(state)
    assert "B" in text and "W" in text and "x" in text and "to move: black" in text


# Non-interference of Mouse Guard's secrets, followed through play (moved from test_mouseguard_properties.py;
# the generic properties, a one-step secret pair included, are in test_conformance.py) ---------------------------

def random_game(seed: int, options: dict, plies: int):
    """Yield (state, seat, command text, events) along a random legal game of at most ``plies`` plies."""
    rng = random.Random(seed)
    state = fold(mg.initial(Setup(seats=2, options={**options, "max_plies": plies}), rng))
    while mg.status(state) != "finished":
        seat = rng.choice(mg.to_act(state))
        text = rng.choice(mg.legal(state, seat))
        events = mg.decide(state, seat, mg.parse(text), rng)
        yield state, seat, text, events
        state = fold(events, state)


def _encoded_view(state, viewer) -> bytes:
    return msgspec.json.encode(mg.view(state, viewer))


def _hidden_variant(state, mine: str, rng: random.Random):
    """The position of ``state`` with the same public parts, ``mine`` hand and next deck cards, but another
    opponent hand and deck order."""
    position = mg.dump_position(state)
    theirs = "white" if mine == "black" else "black"
    keep = position["deck"][:4]  # what ``me`` may draw soon stays put, so both worlds stay alike for longer
    pool = position["hands"][theirs] + position["deck"][4:]
    rng.shuffle(pool)
    position["hands"][theirs], position["deck"] = pool[:3], keep + pool[3:]
    return position


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), prefix=st.integers(0, 12), mine=st.sampled_from(["black", "white"]))
def test_non_interference_of_hidden_cards(seed, prefix, mine):
    """Two games differing only in the opponent's hand and the deck order look the same to ``me``."""
    state = None
    for state, _, _, _ in random_game(seed, {}, prefix + 3):
        if mg.status(state) == "playing" and state.plies >= prefix:
            break
    if state is None or mg.status(state) != "playing":
        return
    rng = random.Random(seed)
    base = mg.dump_position(state)
    events_1 = mg.initial(Setup(seats=2, position=base), random.Random(seed))
    events_2 = mg.initial(Setup(seats=2, position=_hidden_variant(state, mine, rng)), random.Random(seed))
    worlds = [fold(events_1), fold(events_2)]
    me = worlds[0].seat_of(0 if mine == "black" else 1)
    feeds = [[msgspec.json.encode(mg.redact(e, me)) for e in events] for events in (events_1, events_2)]
    for _ in range(30):
        own = [w.hands[w.colour_of(me)] for w in worlds]
        if own[0] != own[1] or mg.status(worlds[0]) == "finished":
            break  # ``me`` drew different cards: from now on the worlds differ for ``me`` too
        assert _encoded_view(worlds[0], me) == _encoded_view(worlds[1], me)
        assert _encoded_view(worlds[0], None) == _encoded_view(worlds[1], None)
        assert feeds[0] == feeds[1]
        seat = mg.to_act(worlds[0])[0]
        common = sorted(set(mg.legal(worlds[0], seat)) & set(mg.legal(worlds[1], seat)))
        if seat == me:
            assert mg.legal(worlds[0], me) == mg.legal(worlds[1], me)
        if not common:
            break
        text = rng.choice(common)
        step = rng.randrange(10**6)
        for index, world in enumerate(worlds):
            events = mg.decide(world, seat, mg.parse(text), random.Random(step))
            feeds[index] += [msgspec.json.encode(mg.redact(e, me)) for e in events]
            worlds[index] = fold(events, world)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), me=st.sampled_from([0, 1]))
def test_non_interference_of_secret_placements(seed, me):
    """Until both have placed, the other seat's placement is invisible to ``me`` and to spectators."""
    rng = random.Random(seed)
    state = fold(mg.initial(Setup(seats=2), random.Random(seed)))
    choices = mg.legal(state, 1 - me)
    first, second = rng.sample(choices, 2)
    worlds, feeds = [], []
    for text in (first, second):
        events = mg.decide(state, 1 - me, mg.parse(text), rng)
        worlds.append(fold(events, state))
        feeds.append([msgspec.json.encode(mg.redact(e, me)) for e in events])
    for viewer in (me, None):
        assert _encoded_view(worlds[0], viewer) == _encoded_view(worlds[1], viewer)
    assert feeds[0] == feeds[1]
    assert _encoded_view(worlds[0], 1 - me) != _encoded_view(worlds[1], 1 - me)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), me=st.sampled_from([0, 1]), my_placement_first=st.booleans())
def test_non_interference_of_the_deck_through_the_deal(seed, me, my_placement_first):
    """Two setups whose decks differ except for the cards dealt to ``me`` look the same to ``me`` through the
    reveal and the deal (MG-4), and the same to spectators."""
    rng = random.Random(seed)
    base = mg.dump_position(fold(mg.initial(Setup(seats=2), random.Random(seed))))
    state = fold(mg.initial(Setup(seats=2, position=base), random.Random(seed)))
    mine = state.colour_of(me)
    deck = list(base["deck"])
    kept = {index for index in range(6) if index % 2 == mine}  # the deal alternates, Black first
    others = [card for index, card in enumerate(deck) if index not in kept]
    rng.shuffle(others)
    variant = [deck[index] if index in kept else others.pop() for index in range(len(deck))]
    worlds = [state, fold(mg.initial(Setup(seats=2, position={**base, "deck": variant}), random.Random(seed)))]
    feeds: list[list[bytes]] = [[], []]
    order = [me, 1 - me] if my_placement_first else [1 - me, me]
    for seat in order:
        text = rng.choice(mg.legal(worlds[0], seat))
        for index, world in enumerate(worlds):
            events = mg.decide(world, seat, mg.parse(text), random.Random(0))
            feeds[index] += [msgspec.json.encode(mg.redact(e, me)) for e in events]
            worlds[index] = fold(events, world)
        for viewer in (me, None):
            assert _encoded_view(worlds[0], viewer) == _encoded_view(worlds[1], viewer)
        assert feeds[0] == feeds[1]
    assert mg.status(worlds[0]) == "playing" and worlds[0].hands[mine] == worlds[1].hands[mine]
