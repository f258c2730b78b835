"""Foraging Squirrels AI: legal to the end at every level, fair play (the view is the only input), strength."""

from __future__ import annotations

import copy
import random
import time
from itertools import islice

import pytest

import domain.squirrels as game
from domain.ai import choose as choose_any
from domain.ai import squirrels as ai
from domain.base import Setup
from tests.domain.step_clock import StepClock


def random_position(seed: int, seats: int, packs: str = "set", plies: int | None = None):
    """A fresh deal and a few random legal turns (digs included)."""
    rng = random.Random(seed)
    state = None
    for event in game.initial(Setup(seats, {"packs": packs}), rng):
        state = game.evolve(state, event)
    for _ in range(rng.randrange(8) if plies is None else plies):
        if game.status(state) != "playing":
            break
        for event in game.decide(state, state.turn, game.parse(rng.choice(game.legal(state, state.turn))), rng):
            state = game.evolve(state, event)
    return state


def play_out(state, levels: list[str], seed: int, budget: float = 0.02, clock=None):
    rng = random.Random(seed)
    while game.status(state) == "playing":
        seat = state.turn
        text = ai.choose(game.view(state, seat), seat, levels[seat], rng, budget, clock or StepClock())
        assert text in game.legal(state, seat), text
        for event in game.decide(state, seat, game.parse(text), rng):
            state = game.evolve(state, event)
    return state


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_level_plays_legal_moves_to_the_end(level, seats):
    for seed in range(2):
        state = random_position(seed * 10 + seats, seats, packs="draft" if seed else "set")
        final = play_out(state, [level] * seats, seed)
        assert game.status(final) == "finished"


def test_real_clock_and_the_shared_entry_point():
    state = random_position(5, 3, plies=2)
    text = choose_any("squirrels", game.view(state, state.turn), state.turn, "hard", random.Random(1), 0.02,
                      time.perf_counter)
    assert text in game.legal(state, state.turn)


def test_search_actions_are_all_legal_including_digs():
    digs = 0
    for seed in range(30):
        state = random_position(seed, 2 + seed % 3, plies=1 + seed % 12)
        if game.status(state) != "playing":
            continue
        view = game.view(state, state.turn)
        rules, sim = ai.rebuild(view)
        texts = [ai.notation(a) for a in rules.actions(sim)]
        assert set(texts) <= set(game.legal(state, state.turn))
        assert len(texts) == len(set(texts))
        has_dig = any("dig" in text for text in texts)
        assert view["can_dig"][state.turn] or not has_dig
        digs += has_dig
    assert digs >= 5


def test_fair_play_the_view_is_the_only_input():
    live = random_position(21, 3, plies=4)
    # The same table reached another way: loaded from its position, with no history at all.
    loaded = None
    for event in game.initial(Setup(3, {}, game.dump_position(live)), random.Random(99)):
        loaded = game.evolve(loaded, event)
    seat = live.turn
    view_live, view_loaded = game.view(live, seat), game.view(loaded, seat)
    keys = set(game.dump_position(live)) | {"options", "opened"}
    assert {k: view_live[k] for k in keys} == {k: view_loaded[k] for k in keys}
    for level in ("normal", "hard"):
        before = copy.deepcopy(view_live)
        first = ai.choose(view_live, seat, level, random.Random(7), 0.2, StepClock())
        assert view_live == before, "the AI must not change its input"
        assert ai.choose(view_loaded, seat, level, random.Random(7), 0.2, StepClock()) == first
        assert ai.choose(copy.deepcopy(view_live), seat, level, random.Random(7), 0.2, StepClock()) == first


def test_the_ai_refuses_to_play_out_of_turn():
    state = random_position(3, 2, plies=0)
    other = 1 - state.turn
    with pytest.raises(ValueError):
        ai.choose(game.view(state, other), other, "easy", random.Random(0), 0.02, StepClock())


@pytest.mark.slow  # a statistical match
def test_hard_beats_easy_in_a_seeded_match():
    score = {"hard": 0.0, "easy": 0.0}
    for seed in range(8):
        levels = ["hard", "easy"] if seed % 2 == 0 else ["easy", "hard"]
        state = random_position(100 + seed, 2, plies=0)
        result = game.result(play_out(state, levels, seed, budget=0.3))
        for seat in result["winners"]:
            score[levels[seat]] += 1 / len(result["winners"])
    assert score["hard"] >= 5, score


# The exact endgame search of hard (two seats) ---------------------------------------------------------------

def _outcome(rules, sim, seat) -> int:
    """The result of a finished game for ``seat``: +1 win, 0 shared win, -1 loss."""
    points = rules.points(sim)
    return (points[seat] > points[1 - seat]) - (points[seat] < points[1 - seat])


def _worth(rules, sim, action) -> int:
    """The exact value of playing ``action`` at ``sim``, for the seat playing it."""
    child = sim.copy()
    rules.play(child, action)
    return _outcome(rules, child, sim.turn) if child.over else -_minimax(rules, child)


def _minimax(rules, sim) -> int:
    """The outcome for the seat to move (+1 win, 0 shared win, -1 loss) by plain minimax over the tree actions."""
    return max(_worth(rules, sim, action) for action in rules.actions(sim))


def _hard_action(state, rules, sim):
    """The command hard plays at ``state`` and its tree action."""
    text = ai.choose(game.view(state, state.turn), state.turn, "hard", random.Random(1), 0.2, StepClock(0.0001))
    return text, next(a for a in rules.actions(sim) if ai.notation(a) == text)


def _cards(state) -> int:
    return sum(cell != "squirrel" for cell in game.view(state, state.turn)["grid"].values())


def _walk(deal: int, seed: int, stop, plain: bool = False):
    """Random turns (without digs if ``plain``) from a seeded two-seat deal until ``stop(state)``; None if the game
    ended first."""
    state = random_position(deal, 2, plies=0)
    rng = random.Random(seed)
    while game.status(state) == "playing":
        if stop(state):
            return state
        text = rng.choice([t for t in game.legal(state, state.turn) if not (plain and "dig" in t)])
        for event in game.decide(state, state.turn, game.parse(text), rng):
            state = game.evolve(state, event)
    return None


def _first(count: int, walks) -> list:
    return list(islice((state for state in walks if state is not None), count))


def _endgames(count: int, max_cards: int):
    """Two-seat positions with at most ``max_cards`` food cards left, from seeded random games."""
    return _first(count, (_walk(300 + seed, seed, lambda state: _cards(state) <= max_cards)
                          for seed in range(200)))


def _first_player_endgame(seed: int, max_cards: int):
    """An endgame with the first player to move while the second still holds its dig (FS-7): plain random turns
    from a seeded deal until at most ``max_cards`` are left (None if the game ended before)."""
    return _walk(700 + seed, seed, lambda state: _cards(state) <= max_cards and state.turn == state.first,
                 plain=True)


def _first_player_endgames(count: int, max_cards: int):
    return _first(count, (_first_player_endgame(seed, max_cards) for seed in range(20 * count)))


def test_the_solver_agrees_with_plain_minimax():
    values = set()
    for state in _endgames(12, max_cards=7):
        rules, sim = ai.rebuild(game.view(state, state.turn))
        value, action = ai.Solver(rules, StepClock(), float("inf")).best(sim)
        assert value == _minimax(rules, sim)
        assert _worth(rules, sim, action) == value, "the solver's action reaches the value it claims"
        values.add(value)
    assert len(values) >= 2, "the sample should hold different outcomes"


def test_hard_never_gives_away_a_proven_result():
    for state in _endgames(8, max_cards=9):
        rules, sim = ai.rebuild(game.view(state, state.turn))
        best = _minimax(rules, sim)
        text, action = _hard_action(state, rules, sim)
        value = _worth(rules, sim, action)
        assert value == best, f"hard played {text!r} worth {value}, but {best} was there"


def test_fs4_fs5_search_moves_are_exactly_the_distinct_runs():
    """Rules.moves finds one move per different run a colour collects (FS-4, FS-5), checked colour by colour."""
    for seed in range(40):
        state = random_position(400 + seed, 2 + seed % 3, plies=seed % 10)
        if game.status(state) != "playing":
            continue
        rules, sim = ai.rebuild(game.view(state, state.turn))
        expected = set()
        for d in range(4):
            cards = [i for i in ai.RAYS[sim.sq][d] if sim.grid[i] >= 0]
            for letter in ai.LETTERS:
                n = 0
                while n < len(cards) and rules.cards.mask[sim.grid[cards[n]]] & ai.BITS[letter]:
                    n += 1
                if n:
                    expected.add((d, tuple(cards[:n])))
        found = [(d, cells) for d, _, cells in rules.moves(sim)]
        assert len(found) == len(set(found)) and set(found) == expected
        for d, letter, _cells in rules.moves(sim):
            assert f"{letter} {ai.DIRECTIONS[d]}" in game.legal(state, state.turn)


def test_fs7_the_game_without_the_opponents_dig_bounds_the_game_from_above():
    """Hard's hope: taking the dig from the opponent only takes options from it."""
    values = set()
    for state in _first_player_endgames(8, max_cards=9):
        rules, sim = ai.rebuild(game.view(state, state.turn))
        hopeful = sim.without_dig(1 - sim.turn)
        full = _minimax(rules, sim)
        hope = ai.Solver(rules, StepClock(), float("inf")).best(hopeful)[0]
        assert full <= hope == _minimax(rules, hopeful)
        values.add((full, hope))
    assert len(values) >= 2, values


def test_fs7_hard_as_first_player_keeps_a_proven_result_and_hopes_for_more():
    """Against a dig still held, hard never trades what the game itself proves; when the game is lost whatever it
    does, it plays a move that still wins if the opponent never digs, if there is one."""
    hoped = 0
    for state in _first_player_endgames(10, max_cards=9):
        rules, sim = ai.rebuild(game.view(state, state.turn))
        text, action = _hard_action(state, rules, sim)
        value = _worth(rules, sim, action)
        assert value == _minimax(rules, sim), f"hard played {text!r} worth {value}"
        hopeful = sim.without_dig(1 - state.turn)
        if value < 0 and _minimax(rules, hopeful) > 0:
            assert _worth(rules, hopeful, action) == 1, f"{text!r} gives up the hope"
            hoped += 1
    assert hoped >= 1, "the sample should hold lost positions with a hope"


@pytest.mark.parametrize("seed", [2043, 2061, 2062])
def test_fs7_hard_never_trades_a_proven_shared_win_for_a_hope(seed):
    """Positions (found by search) where the game is a proven shared win for the first player and some move would
    win if the opponent never dug, but loses to its dig: hard keeps the shared win."""
    state = _first_player_endgame(seed, max_cards=9)
    rules, sim = ai.rebuild(game.view(state, state.turn))
    assert _minimax(rules, sim) == 0
    hopeful = sim.without_dig(1 - state.turn)
    tempting = [ai.notation(action) for action in rules.actions(sim)
                if _worth(rules, sim, action) < 0 < _worth(rules, hopeful, action)]
    assert tempting, "the position should tempt"
    text, action = _hard_action(state, rules, sim)
    assert _worth(rules, sim, action) == 0, (text, tempting)


def test_fs7_hard_keeps_its_dig_until_the_solver_can_place_it():
    for seed in range(30):
        state = random_position(500 + seed, 2, plies=1)
        view = game.view(state, state.turn)
        if not view["can_dig"][state.turn] or sum(cell != "squirrel" for cell in view["grid"].values()) <= 20:
            continue
        text = ai.choose(view, state.turn, "hard", random.Random(seed), 0.1, StepClock(0.0005))
        assert "dig" not in text, text


def test_fs7_a_playouts_closing_dig_ends_a_game_it_leads_or_reopens_one_it_would_not_win():
    seen = set()
    for state in _first_player_endgames(40, max_cards=8):
        rules, sim = ai.rebuild(game.view(state, state.turn))
        rules.play(sim, (None, *rules.moves(sim)[0], None))  # the first player's turn: the digger is to move
        if sim.over:
            continue
        for _, _, cells in rules.moves(sim):
            after = sim.copy()
            rules.collect(after, cells)
            if not rules.can_dig(after):
                continue
            dig = rules.closing_dig(after)
            if dig is None:
                continue
            frm, to = dig
            assert after.grid[frm] >= 0 and after.grid[to] == ai.EMPTY
            points = rules.points(after)
            leads = points[after.turn] > points[1 - after.turn]
            rules.dig(after, frm, to)
            ends = not any(after.grid[i] >= 0 for i in ai.LINES[after.sq])
            assert ends == leads, (points, dig)
            seen.add(ends)
    assert seen == {True, False}, seen


# Three and four seats -------------------------------------------------------------------------------------------

def _card(name: str, colors: str, shiny: bool = False) -> dict:
    return {"name": name, "rarity": "rare" if shiny else "common", "colors": colors, "foil": shiny,
            "squirrel": False}


def _closing_position(seats: int = 3):
    """``seats`` seats, seat 0 to move, leading 9-9-6(-5) (seat 1 has the foils and rares). ``W up`` takes c4 and
    empties the squirrel's row and column: the game ends and seat 0 wins (FS-8). ``G right`` grabs more (a rare
    foil on d3), but seat 1 then takes d2 and d1 and wins whatever follows."""
    cards, grid = {}, {"c3": "squirrel"}
    piles: list[list[int]] = [[] for _ in range(seats)]

    def put(card: dict, cell: str | None = None, seat: int | None = None) -> None:
        cid = len(cards) + 1
        cards[str(cid)] = card
        if cell:
            grid[cell] = cid
        else:
            piles[seat].append(cid)

    put(_card("Plain W", "W"), "c4")
    put(_card("Shiny G", "G", shiny=True), "d3")
    put(_card("Blue 1", "U"), "d2")
    put(_card("Blue 2", "U"), "d1")
    put(_card("Red", "R"), "e1")
    for seat, count in ((0, 7), (1, 5), (2, 4), (3, 3))[:seats]:
        for n in range(count):
            put(_card(f"Pile {seat}-{n}", "B", shiny=seat == 1 and n < 2), seat=seat)
    state = None
    position = {"turn": 0, "first": 0, "dug": [False] + [True] * (seats - 1), "grid": grid, "cards": cards,
                "piles": piles}
    for event in game.initial(Setup(seats, {}, position), random.Random(0)):
        state = game.evolve(state, event)
    return state


def _after(rules, sim, action):
    after = sim.copy()
    rules.play(after, action)
    return after


def _max_n(rules, sim) -> list[float]:
    """The rewards of plain max-n play to the end (every seat maximises its own reward)."""
    if sim.over:
        return rules.reward(sim)
    return max((_max_n(rules, _after(rules, sim, action)) for action in rules.actions(sim)),
               key=lambda reward: reward[sim.turn])


@pytest.mark.parametrize("seats", [3, 4])
def test_fs8_hard_closes_a_game_it_leads(seats):
    """Easy grabs the rare foil; hard's max-n tree sees seat 1's answer to ``G right`` and closes the game it
    leads instead (with three seats and with four)."""
    state = _closing_position(seats)
    view = game.view(state, 0)
    rules, sim = ai.rebuild(view)
    ends = {}
    for action in rules.actions(sim):
        after = sim.copy()
        rules.play(after, action)
        ends[ai.notation(action)] = after.over
    assert ends == {"W up": True, "G right": False}
    shares = {ai.notation(action): _max_n(rules, _after(rules, sim, action))[0] for action in rules.actions(sim)}
    assert shares["W up"] > 1 and shares["G right"] < 0.5, shares
    assert ai.choose(view, 0, "easy", random.Random(0), 0.1, StepClock()) == "G right", "the grab tempts"
    for seed in range(4):
        assert ai.choose(view, 0, "hard", random.Random(seed), 0.2, StepClock()) == "W up"
