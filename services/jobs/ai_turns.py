"""Playing an AI seat's turn: from that seat's view only, appended with the version it was decided on."""

from __future__ import annotations

import random
import time

from domain import ai
from domain.ai import draws
from services import errors
from services.games.commands import GameService, rng_for
from services.games.states import Game


def ai_seats_to_act(meta: dict, to_act: list[int]) -> list[int]:
    return [s for s in to_act if meta["players"][s].get("ai")]


def ai_seats_now(game: Game) -> list[int]:
    """AI seats with something to do: their turn, or a draw offer to answer (whether or not their turn)."""
    seats = set(game.to_act)
    offer = getattr(game.state, "offer", None)
    if offer is not None:
        seats |= {s for s in range(game.seats) if s != offer and "accept draw" in game.table_commands(s)}
    return ai_seats_to_act(game.meta, sorted(seats))


def clock_budget(budget: float, remaining: float, increment: float = 0.0) -> float:
    """Thinking time within a clock: a thirtieth of the time left plus most of the increment, never more than
    ``budget`` nor a third of what is left (``remaining`` and ``increment`` in seconds)."""
    return max(0.01, min(budget, remaining / 30 + 0.8 * increment, remaining / 3))


def play(service: GameService, gid: str, seat: int, version: int, budget: float) -> str:
    """Play one AI turn (or answer a draw offer); returns "played", "answered" or "stale"."""
    game = service.states.load(gid)
    level = game.meta["players"][seat].get("ai")
    if game.version != version or not level or seat not in ai_seats_now(game):
        return "stale"
    # Fair play by construction: the AI gets exactly the document a human at this seat would get (and, if it
    # learns from the game so far, the documents that seat got at every earlier version).
    view = game.view(seat)
    seed_rng = rng_for(game.meta, version)
    rng = random.Random(seed_rng.getrandbits(64) ^ seat)
    budget = ai.budget_for(level, budget)
    clock = game.clock(int(time.time() * 1000))
    if clock is not None:
        setting = game.state.clock
        budget = clock_budget(budget, clock["remaining"][seat] / 1000, setting.increment / 1000)
    answering = seat not in game.to_act
    if answering:
        move = draws.answer_draw(game.meta["game"], view, seat, level, rng, budget, time.monotonic)
    else:
        history = service.states.history(gid, seat, version) if ai.reads_history(game.meta["game"]) else None
        move = ai.choose(game.meta["game"], view, seat, level, rng, budget, time.monotonic, history=history)
    try:
        service.command(gid, seat, move, expected_version=version, command_id=f"ai-{gid}-{version}")
    except errors.Conflict:
        return "stale"
    except errors.ServiceError:
        if answering:
            return "stale"  # the offer was withdrawn by a move in between: nothing to answer
        raise
    return "answered" if answering else "played"
