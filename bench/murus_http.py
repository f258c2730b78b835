"""Murus hard through the HTTP API against the strong reference: the outside check of issues #32 and #45.

    python bench/murus_http.py [--games 30] [--time 0.5] [--seed 2026] [--variant basic|advanced] [--quick]

A private redis-server and ``burrow serve`` on it (web, dispatcher and AI workers, as a deployment runs
them) with ``BURROW_AI_TIME`` set so that ``hard`` thinks ``--time`` seconds a move. This process is the other
player: an outside client that knows nothing of the service but its HTTP API. It creates each game with ``hard`` in
one seat, reads the position from the game's document (``state.position``, the docs/rules.md format), asks
``bench/murus_strong.py``'s engine for a move with ``--time`` seconds of this process's CPU time, and sends it with
``POST /api/games/<gid>/commands``. Seats alternate every game; games i and i+1 start from the same opening (two
random plies, given as the game's ``position``), as in ``bench/murus_strong.py``. With ``--variant advanced`` the
games are Murus' advanced game and the reference is ``bench/murus_advanced_strong.py`` (its engine and openings).

The server's AI counts wall time, so the engines are even only when each has a core: the bench plays one game at a
time and prints the AI's answer time (command sent → its move seen) beside the result.
"""

from __future__ import annotations

import sys
import time

import harness
import murus_advanced_strong
import murus_strong
from harness import JsonClient, RedisServer

from burrow.selfplay import CLOCKS, wilson
from domain.murus.notation import move_text
from domain.murus.position import load_position, position_json


def play_game(client: JsonClient, index: int, seed: int, budget: float, answers: list[float],
              variant: str = "basic") -> tuple:
    """Game ``index`` of the ``variant``: hard in seat ``index % 2``. Returns (hard's result 1/0.5/0, hard's seat,
    plies); each AI answer time (s) is added to ``answers``."""
    advanced = variant == "advanced"
    reference = murus_advanced_strong if advanced else murus_strong
    rng, pos = reference.opening(seed, index)
    hard_seat = index % 2
    players = [{"name": "Reference"}, {"name": "Hard", "ai": "hard"}]
    if hard_seat == 0:
        players.reverse()
    created = client.post("/api/games", {"game": "murus", "players": players, "options": {"variant": variant},
                                         "position": position_json(pos)}, None, 201)
    gid = created["id"]
    token = next(s["token"] for s in created["seats"] if "token" in s)
    me = 1 - hard_seat
    path = f"/api/games/{gid}"
    version, sent_at, timer = created["version"], None, CLOCKS["cpu"]
    while True:
        doc = client.get(f"{path}?min_version={version}", token)
        if doc["status"] == "finished":
            winners = doc["result"]["winners"]
            return (0.5 if len(winners) != 1 else float(winners[0] == hard_seat)), hard_seat, doc["state"]["ply"]
        if me not in doc["to_act"]:
            time.sleep(0.01)
            continue
        if sent_at is not None:
            answers.append(time.monotonic() - sent_at)
        pos = load_position(doc["state"]["position"], advanced)
        move = move_text(reference.choose(pos, rng, budget, timer))
        answer = client.post(f"{path}/commands", {"move": move, "expected_version": doc["version"]}, token, 200)
        version, sent_at = answer["version"], time.monotonic()


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--time", type=float, default=0.5, help="seconds a move for both engines")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--variant", choices=("basic", "advanced"), default="basic")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.time = 2, 0.05
    harness.header(f"Murus ({args.variant}): hard through the HTTP API against the strong reference "
                   "(bench/murus_http.py)", argv)
    started, results, answers = time.monotonic(), [], []
    with RedisServer() as server:
        # hard thinks twice BURROW_AI_TIME
        proc, port = harness.serve(server, env={"BURROW_AI_TIME": str(args.time / 2)})
        try:
            client = JsonClient(port, timeout=60)
            for index in range(args.games):
                results.append(play_game(client, index, args.seed, args.time, answers, args.variant))
                score, seat, plies = results[-1]
                if not args.quick:
                    total = sum(r for r, _, _ in results)
                    print(f"# game {index + 1}: hard {({1: 'won', 0: 'lost'}).get(score, 'drew')} as "
                          f"{'Romans' if seat == 0 else 'Gauls'} in {plies} plies; {total:g}/{len(results)}",
                          file=sys.stderr, flush=True)
        finally:
            harness.stop_process(proc)
    total = sum(r for r, _, _ in results)
    low, high = wilson(total, len(results))
    by_seat = [sum(r for r, s, _ in results if s == seat) for seat in (0, 1)]
    at_seat = [sum(1 for _, s, _ in results if s == seat) for seat in (0, 1)]
    harness.table(["games", "time a move", "hard wins", "reference wins", "draws", "hard as Romans · as Gauls",
                   "hard's score (95% CI)", "hard's answer p50 · p95", "took"],
                  [[len(results), f"{args.time:g} s", sum(1 for r, _, _ in results if r == 1),
                    sum(1 for r, _, _ in results if r == 0), sum(1 for r, _, _ in results if r == 0.5),
                    f"{by_seat[0]:g}/{at_seat[0]} · {by_seat[1]:g}/{at_seat[1]}",
                    f"{total / len(results):.0%} ({low:.0%}–{high:.0%})",
                    f"{harness.median(answers):.2f} · {harness.percentile(answers, 95):.2f} s" if answers else "-",
                    f"{time.monotonic() - started:.0f} s"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
