"""Hard's basic-game Murus search (``domain/ai/murus_search.py``, run by the compiled core of
``domain/ai/murus_core.py``): its board and moves agree with the rules, the compiled search and evaluation are
the pure-Python ones (the oracle ``PySearch`` of ``tests/oracles/murus_pysearch.py``: the same scores, moves and
nodes at fixed depths), each search technique keeps the results it must keep, forced wins are found, the budget
is kept; and the strong reference engine of ``bench/murus_strong.py`` plays by the same rules."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from domain.ai import murus_core as core
from domain.ai import murus_search as fast
from domain.murus import board
from tests.domain.step_clock import StepClock
from tests.domain.test_murus_helpers import new_game
from tests.oracles.murus_pysearch import PySearch

BENCH = Path(__file__).resolve().parents[2] / "bench"


def random_positions(seed: int, count: int, plies: tuple[int, int] = (0, 60)) -> list[tuple]:
    """Positions of random basic games (never one already over)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = board.start_position()
        for _ in range(rng.randrange(*plies)):
            child = board.play(pos, rng.choice(board.generate(pos, False)))
            if board.outcome(child, False) is not None:
                break
            pos = child
        found.append(pos)
    return found


def wins_within(pos: tuple, plies: int) -> bool:
    """The side to move forces a win (breakthrough or stalemate) within ``plies`` plies (odd), by plain minimax."""
    for move in board.generate(pos, False):
        child = board.play(pos, move)
        if board.outcome(child, False) is not None:  # the game ends after the mover's move: the mover won
            return True
        if plies > 1 and all(board.outcome(after := board.play(child, reply), False) is None
                             and wins_within(after, plies - 2) for reply in board.generate(child, False)):
            return True
    return False


def fixed_depth(pos: tuple, depth: int, kind=fast.Search, **switches):
    search = kind(lambda: 0.0, float("inf"), **switches)
    search.best = search.best_move(fast.compact(pos), random.Random(0), max_depth=depth)
    return search


def test_moves_and_boards_agree_with_the_rules():
    buffer = np.zeros(core.MOVE_ROOM, dtype=np.int64)
    for pos in random_positions(1, 120):
        compact = fast.compact(pos)
        moves = board.generate(pos, False)
        assert sorted(fast.to_move(code) for code in fast.generate(compact)) == sorted(moves)
        count = core.generate(*compact[:4], buffer)
        assert list(buffer[:count]) == fast.generate(compact)  # the compiled generator, in the same order
        for move in moves:
            assert fast.play(compact, fast.code_of(move)) == fast.compact(board.play(pos, move))


def test_breakers_are_the_towers_that_win_next_move():
    for pos in random_positions(2, 150):
        m1, m2, _, t1, _, _, side = pos
        winning = {frm for kind, frm, to in board.generate(pos, False)
                   if board.outcome(board.play(pos, (kind, frm, to)), False) == (side, board.BREAKTHROUGH)}
        found = fast.breakers(m2, board.FULL & ~(t1 | m2), side)
        assert {i for i in range(board.CELLS) if found >> i & 1} == winning
        assert core.breakers(m2, board.FULL & ~(t1 | m2), side) == found


def test_the_evaluation_is_the_weights_over_the_features():
    """``PySearch.evaluate``'s fast path (``_plain``, for weights without the threat-row features), its general
    one (``_side``) and the compiled evaluation all score the weights over ``features``, the side to move's bonus
    and the double threat (so the analysis's calibration of hard's scores holds for the compiled search)."""
    some_threat_row = fast.WEIGHTS[:15] + (7, 0, 0, 0) + fast.WEIGHTS[19:]
    for pos in random_positions(12, 200):
        compact = fast.compact(pos)
        m1, m2, t1, t2, side = compact
        if fast.breakers(m2, board.FULL & ~(t1 | m2), side):
            continue  # the search never evaluates a position the side to move wins at once
        double = fast.breakers(t2, board.FULL & ~(m1 | t2), side ^ 1).bit_count() > 1
        for weights in (fast.WEIGHTS, some_threat_row):
            expected = sum(w * f for w, f in zip(weights, fast.features(compact))) + weights[19]
            search = PySearch(lambda: 0.0, float("inf"), weights=weights)
            assert search.plain == (weights == fast.WEIGHTS)
            assert search.evaluate(compact) == expected - fast.DOUBLE_THREAT * double
            assert fast.Search(lambda: 0.0, float("inf"), weights=weights).evaluate(compact) == \
                expected - fast.DOUBLE_THREAT * double


SWITCHES = ({}, {"null_move": False}, {"futility": False}, {"reductions": False}, {"table": False},
            {"aspiration": False}, {"interior": False}, {"weights": fast.HAND})


@pytest.mark.parametrize("switches", SWITCHES)
def test_the_compiled_search_is_the_python_search(switches):
    """At fixed depths the compiled search visits the same number of nodes and finds the same score and move as
    the pure-Python one, with each technique on and off: the same tree."""
    for i, pos in enumerate(random_positions(20, 8, (4, 44))):
        depth = 4 + i % 2
        python, compiled = (fixed_depth(pos, depth, kind=kind, **switches)
                            for kind in (PySearch, fast.Search))
        assert (compiled.best, compiled.score, compiled.nodes, compiled.depth_reached) == \
            (python.best, python.score, python.nodes, python.depth_reached)


def test_the_compiled_search_is_the_python_search_deeper():
    for pos in random_positions(22, 5, (8, 30)):
        python, compiled = (fixed_depth(pos, 7, kind=kind) for kind in (PySearch, fast.Search))
        assert (compiled.best, compiled.score, compiled.nodes) == (python.best, python.score, python.nodes)


def forced_wins(seed: int, count: int) -> list[tuple]:
    """Positions where the side to move forces a win in three plies but not in one."""
    found = []
    for pos in random_positions(seed, 2000, (10, 50)):
        if not wins_within(pos, 1) and wins_within(pos, 3):
            found.append(pos)
            if len(found) == count:
                break
    return found


FORCED = forced_wins(3, 6)


def test_there_are_forced_wins_to_find():
    assert len(FORCED) == 6


@pytest.mark.parametrize("pos", FORCED)
def test_the_threat_quiescence_finds_a_win_beyond_the_horizon(pos):
    """At one ply, only the quiescence (a move that makes a breakthrough threat) and the threat extension (every
    reply to it) see a win three plies deep; the move found really wins."""
    search = fast.Search(lambda: 0.0, float("inf"))
    code = search.best_move(fast.compact(pos), random.Random(0), max_depth=1)
    assert search.score > fast.WON
    child = board.play(pos, fast.to_move(code))
    assert all(wins_within(board.play(child, reply), 1) for reply in board.generate(child, False))


@pytest.mark.parametrize("pos", FORCED)
def test_null_moves_and_futility_keep_the_forced_wins(pos):
    for switches in ({}, {"null_move": False, "futility": False}):
        assert fixed_depth(pos, 4, **switches).score > fast.WON


def test_the_table_does_not_change_the_result_and_saves_nodes():
    saved = 0
    for pos in random_positions(4, 12, (6, 40)):
        plain = {"null_move": False, "futility": False, "reductions": False}
        with_table, without = fixed_depth(pos, 4, **plain), fixed_depth(pos, 4, table=False, **plain)
        assert with_table.score == without.score
        saved += without.nodes - with_table.nodes
    assert saved > 0


def test_aspiration_windows_do_not_change_the_result():
    plain = {"null_move": False, "futility": False, "reductions": False}
    for pos in random_positions(9, 8, (6, 40)):
        assert fixed_depth(pos, 5, **plain).score == fixed_depth(pos, 5, aspiration=False, **plain).score


def threatened_positions(seed: int, count: int) -> list[tuple]:
    """Positions where the side to move faces a breakthrough next turn and has none of its own."""
    found = []
    for pos in random_positions(seed, 3000, (10, 50)):
        m1, m2, _, t1, t2, _, side = pos
        threatened = fast.breakers(t2, board.FULL & ~(m1 | t2), side ^ 1)
        if threatened and not fast.breakers(m2, board.FULL & ~(t1 | m2), side):
            found.append(pos)
            if len(found) == count:
                break
    return found


def test_a_threat_inside_the_tree_is_searched_one_ply_deeper():
    positions = threatened_positions(10, 5)
    assert len(positions) == 5
    for pos in positions:
        compact = fast.compact(pos)
        for interior, searched in ((True, 3), (False, 2)):
            search = PySearch(lambda: 0.0, float("inf"), interior=interior)
            search._search(compact, 2, -fast.WIN - 1, fast.WIN + 1, 1, 0, 0)
            assert search.table[compact][0] == searched
            compiled = fast.Search(lambda: 0.0, float("inf"), interior=interior)
            compiled.node(compact, 2, -fast.WIN - 1, fast.WIN + 1)
            assert compiled.stored_depth(compact) == searched


def test_pruning_and_reductions_reach_a_depth_with_fewer_nodes():
    positions = random_positions(5, 6, (8, 20))
    full = sum(fixed_depth(pos, 5).nodes for pos in positions)
    plain = sum(fixed_depth(pos, 5, null_move=False, futility=False, reductions=False).nodes for pos in positions)
    assert full < plain


@pytest.mark.parametrize("kind", [fast.Search, PySearch])
def test_a_decision_keeps_its_budget_on_a_fake_clock(kind):
    """The injected clock governs the compiled search too (it reads it every 2,048 nodes, the Python one every
    256): the decision ends by the deadline, with a move of a completed iteration or of the one cut short."""
    for pos in random_positions(6, 5, (4, 30)):
        clock = StepClock(0.0005)
        search = kind(clock, clock() + 0.02)
        code = search.best_move(fast.compact(pos), random.Random(0))
        assert clock.now <= 0.02 + 0.0005 and search.depth_reached >= 1
        assert code in fast.generate(fast.compact(pos))


def test_searches_in_threads_keep_to_their_own_tables():
    """The compiled search runs without the GIL: searches in threads at once find what they find alone."""
    positions = random_positions(23, 4, (6, 30))
    alone = [(s.best, s.score, s.nodes) for s in (fixed_depth(pos, 6) for pos in positions)]
    together: dict[int, tuple] = {}

    def run(i: int) -> None:
        search = fixed_depth(positions[i], 6)
        together[i] = (search.best, search.score, search.nodes)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(positions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [together[i] for i in range(len(positions))] == alone


def test_a_table_is_held_by_one_decision_at_a_time():
    """Two decisions at once never share a transposition table; one that is over leaves its table to the next,
    with a new generation (its entries then count as empty)."""
    first = core.Core(fast.WEIGHTS, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    second = core.Core(fast.WEIGHTS, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    assert first.table is not second.table and first.number != second.number
    table, generation = first.table, first.state[core.GENERATION]
    del first
    gc.collect()
    third = core.Core(fast.WEIGHTS, null_move=True, futility=True, reductions=True, table_on=True, interior=3)
    assert third.table is table and third.state[core.GENERATION] == generation + 1


def test_the_table_keeps_a_board_until_its_window_is_full():
    """The compiled table behaves as the Python dict while a probe window has room (found, overwritten, added);
    another decision's entries count as empty."""
    table, generation = core.table()
    boards = [fast.compact(pos)[:4] for pos in random_positions(21, 40)]
    for i, planes in enumerate(boards):
        core.store(table, generation, *planes, 0, 3 + i % 5, 100 + i, 0, 65)
    for i, planes in enumerate(boards):
        slot = core.probe(table, generation, *planes, 0)
        assert slot >= 0 and table[slot, 5] == 100 + i
        assert core.probe(table, generation, *planes, 1) == -1  # the other side to move: another board
        assert core.probe(table, generation + 1, *planes, 0) == -1
    core.store(table, generation, *boards[0], 0, 9, -5, 1, 65)
    slot = core.probe(table, generation, *boards[0], 0)
    assert table[slot, 5] == -5 and (table[slot, 4] >> 3) & 255 == 9


def test_blocks_a_breakthrough_threat():
    # The Gaul tower on a3 threatens a3-a1 (the wall on c1 stops a3-c1): only c2-a2 saves the Romans.
    pos = new_game({"a3": "GG", "h7": "GG", "c1": "R", "c2": "RR", "h1": "RR"}).pos
    code = fast.Search(lambda: 0.0, float("inf")).best_move(fast.compact(pos), random.Random(0), max_depth=4)
    assert fast.to_move(code) == (board.DISTRIBUTE, 10, 8)  # c2-a2


# The strong reference engine (bench/murus_strong.py) ----------------------------------------------------------

@pytest.fixture(scope="module")
def strong():
    sys.path.insert(0, str(BENCH))
    try:
        import murus_strong
    finally:
        sys.path.remove(str(BENCH))
    return murus_strong


def test_the_strong_reference_moves_by_the_rules(strong):
    for pos in random_positions(7, 120):
        compact = strong.from_board(pos)
        moves = board.generate(pos, False)
        assert sorted(strong.to_move(code) for code in strong.generate(compact)) == sorted(moves)
        for move in moves:
            assert strong.play(compact, strong.from_move(move)) == strong.from_board(board.play(pos, move))


@pytest.mark.parametrize("index", range(4))
def test_the_strong_reference_finds_the_forced_wins(strong, index):
    pos = FORCED[index]
    engine = strong.Engine(StepClock(0.00001), float("inf"))
    engine.search(strong.from_board(pos), random.Random(0))
    assert engine.score > strong.WON


@pytest.mark.slow  # a bench's smoke run
def test_the_strong_reference_bench_runs_quick():
    done = subprocess.run([sys.executable, str(BENCH / "murus_strong.py"), "--quick"], cwd=BENCH.parent,
                          capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert any(line.startswith("|-") for line in done.stdout.splitlines()), done.stdout
