"""Hard's search for Murus' advanced game (``domain/ai/murus_advanced.py`` over the compiled core of
``domain/ai/murus_advanced_core.py``): its moves, boards and perft are the rules' (``domain.murus.board``), the
evaluation is colour-blind, the search finds the wins the delayed breakthrough gives and answers intruders,
each technique keeps the results it must keep, and the budget is kept."""

from __future__ import annotations

import functools
import gc
import random
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from domain import murus
from domain.ai import murus as ai
from domain.ai import murus_advanced as adv
from domain.ai import murus_advanced_core as core
from domain.murus import board
from tests.domain.step_clock import StepClock
from tests.domain.test_murus_helpers import new_game, play


def random_positions(seed: int, count: int, plies: tuple[int, int] = (0, 80)) -> list[tuple]:
    """Positions of random advanced games (never one already over)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = board.start_position()
        for _ in range(rng.randrange(*plies)):
            child = board.play(pos, rng.choice(board.generate(pos, True)))
            if board.outcome(child, True) is not None:
                break
            pos = child
        found.append(pos)
    return found


def stacked_positions(seed: int, count: int) -> list[tuple]:
    """Random boards of walls, towers and catapults of both sides (every kind of move, double sacrifices too)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        cells = {cell: (rng.randrange(2), rng.randint(1, 3)) for cell in rng.sample(range(board.CELLS), 14)}
        pos = board.from_stacks(cells, rng.randrange(2))
        if board.outcome(pos, True) is None:
            found.append(pos)
    return found


def test_moves_and_boards_agree_with_the_rules():
    kinds = set()
    for pos in random_positions(1, 150) + stacked_positions(2, 150):
        moves = board.generate(pos, True)
        codes = adv.generate(pos)
        assert sorted(adv.to_move(code) for code in codes) == sorted(moves)
        assert len(set(codes)) == len(codes)
        for move in moves:
            kinds.add(move[0])
            assert adv.code_of(move) in codes
            assert adv.play(pos, adv.code_of(move)) == board.play(pos, move)
    assert kinds == {board.DISTRIBUTE, board.SACRIFICE, board.DOUBLE_SACRIFICE, board.FIRE}


def test_perft_is_the_rules_count():
    start = board.start_position()
    assert [adv.perft(start, depth) for depth in range(1, 5)] == [board.perft(start, d, True) for d in range(1, 5)]
    for pos in random_positions(3, 6, (10, 40)) + stacked_positions(4, 6):
        assert adv.perft(pos, 3) == board.perft(pos, 3, True)


def mirrored(pos: tuple) -> tuple:
    """The same game with the colours and the rows swapped (Romans' stacks become the Gauls' on the mirror row)."""
    cells = {(board.ROWS - 1 - i // board.COLS) * board.COLS + i % board.COLS: (owner ^ 1, height)
             for i, (owner, height) in board.stacks(pos).items()}
    return board.from_stacks(cells, pos[board.SIDE] ^ 1)


def test_the_evaluation_is_colour_blind():
    weights = np.array(adv.WEIGHTS, dtype=np.int64)
    scores = set()
    for pos in random_positions(5, 100) + stacked_positions(6, 100):
        score = core.evaluate(*pos, weights)
        assert core.evaluate(*mirrored(pos), weights) == score
        scores.add(score)
    assert len(scores) > 50


def test_an_unanswerable_intrusion_is_worth_more_than_an_answerable_one():
    # A Roman tower on d5 reaches d7 next move: defended by the Gaul tower on e7, undefended once it has left.
    defended = new_game({"d5": "RR", "e7": "GG", "a1": "RR", "h1": "RR"}, variant="advanced").pos
    open_goal = new_game({"d5": "RR", "a6": "GG", "a1": "RR", "h1": "RR"}, variant="advanced").pos
    weights = np.array(adv.WEIGHTS, dtype=np.int64)
    gain = weights[25]
    assert core.evaluate(*open_goal, weights) - core.evaluate(*defended, weights) >= gain - 100


def wins_within(pos: tuple, plies: int) -> bool:
    """The side to move forces a win within ``plies`` plies (odd), by plain minimax over the rules."""
    side = pos[board.SIDE]
    for move in board.generate(pos, True):
        child = board.play(pos, move)
        over = board.outcome(child, True)
        if over is not None:
            if over[0] == side:
                return True
            continue
        if plies > 1 and all(board.outcome(after := board.play(child, reply), True) == (side, board.HELD)
                             or (board.outcome(after, True) is None and wins_within(after, plies - 2))
                             for reply in board.generate(child, True)):
            return True
    return False


def forced_wins(seed: int, count: int) -> list[tuple]:
    """Positions where the side to move forces a win in three plies but not at once."""
    found = []
    for pos in random_positions(seed, 3000, (20, 90)):
        if not wins_within(pos, 1) and wins_within(pos, 3):
            found.append(pos)
            if len(found) == count:
                break
    return found


FORCED = forced_wins(7, 3)


def held_wins(seed: int, count: int) -> list[tuple]:
    """Positions where the side to move wins by an intrusion no answer removes (the stone is held a turn), and
    not at once."""
    found = []
    for pos in random_positions(seed, 3000, (20, 90)):
        side = pos[board.SIDE]
        if wins_within(pos, 1):
            continue
        for move in board.generate(pos, True):
            child = board.play(pos, move)
            if board.outcome(child, True) is None and all(
                    board.outcome(board.play(child, reply), True) == (side, board.HELD)
                    for reply in board.generate(child, True)):
                found.append(pos)
                break
        if len(found) == count:
            break
    return found


HELD = held_wins(12, 2)


def fixed_depth(pos: tuple, depth: int, **switches) -> adv.Search:
    search = adv.Search(lambda: 0.0, float("inf"), **switches)
    search.best = search.best_move(pos, random.Random(0), max_depth=depth)
    return search


def test_there_are_forced_wins_to_find():
    assert len(FORCED) == 3 and len(HELD) == 2


@pytest.mark.parametrize("pos", HELD)
def test_the_threat_extension_finds_a_held_breakthrough_at_one_ply(pos):
    """At one ply only the extension (every answer to an intruder, then the start of the next turn) sees the win;
    the move found really wins."""
    search = fixed_depth(pos, 1)
    assert search.score > adv.WON
    child = board.play(pos, adv.to_move(search.best))
    for reply in board.generate(child, True):
        after = board.play(child, reply)
        assert board.outcome(after, True) == (pos[board.SIDE], board.HELD) or wins_within(after, 1)


@pytest.mark.parametrize("pos", FORCED)
def test_pruning_keeps_the_forced_wins(pos):
    for switches in ({}, {"null_move": False, "futility": False, "reductions": False}):
        assert fixed_depth(pos, 4, **switches).score > adv.WON


def test_the_table_and_the_aspiration_windows_do_not_change_the_result():
    plain = {"null_move": False, "futility": False, "reductions": False}
    saved = 0
    for pos in random_positions(8, 8, (6, 50)):
        with_all = fixed_depth(pos, 4, **plain)
        without_table = fixed_depth(pos, 4, table=False, **plain)
        assert with_all.score == without_table.score == fixed_depth(pos, 4, aspiration=False, **plain).score
        saved += without_table.nodes - with_all.nodes
    assert saved > 0


@functools.cache
def intruded_positions(seed: int, count: int) -> list[tuple]:
    """Positions where the side to move must remove one enemy wall from its home row, and can."""
    found = []
    for pos in random_positions(seed, 4000, (10, 90)):
        m1, _, _, t1, t2, _, side = pos
        intruders = t1 & board.GOAL_ROW[side ^ 1]
        if intruders and not intruders & (intruders - 1) and not intruders & t2 and any(
                board.outcome(board.play(pos, move), True) is None for move in board.generate(pos, True)):
            found.append(pos)
            if len(found) == count:
                break
    return found


def test_an_intruder_inside_the_tree_is_answered_one_ply_deeper():
    positions = intruded_positions(9, 4)
    assert len(positions) == 4
    for pos in positions:
        for interior, searched in ((True, 3), (False, 2)):
            search = adv.Search(lambda: 0.0, float("inf"), interior=interior)
            search.node(pos, 2, -adv.WIN - 1, adv.WIN + 1)
            assert search.stored_depth(pos) == searched


def test_only_the_answers_to_an_intruder_are_played():
    for pos in intruded_positions(9, 4):
        search = fixed_depth(pos, 3)
        child = board.play(pos, adv.to_move(search.best))
        assert board.outcome(child, True) is None  # the intruder is gone
        assert not child[0] & board.GOAL_ROW[child[board.SIDE]]


def test_two_intruders_lose():
    state = new_game({"c1": "G", "f1": "G", "a1": "RR", "h1": "RR", "d7": "GG"}, variant="advanced",
                     turn="romans")
    search = fixed_depth(state.pos, 3)
    assert search.score < -adv.WON


def test_the_budget_is_kept_and_the_clock_is_read():
    for pos in random_positions(11, 3, (2, 8)):
        clock = StepClock(0.001)
        search = adv.Search(clock, 0.05)
        code = search.best_move(pos, random.Random(0))
        assert adv.to_move(code) in board.generate(pos, True)
        assert clock.now <= 0.05 and len(clock.readings) > 3 and search.depth_reached >= 2


def test_hard_plays_the_compiled_search_in_the_advanced_game(monkeypatch):
    """``hard`` in the advanced game answers with the compiled search's move."""
    state, _ = play(new_game(variant="advanced"), "a1-c1", "h7-h5")
    chosen = []
    real = adv.Search.best_move

    def spy(self, pos, rng, max_depth=adv.MAX_PLY):
        chosen.append(real(self, pos, rng, max_depth))
        return chosen[-1]

    monkeypatch.setattr(adv.Search, "best_move", spy)
    text = ai.choose(murus.view(state, 0), 0, "hard", random.Random(0), 0.05, StepClock(0.001))
    assert len(chosen) == 1 and text in murus.legal(state, 0)
    assert ai.move_text(adv.to_move(chosen[0])) == text


def test_pruning_and_reductions_reach_a_depth_with_fewer_nodes():
    positions = random_positions(13, 5, (6, 30))
    full = sum(fixed_depth(pos, 5).nodes for pos in positions)
    plain = sum(fixed_depth(pos, 5, null_move=False, futility=False, reductions=False).nodes for pos in positions)
    assert full < plain


def test_searches_in_threads_keep_to_their_own_tables():
    """The compiled search runs without the GIL: searches in threads at once find what they find alone."""
    positions = random_positions(14, 3, (6, 30))
    alone = [(s.best, s.score, s.nodes) for s in (fixed_depth(pos, 5) for pos in positions)]
    together: dict[int, tuple] = {}

    def run(i: int) -> None:
        search = fixed_depth(positions[i], 5)
        together[i] = (search.best, search.score, search.nodes)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(positions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [together[i] for i in range(len(positions))] == alone


def test_a_table_is_held_by_one_decision_at_a_time():
    """Two decisions at once never share a table; one that is over leaves its table to the next, with a new
    generation (its entries then count as empty)."""
    first = core.Core(adv.WEIGHTS, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    second = core.Core(adv.WEIGHTS, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    assert first.table is not second.table and first.number != second.number
    assert first.table.nbytes == core.TABLE_BYTES
    table, generation = first.table, first.state[core.GENERATION]
    del first
    gc.collect()
    third = core.Core(adv.WEIGHTS, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    assert third.table is table and third.state[core.GENERATION] == generation + 1


def test_the_table_keeps_a_board_until_its_window_is_full():
    table, generation = core.table()
    boards = [pos[:6] for pos in random_positions(15, 40)]
    for i, planes in enumerate(boards):
        core.store(table, generation, *planes, 0, 3 + i % 5, 100 + i, 0, 65)
    for i, planes in enumerate(boards):
        slot = core.probe(table, generation, *planes, 0)
        assert slot >= 0 and table[slot, 7] == 100 + i
        assert core.probe(table, generation, *planes, 1) == -1  # the other side to move: another board
        assert core.probe(table, generation + 1, *planes, 0) == -1
    core.store(table, generation, *boards[0], 0, 9, -5, 1, 65)
    slot = core.probe(table, generation, *boards[0], 0)
    assert table[slot, 7] == -5 and (table[slot, 6] >> 3) & 255 == 9


# The strong reference engine (bench/murus_advanced_strong.py) -------------------------------------------------

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def strong():
    sys.path.insert(0, str(BENCH))
    try:
        import murus_advanced_strong
    finally:
        sys.path.remove(str(BENCH))
    return murus_advanced_strong


def test_the_strong_reference_moves_by_the_rules(strong):
    for pos in random_positions(16, 100) + stacked_positions(17, 100):
        moves = strong.generate(pos)
        assert sorted(strong.to_move(move) for move in moves) == sorted(board.generate(pos, True))
        for move in moves:
            assert strong.play(pos, move) == board.play(pos, strong.to_move(move))


@pytest.mark.parametrize("pos", HELD)
def test_the_strong_reference_finds_the_held_breakthroughs(strong, pos):
    engine = strong.Engine(StepClock(0.00001), float("inf"))
    engine.search(pos, random.Random(0))
    assert engine.score > strong.WON


@pytest.mark.slow  # a bench's smoke run
def test_the_strong_reference_bench_runs_quick():
    done = subprocess.run([sys.executable, str(BENCH / "murus_advanced_strong.py"), "--quick", "--clock", "cpu"],
                          cwd=BENCH.parent, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert any(line.startswith("|-") for line in done.stdout.splitlines()), done.stdout
