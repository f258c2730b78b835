"""Mission commando: options, the board schema, positions, notation, views, move-list lines, rendering."""

from __future__ import annotations

import copy
import functools
import json
import operator
import random

import msgspec
import pytest

from domain import commando
from domain.base import REVEAL_ALL, BadNotation, BadSetup, Setup, commands, event_data, event_type
from domain.commando.board import DEFAULT_BOARD_SPEC, load_board
from domain.commando.events import EVENTS
from tests.domain.test_commando_helpers import Game, agent, fold, types

ANY_EVENT = functools.reduce(operator.or_, EVENTS)

# Options -----------------------------------------------------------------------------------------------------


def test_option_start_money_both_ways():
    assert [a.money for a in Game(seats=2, position=False).state.agents] == [3, 3]
    assert [a.money for a in Game(seats=2, position=False, options={"start_money": 7}).state.agents] == [7, 7]


def test_option_start_maps_both_ways():
    game = Game(agent(30), agent(0), options={"start_maps": 0})
    assert commando.legal(game.state, 0) == ["roll"]


def test_option_prices_fine_and_limit():
    options = {"weapon_price": 3, "accessory_price": 2, "accessory_limit": 1, "fine": 1}
    game = Game(agent(6, money=4), agent(30, money=1), options=options)
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["buy weapon", "buy accessory", "done"]
    game.play("buy weapon")
    assert game.agent(0).money == 1
    assert commando.legal(game.state, 1) == ["roll", *[f"map {n}" for n in range(1, 6)]]
    game = Game(agent(11), agent(30, money=1), options={"fine": 1})
    game.play("roll", 2)
    game.play("challenge 1", 5, 0)
    game.play("stay")
    game.play("pay", seat=1)
    assert game.agent(1).money == 0 and game.square(1) == 30


def test_option_max_plies_both_ways():
    game = Game(agent(30), agent(31), options={"max_plies": 3})
    for _ in range(3):
        game.play("roll", 0)
    assert commando.result(game.state) == {"winners": [], "reason": "Draw: the limit of 3 turns was reached",
                                           "termination": "max_plies"}
    game = Game(agent(30), agent(31))
    for _ in range(3):
        game.play("roll", 0)
    assert commando.status(game.state) == "playing"


@pytest.mark.parametrize(("options", "field"), [
    ({"colour": 1}, "options.colour"),
    ({"start_money": -1}, "options.start_money"),
    ({"start_money": 2.5}, "options.start_money"),
    ({"fine": "two"}, "options.fine"),
    ({"max_plies": 0}, "options.max_plies"),
    ({"board": "big"}, "options.board"),
    ({"board": {"length": 10}}, "options.board.districts"),
])
def test_bad_options_are_refused_by_name(options, field):
    with pytest.raises(BadSetup) as error:
        commando.initial(Setup(seats=2, options=options), random.Random(0))
    assert error.value.field == field


def test_option_board_replaces_the_default_board():
    small = {"name": "tiny", "length": 12, "districts": [{"first": 0, "last": 11,
                                                          "green": {"from": 0, "to": 3, "length": 2}}],
             "numbered": [6], "fight": [4], "wall": [8, 9]}
    game = Game(seats=2, position=False, options={"board": small})
    assert game.state.board.name == "tiny" and game.state.board.length == 12
    assert commando.view(game.state, 0)["board"]["green_paths"] == [
        {"district": 0, "from": 0, "to": 3, "squares": [12, 13]}]
    assert commando.dump_position(game.state)["board"] == small
    stored = msgspec.json.encode(game.events)
    assert fold(msgspec.json.decode(stored, type=list[ANY_EVENT])) == game.state


# Board schema -------------------------------------------------------------------------------------------------

def board(**changes):
    spec = copy.deepcopy(DEFAULT_BOARD_SPEC)
    spec.update(changes)
    return spec


@pytest.mark.parametrize(("spec", "field", "words"), [
    ([], "options.board", "object"),
    (board(size=3), "options.board.size", "unknown field"),
    ({"districts": []}, "options.board.length", "missing"),
    (board(length="60"), "options.board.length", "integer"),
    (board(start=1), "options.board.start", "from 0 to 0"),
    (board(base=58), "options.board.base", "from 59 to 59"),
    (board(districts=[]), "options.board.districts", "at least one"),
    (board(districts=[{"first": 0, "last": 58, "green": {"from": 0, "to": 5, "length": 4}}]),
     "options.board.districts[0].last", "must be 59"),
    (board(districts=[{"first": 1, "last": 59, "green": {"from": 1, "to": 5, "length": 4}}]),
     "options.board.districts[0].first", "must be 0"),
    (board(districts=[{"first": 0, "last": 59, "green": {"from": 0, "to": 5}}]),
     "options.board.districts[0].green.length", "missing"),
    (board(districts=[{"first": 0, "last": 59, "green": {"from": 0, "to": 0, "length": 4}}]),
     "options.board.districts[0].green.to", "from 1 to 59"),
    (board(districts=[{"first": 0, "last": 59, "green": {"from": 40, "to": 46, "length": 4}}]),
     "options.board.districts[0].green", "span the red wall"),
    (board(numbered=[5, 5]), "options.board.numbered", "twice"),
    (board(numbered=[60]), "options.board.numbered[0]", "from 1 to 59"),
    (board(fight=[8]), "options.board.fight[0]", "already a purchase"),
    (board(caution=[59]), "options.board.caution[0]", "from 1 to 58"),
    (board(teleports=[{"from": 8, "to": 20}]), "options.board.teleports[0].from", "purchase"),
    (board(teleports=[{"from": 40, "to": 50}]), "options.board.teleports[0]", "jump over the red wall"),
    (board(teleports=[{"from": 22, "to": 37}, {"from": 37, "to": 40}]), "options.board.teleports[0].to",
     "no chains"),
    (board(teleports=[{"from": 22}]), "options.board.teleports[0].to", "missing"),
    (board(teleports=[{"from": 37, "to": 22}]), "options.board.teleports[0].to", "only moves forward (MC-2"),
    (board(wall=[44, 46]), "options.board.wall[1]", "from 45 to 45"),
    (board(wall=[44]), "options.board.wall", "neighbouring"),
    (board(name=3), "options.board.name", "string"),
])
def test_board_validation_names_the_field(spec, field, words):
    with pytest.raises(BadSetup) as error:
        load_board(spec)
    assert error.value.field == field and words in str(error.value)


def test_board_without_wall_or_teleports():
    spec = board(wall=None, teleports=[])
    loaded = load_board(spec)
    assert loaded.wall is None and loaded.teleports == {}
    game = Game(agent(43, money=0), agent(0), board=spec)
    game.play("roll", 3)
    assert game.square(0) == 46


# Positions ----------------------------------------------------------------------------------------------------

def test_position_round_trips():
    position = {"turn": 1, "agents": [
        {"square": 12, "path": "main", "money": 4, "weapons": 2, "accessories": 1, "maps": 0, "skip": False},
        {"square": 66, "path": "green", "money": 0, "weapons": 0, "accessories": 3, "maps": 1, "skip": True},
        {"square": 0, "path": "main", "money": 3, "weapons": 0, "accessories": 0, "maps": 1, "skip": False}],
        "caution_deck": ["trap", "ambush", "obstacle"], "board": "default"}
    game = Game(*position["agents"], turn=1, deck=position["caution_deck"])
    # seat 1 is ambushed: it loses this turn at once and seat 2 plays
    assert game.state.turn == 2 and types(game.events)[2:] == ["turn_lost", "turn_passed"]
    dumped = commando.dump_position(game.state)
    again = fold(commando.initial(Setup(seats=3, position=dumped), random.Random(5)))
    assert commando.dump_position(again) == dumped
    assert again.agents == game.state.agents and again.discard == game.state.discard
    assert sorted(game.state.discard) == sorted(["obstacle"] * 3 + ["ambush"] * 2 + ["trap", "lucky_find"])


def test_position_of_a_fresh_game_round_trips():
    game = Game(seats=4, position=False, seed=3)
    dumped = commando.dump_position(game.state)
    again = fold(commando.initial(Setup(seats=4, position=dumped), random.Random(9)))
    assert again == game.state


def test_position_with_a_custom_board():
    spec = board(name="mine", numbered=[7])
    game = Game(agent(5), agent(0), board=spec)
    assert game.state.options["board"] == spec
    assert commando.dump_position(game.state)["board"] == spec
    with pytest.raises(BadSetup) as error:
        commando.initial(Setup(seats=2, options={"board": board()}, position={"board": spec}), random.Random(0))
    assert error.value.field == "position.board"


@pytest.mark.parametrize(("position", "field", "words"), [
    ({"agents": [agent(1)]}, "position.agents", "one agent per seat"),
    ({"agents": [agent(12), agent(12)]}, "position.agents[1].square", "already holds seat 0"),
    ({"agents": [agent(61, path="main"), agent(0)]}, "position.agents[0].path", "green-path square"),
    ({"agents": [agent(12, path="green"), agent(0)]}, "position.agents[0].path", "main-track square"),
    ({"agents": [agent(12, path="air"), agent(0)]}, "position.agents[0].path", "must be"),
    ({"agents": [agent(59), agent(0)]}, "position.agents[0].square", "enemy base"),
    ({"agents": [agent(76), agent(0)]}, "position.agents[0].square", "at most 75"),
    ({"agents": [agent(3, money=-1), agent(0)]}, "position.agents[0].money", "0 or more"),
    ({"agents": [agent(3, accessories=4), agent(0)]}, "position.agents[0].accessories", "at most 3"),
    ({"agents": [agent(3, skip="yes"), agent(0)]}, "position.agents[0].skip", "true or false"),
    ({"agents": [agent(3, hat=1), agent(0)]}, "position.agents[0].hat", "unknown field"),
    ({"agents": ["x", agent(0)]}, "position.agents[0]", "object"),
    ({"turn": 2}, "position.turn", "at most 1"),
    ({"caution_deck": ["joker"]}, "position.caution_deck[0]", "unknown card"),
    ({"caution_deck": ["lucky_find", "lucky_find"]}, "position.caution_deck", "the game has 1"),
    ({"caution_deck": "trap"}, "position.caution_deck", "list"),
    ({"caution_deck": [["trap"]]}, "position.caution_deck[0]", "unknown card"),
    ({"caution_deck": [{"a": 1}]}, "position.caution_deck[0]", "unknown card"),
    ({"caution_deck": [{}]}, "position.caution_deck[0]", "unknown card"),
    ({"board": 7}, "position.board", "default"),
    ({"dice": 3}, "position.dice", "unknown field"),
])
def test_inconsistent_positions_are_refused_by_name(position, field, words):
    with pytest.raises(BadSetup) as error:
        commando.initial(Setup(seats=2, position=position), random.Random(0))
    assert error.value.field == field and words in str(error.value)


def test_green_square_agents_may_share_and_start_may_be_shared():
    game = Game(agent(61), agent(61), agent(0), agent(0))
    assert [a.square for a in game.state.agents] == [61, 61, 0, 0]


# Notation ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["roll", "map 4", "buy weapon", "buy accessory", "done", "challenge 2",
                                  "no challenge", "commit 1", "commit 0", "swap", "stay", "pay", "retreat",
                                  "use accessory", "accept"])
def test_notation_round_trips(text):
    assert commando.format(commando.parse(text)) == text


def test_notation_forgives_case_and_spaces():
    assert commando.format(commando.parse("  Use   Accessory ")) == "use accessory"


@pytest.mark.parametrize("text", ["", "fly", "map", "map four", "commit -1", "challenge 1 2", "buy map", "map ٣"])
def test_not_notation_is_bad_notation(text):
    with pytest.raises(BadNotation):
        commando.parse(text)


def test_illegal_commands_explain_themselves():
    game = Game(agent(30), agent(0))
    assert "not your turn" in game.refuse("roll", seat=1)
    assert game.refuse("pay") == "'pay' is not possible now: roll the die or use a map"
    game = Game(agent(1), agent(0), deck=["trap"])
    game.play("roll", 2)
    assert game.state.turn == 1, "without accessories the card is simply suffered"


# Views, redaction, describe, render -------------------------------------------------------------------------

VIEW_KEYS = {"game", "options", "board", "seats", "turn", "turns", "phase", "to_act", "pending", "agents",
             "last_die", "fight", "caution", "bought", "challenged", "wall", "result", "position"}


def test_view_shape_is_json_and_hides_the_deck_order():
    game = Game(seats=3, position=False)
    for viewer in (0, 1, None):
        shown = commando.view(game.state, viewer)
        assert set(shown) == VIEW_KEYS
        assert json.loads(json.dumps(shown)) == shown
        assert "order" not in shown["caution"] and shown["caution"]["deck"] == 10
        assert "caution_deck" not in shown["position"]
    assert len(commando.view(game.state, REVEAL_ALL)["caution"]["order"]) == 10
    shuffled = game.events[1]
    assert commando.redact(shuffled, 0).order is None and commando.redact(shuffled, None).order is None
    assert commando.redact(shuffled, REVEAL_ALL).order == shuffled.order


def test_view_pending_decisions():
    game = Game(agent(11), agent(30))
    assert commando.view(game.state, 1)["pending"] == {"decision": "turn", "seats": [0], "maps": 1,
                                                      "prompt": "roll the die or use a map"}
    game.play("roll", 2)
    assert commando.view(game.state, 1)["pending"]["targets"] == [1]
    game.play("challenge 1", 2, 1)
    shown = commando.view(game.state, 1)
    assert shown["pending"]["decision"] == "choice" and shown["fight"]["dice"] == [2, 1]
    assert shown["fight"]["winner"] == 0 and shown["fight"]["commits"] == {"attacker": 0, "defender": 0}


def test_finished_view_shows_everything():
    game = Game(agent(57), agent(0))
    game.play("roll", 2)
    assert "order" in commando.view(game.state, 1)["caution"]
    assert commando.view(game.state, 1)["result"]["winners"] == [0]


def test_every_event_type_is_described_and_round_trips_through_json():
    game = Game(seats=3, position=False, seed=11, options={"max_plies": 200})
    rng = random.Random(4)
    seen = set()
    while commando.status(game.state) == "playing":
        _play_random(game, rng)
    for event in game.events:
        seen.add(event_type(event))
        line = commando.describe(event)
        assert line and line != type(event).__name__
        assert commando.describe(commando.redact(event, 0))
        decoded = msgspec.json.decode(msgspec.json.encode(event), type=type(event))
        assert decoded == event and isinstance(event_data(event), dict)
    assert {"game_created", "deck_shuffled", "dice_rolled", "moved", "turn_passed", "game_ended"} <= seen
    assert len(EVENTS) == len({cls.__struct_config__.tag for cls in EVENTS})


def _play_random(game, rng):
    seat = game.to_act[0]
    cmd = commando.parse(rng.choice(commands(commando.legal(game.state, seat))))
    game.last = commando.decide(game.state, seat, cmd, rng)
    game.state = fold(game.last, game.state)
    game.events = [*game.events, *game.last]


def test_render_shows_the_track_and_the_agents():
    game = Game(agent(12), agent(61))
    text = commando.render(game.state)
    assert "12[0]" in text and "61g[1]" in text and "Seat 1: square 61" in text and "22 → 37" in text


def test_option_board_default_names_the_shipped_board():
    """``"board": "default"`` is accepted as an option, as in a position: the shipped board (stored as null)."""
    events = commando.initial(Setup(seats=2, options={"board": "default"}), random.Random(0))
    state = fold(events)
    assert state.options["board"] is None and state.board.spec == DEFAULT_BOARD_SPEC
    with pytest.raises(BadSetup) as error:
        commando.initial(Setup(seats=2, options={"board": "mine"}), random.Random(0))
    assert error.value.field == "options.board"


def test_MC_1_eight_agents_play_to_the_end():
    rng = random.Random(8)
    state = fold(commando.initial(Setup(seats=8, options={"max_plies": 120}), rng))
    while commando.status(state) != "finished":
        seat = rng.choice(commando.to_act(state))
        text = rng.choice(commands(commando.legal(state, seat)))
        state = fold(commando.decide(state, seat, commando.parse(text), rng), state)
    assert commando.result(state) is not None and len(commando.view(state, 7)["agents"]) == 8
