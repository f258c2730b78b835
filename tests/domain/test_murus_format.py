"""Murus: notation, position JSON, options, events, view, describe and render."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from domain import murus
from domain.base import REVEAL_ALL, BadNotation, BadSetup, Setup
from domain.text import say
from tests.domain.test_murus_helpers import fold, new_game, play

# Notation ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["a1-a3", "h7-f5", "a1xb2", "c3xxd4", "d3*d6", "h1*f1"])
def test_notation_round_trips(text):
    assert murus.format(murus.parse(text)) == text


def test_notation_parts():
    assert murus.parse("c3xxd4") == murus.Command("c3", "xx", "d4")
    assert murus.parse(" A1-A3 ") == murus.Command("a1", "-", "a3")


@pytest.mark.parametrize("text", ["", "a1a3", "a1--a3", "i1-a3", "a0-a2", "a8-a6", "a1-a3x", "a1xxxb2",
                                  "a1+a3", "a 1-a3", "pass", "e2e4"])
def test_notation_rejects_what_is_not_murus(text):
    with pytest.raises(BadNotation, match="not a Murus command"):
        murus.parse(text)


def test_notation_rejects_non_text():
    with pytest.raises(BadNotation):
        murus.parse(None)


# Position ---------------------------------------------------------------------------------------------------

def test_position_round_trips_through_setup():
    state, _ = play(new_game(variant="advanced"), "a1-c1", "h7-h5", "b1*b3")
    position = murus.dump_position(state)
    again = new_game(position["cells"], position["turn"], variant="advanced")
    assert murus.dump_position(again) == position and again.pos == state.pos


def test_position_omitted_fields_take_start_values():
    assert murus.dump_position(new_game()) == murus.dump_position(fold(murus.initial(Setup(2), random.Random(0))))
    cells = {"d4": "RR", "a7": "GG"}
    events = murus.initial(Setup(seats=2, position={"cells": cells}), random.Random(0))
    assert events[0].position == {"turn": "romans", "cells": cells}
    gauls_first = fold(murus.initial(Setup(seats=2, position={"turn": "gauls"}), random.Random(0)))
    assert murus.to_act(gauls_first) == [1] and len(murus.dump_position(gauls_first)["cells"]) == 16


@pytest.mark.parametrize("position, field, message", [
    ([1, 2], "position", "must be an object"),
    ({"turn": "romans", "ply": 3}, "position.ply", "unknown field"),
    ({"turn": "caesar"}, "position.turn", "\"romans\" or \"gauls\""),
    ({"cells": ["a1"]}, "position.cells", "must be an object"),
    ({"cells": {"i9": "R"}}, "position.cells.i9", "not a cell of the board"),
    ({"cells": {"a1": ""}}, "position.cells.a1", "one letter per stone"),
    ({"cells": {"a1": "rr"}}, "position.cells.a1", "one letter per stone"),
    ({"cells": {"a1": 2}}, "position.cells.a1", "one letter per stone"),
    ({"cells": {"a1": "RG"}}, "position.cells.a1", "never mixes"),
    ({"cells": {"a1": "RRR"}}, "position.cells.a1", "limit of 2"),
    ({"cells": {f"{c}{r}": "RR" for c in "abcdefgh" for r in (1, 2)} | {"a3": "R"}}, "position.cells",
     "the Romans have 33 stones"),
    ({"cells": {"a7": "R"}}, "position.cells.a7", "would be over"),
])
def test_position_inconsistencies_are_refused(position, field, message):
    with pytest.raises(BadSetup, match=message) as bad:
        murus.initial(Setup(seats=2, position=position), random.Random(0))
    assert bad.value.field == field


def test_position_seventeen_stones_refused():
    cells = {f"{c}1": "RR" for c in "abcdefgh"} | {"a3": "R", "h7": "G"}
    with pytest.raises(BadSetup, match="17 stones; each side has only 16"):
        new_game(cells)


# Options and seats ------------------------------------------------------------------------------------------

def test_options_default_and_explicit():
    assert new_game().options == {"variant": "basic", "max_plies": None}
    assert new_game(variant="advanced", max_plies=40).options == {"variant": "advanced", "max_plies": 40}


@pytest.mark.parametrize("options, field", [({"variant": "expert"}, "options.variant"),
                                            ({"variant": 2}, "options.variant"),
                                            ({"speed": 1}, "options.speed")])
def test_options_bad_values_refused(options, field):
    with pytest.raises(BadSetup) as bad:
        murus.initial(Setup(seats=2, options=options), random.Random(0))
    assert bad.value.field == field


@pytest.mark.parametrize("seats", [1, 3])
def test_exactly_two_seats(seats):
    with pytest.raises(BadSetup, match="exactly 2 players") as bad:
        murus.initial(Setup(seats=seats), random.Random(0))
    assert bad.value.field == "seats"


# Events -----------------------------------------------------------------------------------------------------

def test_events_round_trip_through_json_and_replay():
    events = murus.initial(Setup(seats=2, options={"variant": "advanced"}), random.Random(0))
    state = fold(events)
    rng = random.Random(5)
    while murus.status(state) == "playing" and state.ply < 60:
        seat = murus.to_act(state)[0]
        new = murus.decide(state, seat, murus.parse(rng.choice(murus.legal(state, seat))), rng)
        events += new
        state = fold(new, state)
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[murus.EVENTS[0] | murus.EVENTS[1] |
                                                                          murus.EVENTS[2] | murus.EVENTS[3]])
    assert decoded == events
    assert fold(decoded) == state
    assert {type(e) for e in events} <= set(murus.EVENTS)


def test_redact_shows_everything_to_everyone():
    _, events = play(new_game({"d3": "RR", "e4": "G", "a7": "GG"}), "d3xe4")
    for viewer in (0, 1, None, REVEAL_ALL):
        assert [murus.redact(e, viewer) for e in events] == events


# View -------------------------------------------------------------------------------------------------------

def test_view_shape_and_perfect_information():
    state, _ = play(new_game(max_plies=50), "c1-c3")
    views = [murus.view(state, viewer) for viewer in (0, 1, None, REVEAL_ALL)]
    assert all(v == views[0] for v in views)
    view = views[0]
    assert json.loads(json.dumps(view)) == view
    assert view == {
        "options": {"variant": "basic", "max_plies": 50}, "turn": "gauls", "cells": view["position"]["cells"],
        "ply": 1, "position": murus.dump_position(state), "last_move": "c1-c3",
        "last_cells": ["c1", "c2", "c3"], "stack_limit": 2, "intruders": [], "status": "playing",
        "result": None,
    }
    assert view["cells"]["c3"] == "R" and "c1" not in view["cells"]


def test_view_of_a_finished_game():
    state, _ = play(new_game({"d5": "RR", "a7": "GG"}), "d5-d7")
    view = murus.view(state, 1)
    assert view["status"] == "finished" and view["result"]["winners"] == [0] and view["intruders"] == ["d7"]


# Describe and render ----------------------------------------------------------------------------------------

NAMES = ("Ana", "Bo")


def test_describe_every_event():
    state = new_game({"d3": "RRR", "e4": "GGG", "g5": "GGG", "d6": "GG", "a1": "RR", "h7": "GG"},
                     variant="advanced")
    created = murus.initial(Setup(2, {"variant": "advanced"}), random.Random(0))[0]
    assert murus.describe(created) == "New game (advanced variant): the Romans move first"
    state, events = play(state, "d3*d6")
    assert [say(murus.describe(e), names=NAMES) for e in events] == ["Ana: d3*d6 (fire)",
                                                                     "Bo's tower on d6 becomes a wall"]
    state, events = play(state, "g5*g3")
    assert say(murus.describe(events[0]), names=NAMES) == "Bo: g5*g3 (fire)"
    state, events = play(state, "d3xxe4")
    assert say(murus.describe(events[0]), names=NAMES) == "Ana: d3xxe4 (double sacrifice)"
    assert say(murus.describe(events[1]), names=NAMES) == "Bo's catapult on e4 becomes a wall"
    state, events = play(new_game({"d3": "RR", "e4": "G", "a7": "GG"}), "d3xe4")
    assert say(murus.describe(events[1])) == "Player 2 loses the wall on e4"
    _, events = play(new_game({"d5": "RR", "a7": "GG"}), "d5-d7")
    assert say(murus.describe(events[0]), names=NAMES) == "Ana: d5-d7"
    assert say(murus.describe(events[1]), names=NAMES) == "Ana wins: Romans reached row 7"
    _, events = play(new_game(max_plies=1), "a1-a3")
    assert murus.describe(events[1]) == "Draw: the limit of 1 move was reached"


def test_render_draws_the_board():
    state, _ = play(new_game(), "a1-a3")
    lines = murus.render(state).splitlines()
    assert lines[0] == "7 " + " ".join(["GG "] * 8)
    assert lines[4] == "3 R   " + " ".join([" . "] * 7)
    assert lines[-1] == "Gauls to move, ply 1"
    over, _ = play(new_game({"d5": "RR", "a7": "GG"}), "d5-d7")
    assert murus.render(over).endswith("Game over. Romans win: Romans reached row 7")
