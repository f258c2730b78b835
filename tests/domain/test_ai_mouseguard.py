"""The Mouse Guard AI: legal play at every level, fair play (view only), budget, strength against easy."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import mouseguard as mg
from domain.ai import mouseguard as ai
from domain.ai.mouseguard_moves import MOVE, Generator
from domain.base import Setup
from domain.mouseguard import turns as mg_turns
from domain.mouseguard.board import CORNERS, EMPTY, EMPTY_BOARD, N_LOCATIONS, N_POINTS, geometry
from domain.mouseguard.cards import CARDS
from domain.mouseguard.events import Captured
from domain.mouseguard.notation import format
from domain.mouseguard.state import board_from_mice
from tests.domain.step_clock import StepClock
from tests.domain.test_mouseguard_helpers import fold

LEVELS = ("easy", "normal", "hard")


def random_position(seed: int, plies: int) -> dict:
    """The position after a random setup and ``plies`` random turns."""
    rng = random.Random(seed)
    state = fold(mg.initial(Setup(seats=2), rng))
    while mg.status(state) == "setup" or (state.plies < plies and mg.status(state) == "playing"):
        seat = mg.to_act(state)[0]
        state = fold(mg.decide(state, seat, mg.parse(rng.choice(mg.legal(state, seat))), rng), state)
    return mg.dump_position(state) if mg.status(state) == "playing" else random_position(seed + 1000, plies)


def play_out(state, levels, seed: int, budget: float = 0.02):
    """Play ``state`` to its end with the AI ``levels`` (by seat), checking every answer is legal."""
    rng = random.Random(seed)
    while mg.status(state) != "finished":
        for seat in mg.to_act(state):
            view = mg.view(state, seat)
            text = ai.choose(view, seat, levels[seat], random.Random(rng.random()), budget, StepClock())
            assert text in mg.legal(state, seat)
            state = fold(mg.decide(state, seat, mg.parse(text), rng), state)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_from_the_setup(level):
    state = fold(mg.initial(Setup(seats=2, options={"max_plies": 16}), random.Random(4)))
    assert mg.status(play_out(state, (level, level), seed=4)) == "finished"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_places_without_a_hand(level):
    """MG-4 deals after the setup: the placement is chosen from a view with an empty hand."""
    state = fold(mg.initial(Setup(seats=2), random.Random(9)))
    for seat in mg.to_act(state):
        view = mg.view(state, seat)
        assert view["hand"] == [] and view["hand_counts"] == {"black": 0, "white": 0}
        text = ai.choose(view, seat, level, random.Random(seat), 0.02, StepClock())
        assert text in mg.legal(state, seat)
        state = fold(mg.decide(state, seat, mg.parse(text), random.Random(0)), state)
    assert mg.status(state) == "playing" and [len(hand) for hand in state.hands] == [3, 3]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed, options", [
    (1, {}), (2, {"edge_points": True, "exit_extra_step": True, "diplomacy_metric": "chebyshev"})])
def test_every_level_plays_legal_moves_from_random_positions(level, seed, options):
    position = random_position(seed, plies=6 + seed * 5)
    state = fold(mg.initial(Setup(seats=2, options={**options, "max_plies": 20}, position=position),
                            random.Random(seed)))
    assert mg.status(play_out(state, (level, "easy"), seed)) == "finished"


def _twin_worlds(seed: int):
    """Two games that differ only in the opponent's hand and the deck order, and the seat that cannot tell."""
    position = random_position(seed, plies=8)
    mine = position["turn"]
    theirs = "white" if mine == "black" else "black"
    rng = random.Random(seed)
    twin = msgspec.json.decode(msgspec.json.encode(position))
    pool = twin["hands"][theirs] + twin["deck"]
    while pool[:3] == twin["hands"][theirs] or sorted(pool[:3]) == sorted(twin["hands"][theirs]):
        rng.shuffle(pool)
    twin["hands"][theirs], twin["deck"] = pool[:3], pool[3:]
    worlds = [fold(mg.initial(Setup(seats=2, position=p), random.Random(seed))) for p in (position, twin)]
    return worlds, worlds[0].seat_of(0 if mine == "black" else 1)


@pytest.mark.parametrize("seed", [3, 8])
def test_fair_play_identical_views_give_identical_answers(seed):
    worlds, me = _twin_worlds(seed)
    assert worlds[0].hands != worlds[1].hands
    views = [mg.view(world, me) for world in worlds]
    assert msgspec.json.encode(views[0]) == msgspec.json.encode(views[1])
    for level in LEVELS:
        answers = {ai.choose(view, me, level, random.Random(seed), 0.05, StepClock()) for view in views}
        assert len(answers) == 1


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_answers_within_the_budget(level):
    state = fold(mg.initial(Setup(seats=2, position=random_position(5, plies=4)), random.Random(5)))
    seat = mg.to_act(state)[0]
    clock = StepClock(0.001)
    text, iterations = ai.search(mg.view(state, seat), seat, level, random.Random(0), 0.05, clock)
    assert text in mg.legal(state, seat)
    assert iterations > 10 and clock.readings[-1] - clock.readings[0] <= 0.05


def test_only_the_seat_to_act_may_ask():
    state = fold(mg.initial(Setup(seats=2, position=random_position(6, plies=2)), random.Random(6)))
    idle = 1 - mg.to_act(state)[0]
    with pytest.raises(ValueError):
        ai.choose(mg.view(state, idle), idle, "hard", random.Random(0), 0.02, StepClock())


@pytest.mark.slow  # a statistical match
def test_hard_beats_easy_in_a_small_seeded_match():
    wins = {"hard": 0, "easy": 0}
    for game in range(4):
        levels = ("hard", "easy") if game % 2 == 0 else ("easy", "hard")
        state = fold(mg.initial(Setup(seats=2, options={"max_plies": 80}), random.Random(100 + game)))
        state = play_out(state, levels, seed=100 + game, budget=0.05)
        for seat in mg.result(state)["winners"]:
            wins[levels[seat]] += 1
    assert wins["hard"] > wins["easy"], wins


def test_hard_leaf_values_are_complementary_and_prefer_the_side_a_mouse_up():
    """``_fitted`` is one winning chance seen from both sides, and a captured mouse lowers its side's value."""
    game = ai.GameRules({"edge_points": False, "diplomacy_metric": "squares", "exit_extra_step": False,
                         "max_plies": None})
    position = random_position(11, plies=6)
    board = board_from_mice(position["mice"])
    for mover in (0, 1):
        even = ai.Sim(board, [[1, 1, 1], [1, 1, 1]], [], [], [0, 0], mover, 6)
        down = ai.Sim(board, [[1, 1, 1], [1, 1, 1]], [], [], [1, 0], mover, 6)  # Black lost a mouse
        for sim in (even, down):
            assert 0.0 < ai.evaluate(game, sim, 0, True) < 1.0
            assert abs(ai.evaluate(game, sim, 0, True) + ai.evaluate(game, sim, 1, True) - 1.0) < 1e-9
        if not ai.threatens(game, board, mover):
            assert ai.evaluate(game, down, 0, True) < ai.evaluate(game, even, 0, True)


OPTION_SETS = [{"edge_points": edge, "exit_extra_step": extra, "diplomacy_metric": metric}
               for edge in (False, True) for extra in (False, True) for metric in ("squares", "chebyshev")]


def rules_turns(options: dict, board: tuple[int, ...], colour: int) -> dict[str, tuple]:
    """``turns.turn_options`` in the generator's terms: text → (kind, card, board after, captured, won)."""
    geo = geometry(options["edge_points"])
    turns = {}
    metric, extra_step = options["diplomacy_metric"], options["exit_extra_step"]
    for option in mg_turns.turn_options(geo, board, colour, metric, extra_step):
        captured = [0, 0]
        for effect in option.effects:
            if isinstance(effect, Captured):
                captured[0 if effect.colour == "black" else 1] += 1
        won = mg_turns.victory(option.board, colour, option.effects) is not None
        card = CARDS.index(option.card) if option.card else -1
        turns[format(option.cmd)] = (MOVE, card, option.board, tuple(captured), won)
    return turns


def assert_same_turns(options: dict, board: tuple[int, ...], colour: int) -> int:
    """The fast generator makes exactly the rules' turns, with the same effects; returns how many."""
    generator = Generator(options["edge_points"], options["diplomacy_metric"], options["exit_extra_step"])
    made = generator.turns(board, colour)
    got = {text: (kind, card, after, tuple(captured), won) for text, kind, card, after, captured, won in made}
    assert len(got) == len(made), "a turn generated twice"
    want = rules_turns(options, board, colour)
    assert got.keys() == want.keys(), (sorted(got.keys() - want.keys()), sorted(want.keys() - got.keys()))
    assert got == want
    return len(got)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_fast_generator_makes_the_rules_turns_along_seeded_random_games(options):
    """MG-6 (a), MG-8…MG-14, MG-16, MG-19: along random games (every option), for both colours, the search's
    generator and ``turns.turn_options`` agree turn for turn (boards after, captures, wins)."""
    positions = turns = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = fold(mg.initial(Setup(seats=2, options={**options, "max_plies": 40}), rng))
        while mg.status(state) != "finished":
            if mg.status(state) == "playing":
                for colour in (0, 1):
                    turns += assert_same_turns(options, state.board, colour)
                    positions += 1
            seat = rng.choice(mg.to_act(state))
            state = fold(mg.decide(state, seat, mg.parse(rng.choice(mg.legal(state, seat))), rng), state)
    assert positions > 100 and turns > positions * 20


@st.composite
def crowded_boards(draw):
    """Random boards (MG-12 respected: no mouse on a stronghold corner) with many mice in runs, next to the
    edge and to strongholds, so that pushes, captures (MG-8), displacements (MG-10) and pull-outs (MG-14)
    are frequent; up to 4 mice a colour, at least one each."""
    options = draw(st.sampled_from(OPTION_SETS))
    geo = geometry(options["edge_points"])
    cells = list(EMPTY_BOARD)
    squares = draw(st.lists(st.integers(N_POINTS, N_LOCATIONS - 1), max_size=4, unique=True))
    for square in squares:
        if all(cells[s] == EMPTY for s in range(N_POINTS, N_LOCATIONS)
               if set(CORNERS[s - N_POINTS]) & set(CORNERS[square - N_POINTS])):
            cells[square] = draw(st.sampled_from((0, 1)))
    closed = Generator.closed(cells)
    free = [p for p in range(N_POINTS) if geo.playable[p] and not closed[p]]
    points = draw(st.lists(st.sampled_from(free), min_size=2, max_size=8, unique=True))
    for point in points:
        cells[point] = draw(st.sampled_from((0, 1)))
    for colour in (0, 1):
        mine = [loc for loc in range(N_LOCATIONS) if cells[loc] == colour]
        for loc in mine[4:]:
            cells[loc] = EMPTY
    if 0 not in cells or 1 not in cells:
        cells[points[0]], cells[points[1]] = 0, 1
    return options, tuple(cells)


@settings(max_examples=300, deadline=None)
@given(case=crowded_boards(), colour=st.sampled_from((0, 1)))
def test_fast_generator_makes_the_rules_turns_on_crowded_boards(case, colour):
    """The same agreement on random crowded boards: Sword pushes of runs and captures at the edge or at a
    stronghold corner, never of one's own mouse (MG-8, MG-12); builds that displace or cannot (MG-9, MG-10);
    Diplomacy swaps and pull-outs of the nearest enemies (MG-14, MG-16); exits (MG-13); wins (MG-19)."""
    options, board = case
    assert_same_turns(options, board, colour)


def test_fast_generator_captures_and_wins():
    """MG-8: a Sword's first step pushes the white mouse on f5 off the playable points, captured; MG-19: a
    Stronghold on A8 wins for Black, and capturing the last enemy mouse wins too."""
    generator = Generator(False, "squares", False)
    board = board_from_mice({"d5": "black", "b7": "black", "f5": "white", "c2": "white"})
    turns = {text: (card, captured, won) for text, _, card, _, captured, won in generator.turns(board, 0)}
    assert turns["d5-e5 sword f5 f6"] == (0, (0, 1), False)
    assert turns["b7-b8 stronghold A8"] == (1, (0, 0), True)
    assert turns["b7-b8 stronghold A7"][2] is False
    alone = board_from_mice({"d5": "black", "f5": "white"})
    assert {text: won for text, _, _, _, _, won in generator.turns(alone, 0)}["d5-e5 sword f5 f6"] is True
    for position in (board, alone):
        assert_same_turns(OPTION_SETS[0], position, 0)
