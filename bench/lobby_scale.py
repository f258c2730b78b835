"""The lobby and /api/stats with 100 and with 100,000 games: the paged lobby and the incremental statistics
against reading every line (the lobby before its sorted sets).

    python bench/lobby_scale.py [--sizes 100,100000] [--reads 30] [--quick]

A redis-server of its own (AOF everysec, like production) gets N lobby lines, written by the projector's own
script (so every sorted set is there as in production), and N rated names in the ratings; then ``GET /api/games``
(the first page, 50 lines), a page deep in the lobby (by cursor), and ``GET /api/stats`` are timed through the
Flask app, next to what the lobby cost before: every line read, parsed and sorted (``HVALS``).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as ``python bench/lobby_scale.py`` from a checkout
    sys.path.insert(0, str(ROOT))

import harness


def fill(rt, n: int) -> None:
    """``n`` lobby lines and ``n`` rated accounts, written in pipelined batches."""
    from services.reads.ratings import Standing

    projector, ratings = rt.projector, rt.ratings
    redis = rt.redis
    start = 1_700_000_000_000
    for first in range(0, n, 2000):
        pipe = redis.pipeline(transaction=False)
        for i in range(first, min(n, first + 2000)):
            gid = f"{i:012x}"
            status = ("setup", "playing", "finished")[i % 3]
            players = [{"seat": 0, "name": f"P{i}"}, {"seat": 1, "name": "Q"}]
            line = {"id": gid, "game": "murus", "players": players,
                    "status": status, "to_act": [0], "version": 3, "updated": "2026-01-01T00:00:00.000+00:00",
                    "created": "2026-01-01T00:00:00.000+00:00", "result": None}
            projector._write_lobby(keys=projector.lobby_keys(projector.keys.partition(gid)),
                                   args=[gid, 3, json.dumps(line), start + i, status, 0], client=pipe)
            rating = 1500 + (i * 7919) % 400
            pipe.zadd(ratings.ranking("murus"), {f"p{i}": rating})
            pipe.hset(ratings.key(ratings.store_keys.ratings, "murus"), f"p{i}",
                      Standing(f"P{i}", rating, 80.0, games=20).dump())
        pipe.execute()
    redis.hset(ratings.keys[1], mapping={"murus:finished": n, "murus:rated": n, "murus:events": 40 * n,
                                         "murus:wins_by_seat:0": n // 2})


def timed(fn, reads: int) -> tuple[float, int]:
    times, size = [], fn()  # warmed up: scripts loaded, code paths run once
    for _ in range(reads):
        t = time.perf_counter()
        size = fn()
        times.append(time.perf_counter() - t)
    return harness.median(times) * 1e3, size


def measure(n: int, reads: int) -> list[list]:
    """The rows of one size: each read's median time and answer size."""
    from web.app import create_app

    rows = []
    with harness.RedisServer() as server:
        rt = harness.runtime_for(server, prefix=f"scale{n}")
        fill(rt, n)
        client = create_app(rt).test_client()
        deep = client.get("/api/games?limit=200").json["next"]
        for _ in range(4):  # a page 1,000 lines in (or the last)
            if deep is not None:
                deep = client.get(f"/api/games?limit=200&cursor={deep}").json["next"] or deep
        cursor = f"?cursor={deep}" if deep else ""

        def every_line() -> int:  # the lobby before: read, parse and sort every line, keep 200
            lines = [json.loads(raw) for raw in rt.redis.hvals(rt.store.keys.lobby(0))]
            lines.sort(key=lambda e: e["updated"], reverse=True)
            return len(json.dumps(lines[:200]))

        for label, fn in (("GET /api/games (first page)", lambda: len(client.get("/api/games").data)),
                          ("GET /api/games?cursor= (1,000 lines in)",
                           lambda: len(client.get(f"/api/games{cursor}").data)),
                          ("GET /api/stats", lambda: len(client.get("/api/stats").data)),
                          ("before: every lobby line read and sorted", every_line)):
            ms, size = timed(fn, reads if "before" not in label or n <= 10_000 else 3)
            rows.append([f"{n:,}", label, ms, size])
    return rows


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--sizes", default="100,100000", help="numbers of games, comma-separated")
    p.add_argument("--reads", type=int, default=30, help="timed reads of each kind")
    args = p.parse_args(argv)
    if args.quick:
        args.sizes, args.reads = "100,2000", 5
    harness.header("The lobby and /api/stats: cost against the number of games", argv)
    rows = [row for n in (int(x) for x in args.sizes.split(",")) for row in measure(n, args.reads)]
    harness.table(["games", "read", "median ms", "answer bytes"], rows,
                  title="Reads through the Flask app on a private redis-server; the last row of each size is the "
                        "old lobby's cost (its Redis part)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
