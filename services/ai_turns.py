"""Playing an AI seat's turn: from that seat's view only, appended with the version it was decided on."""

from __future__ import annotations

import random
import time

from domain import ai
from services import errors
from services.games import GameService, rng_for


def ai_seats_to_act(meta: dict, to_act: list[int]) -> list[int]:
    return [s for s in to_act if meta["players"][s].get("ai")]


def play(service: GameService, gid: str, seat: int, version: int, budget: float) -> str:
    """Play one AI turn; returns "played", "stale" or "duplicate"."""
    game = service.load(gid)
    level = game.meta["players"][seat].get("ai")
    if game.version != version or seat not in game.module.to_act(game.state) or not level:
        return "stale"
    # Fair play by construction: the AI gets exactly the document a human at this seat would get.
    view = game.module.view(game.state, seat)
    seed_rng = rng_for(game.meta, version)
    rng = random.Random(seed_rng.getrandbits(64) ^ seat)
    move = ai.choose(game.meta["game"], view, seat, level, rng, ai.budget_for(level, budget), time.monotonic)
    try:
        service.command(gid, seat, move, expected_version=version, command_id=f"ai-{gid}-{version}")
    except errors.Conflict:
        return "stale"
    return "played"
