"""Murus perft: the bitboard generator of ``domain.murus`` against a naive dict-board generator, side by side.

    python bench/perft_murus.py [--depth 5] [--variant basic|advanced]

Both count every move sequence of exactly D plies from the opening (a finished game stops the line) and
count the last ply without playing it. The table gives nodes, seconds and nodes/s of each, and the speed ratio.
The naive generator is written from docs/rules.md alone, so matching counts cross-check the bitboards.
"""

from __future__ import annotations

import argparse
import sys
import time

DIRECTIONS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
FORWARD = (1, -1)
GOAL_ROW = (6, 0)
"""Row (0-based) each side must reach, by side."""


def naive_start() -> dict[tuple[int, int], tuple[int, int]]:
    """The opening: (col, row) → (owner, height)."""
    board = {(col, 0): (0, 2) for col in range(8)}
    board.update({(col, 6): (1, 2) for col in range(8)})
    return board


def naive_from_cells(cells: dict[str, str]) -> dict[tuple[int, int], tuple[int, int]]:
    """A naive board from position JSON cells (``{"a1": "RR"}``)."""
    return {("abcdefgh".index(name[0]), int(name[1]) - 1): ("RG".index(text[0]), len(text))
            for name, text in cells.items()}


def _on_board(col: int, row: int) -> bool:
    return 0 <= col < 8 and 0 <= row < 7


def naive_moves(board: dict, side: int, advanced: bool) -> list[tuple[str, tuple, tuple]]:
    """Every legal move as ``(op, from, to)`` with op in ``- x xx *``, straight from the rules."""
    limit = 3 if advanced else 2
    moves = []
    for (col, row), (owner, height) in board.items():
        if owner != side:
            continue
        if height == 2:
            for dc, dr in DIRECTIONS:
                near, far = (col + dc, row + dr), (col + 2 * dc, row + 2 * dr)
                if _on_board(*far) and all(board.get(cell) is None or (board[cell][0] == side and
                                                                       board[cell][1] < limit)
                                           for cell in (near, far)):
                    moves.append(("-", (col, row), far))
                enemy = board.get(near)
                if enemy is not None and enemy[0] != side:
                    if enemy[1] == 1:
                        moves.append(("x", (col, row), near))
                    elif enemy[1] == 3:
                        moves.append(("x", (col, row), near))
                        moves.append(("xx", (col, row), near))
        elif height == 3:
            fwd = FORWARD[side]
            for dc, dr in ((-1, 0), (1, 0), (0, fwd), (-1, fwd), (1, fwd)):
                for reach in (2, 3):
                    target = (col + reach * dc, row + reach * dr)
                    if _on_board(*target) and (target not in board or board[target][0] != side):
                        moves.append(("*", (col, row), target))
    return moves


def _add(board: dict, cell: tuple, owner: int, stones: int) -> None:
    height = board[cell][1] if cell in board else 0
    if height + stones:
        board[cell] = (owner, height + stones)
    else:
        del board[cell]


def naive_play(board: dict, side: int, move: tuple) -> dict:
    """A new board after ``side`` plays ``move``."""
    op, frm, to = move
    board = dict(board)
    if op == "-":
        del board[frm]
        _add(board, ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2), side, 1)
        _add(board, to, side, 1)
    elif op in ("x", "xx"):
        lost = len(op)
        _add(board, frm, side, -lost)
        _add(board, to, side ^ 1, -lost)
    else:
        _add(board, frm, side, -1)
        if to in board:
            _add(board, to, side ^ 1, -1)
        else:
            board[to] = (side, 1)
    return board


def naive_won_before_moving(board: dict, side: int, advanced: bool) -> bool:
    """Basic: the other side stands on its goal row (breakthrough); advanced: ``side`` still does (held)."""
    who = side if advanced else side ^ 1
    return any(owner == who and row == GOAL_ROW[who] for (_, row), (owner, _) in board.items())


def naive_perft(board: dict, side: int, depth: int, advanced: bool) -> int:
    """Perft on the naive board."""
    if depth == 0:
        return 1
    if naive_won_before_moving(board, side, advanced):
        return 0
    moves = naive_moves(board, side, advanced)
    if depth == 1:
        return len(moves)
    return sum(naive_perft(naive_play(board, side, move), side ^ 1, depth - 1, advanced) for move in moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--variant", choices=("basic", "advanced"), default="basic")
    args = parser.parse_args(argv)
    from domain.murus import board as bitboard

    advanced = args.variant == "advanced"
    print(f"Murus perft, {args.variant} variant, from the opening")
    print(f"{'depth':>5} {'nodes':>10} | {'bitboard s':>10} {'nodes/s':>10} | {'naive s':>9} {'nodes/s':>9} "
          "| ratio")
    mismatch = False
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        fast = bitboard.perft(bitboard.start_position(), depth, advanced)
        fast_s = time.perf_counter() - start
        start = time.perf_counter()
        slow = naive_perft(naive_start(), 0, depth, advanced)
        slow_s = time.perf_counter() - start
        mismatch |= fast != slow
        nodes = f"{fast}" if fast == slow else f"{fast}≠{slow}"
        print(f"{depth:>5} {nodes:>10} | {fast_s:>10.3f} {fast / max(fast_s, 1e-9):>10.0f} | "
              f"{slow_s:>9.3f} {slow / max(slow_s, 1e-9):>9.0f} | {slow_s / max(fast_s, 1e-9):5.1f}x")
    if mismatch:
        print("MISMATCH between the two generators", file=sys.stderr)
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
