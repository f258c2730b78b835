"""Write one seeded AI-vs-AI game per game as a golden export.

Run once for a new game, never to refresh an existing file (old payloads must keep loading):
    python tests/golden/make_golden.py commando:3
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import msgspec

from domain import ai
from domain.base import Setup, event_type
from domain.registry import game_module


def make(game: str, seats: int, seed: int = 11) -> None:
    module = game_module(game)
    rng = random.Random(seed)
    options = {"max_plies": 200} if game != "squirrels" else {}
    events = list(module.initial(Setup(seats=seats, options=options), rng))
    state = None
    for event in events:
        state = module.evolve(state, event)
    while module.status(state) != "finished" and len(events) < 2000:
        seat = module.to_act(state)[0]
        move = ai.choose(game, module.view(state, seat), seat, "easy", rng, 0.01, time.monotonic)
        new = module.decide(state, seat, module.parse(move), rng)
        for event in new:
            state = module.evolve(state, event)
        events += new
    meta = {"id": f"golden-{game}", "game": game, "players": [{"name": f"P{i}"} for i in range(seats)],
            "seed": seed, "created": 0}
    expect = {"status": module.status(state), "result": module.result(state),
              "position": module.dump_position(state)}
    lines = [json.dumps({"burrow": 1, "id": meta["id"], "meta": meta, "expect": expect})]
    for version, event in enumerate(events, 1):
        lines.append(json.dumps({"version": version, "type": event_type(event), "data": msgspec.to_builtins(event),
                                 "at": 0}))
    path = Path(__file__).parent / f"{game}.jsonl"
    if path.exists():
        raise SystemExit(f"{path.name} exists: golden files are never regenerated")
    path.write_text("\n".join(lines) + "\n")
    print(game, len(events), "events,", module.status(state))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        name, _, count = arg.partition(":")
        make(name, int(count or 2))
