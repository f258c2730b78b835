"""The tutorials as the API serves them, and each account's progress through them (README "Learn").

The scripts are ``domain/tutorials/``; here each step becomes docs/api.md's ``{"position", "text", "moves"}`` with
what the page needs to draw it on the game's own board: ``seat`` (the player's), ``board`` (the document a seat's
page gets: ``state`` as that seat sees it, ``legal``, ``to_act``, ``status``, ``players``), ``why`` (said after a
wrong move) and ``then`` (the same turn's next moves, each with its text and board). Progress is kept per account
in ``Keys.tutorial_progress`` (a guest's page keeps its own in the browser).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain import tutorials
from domain.registry import game_module
from domain.text import Text
from services import errors

PLAYERS = (Text("You"), Text("Your opponent"))


class UnknownTutorial(errors.NotFound):
    pass


def names() -> list[str]:
    """The games that have a tutorial, in the registry's order."""
    return list(tutorials.tutorials())


def tutorial(game: str) -> tutorials.Tutorial:
    """Game ``game``'s tutorial; ``UnknownTutorial`` (404) if it has none."""
    found = tutorials.tutorials().get(game) if isinstance(game, str) else None
    if found is None:
        raise UnknownTutorial(Text("no tutorial for {game}", game=str(game)[:40]))
    return found


def _board(module, state, seat: int, seats: int) -> dict[str, Any]:
    to_act = module.to_act(state)
    names = [{"seat": s, "name": PLAYERS[0] if s == seat else PLAYERS[1]} for s in range(seats)]
    return {"game": module.NAME, "status": module.status(state), "you": seat, "to_act": to_act,
            "legal": module.legal(state, seat) if seat in to_act else [], "players": names,
            "state": module.view(state, seat)}


@cache
def steps(game: str) -> tuple[dict[str, Any], ...]:
    """Game ``game``'s steps as the API gives them (texts still ``Text``: the web layer says them)."""
    module = game_module(game)
    out = []
    for step in tutorial(game).steps:
        state = tutorials.state_of(module, step)
        seat = tutorials.seat_of(module, state)
        then = []
        after = state
        played = list(step.moves[:1])
        for move, text in step.then:
            after = tutorials.after(module, after, seat, played)
            then.append({"move": move, "text": text, "board": _board(module, after, seat, step.seats)})
            played = [move]
        out.append({"position": step.position, "text": step.text, "moves": list(step.moves), "why": step.why,
                    "seat": seat, "board": _board(module, state, seat, step.seats), "then": then})
    return tuple(out)


class Progress:
    """Which tutorial steps each account has completed (``Keys.tutorial_progress``)."""

    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys

    def done(self, account_id: str) -> dict[str, int]:
        """Per game, how many of its steps the account has completed."""
        counts = dict.fromkeys(names(), 0)
        for field in self.redis.hkeys(self.keys.tutorial_progress(account_id)):
            game = field.decode().split(":", 1)[0]
            if game in counts:
                counts[game] += 1
        return counts

    @staticmethod
    def check(game: str, step: Any) -> int:
        """``step`` if it is one of ``game``'s steps (its index); else 422 ``field``."""
        total = len(tutorial(game).steps)
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < total:
            raise errors.Unprocessable(Text("step: a step number from 0 to {last}", last=total - 1), field="step")
        return step

    def record(self, account_id: str, game: str, step: Any) -> None:
        """Step ``step`` (its index) of ``game``'s tutorial is done; 422 ``field`` for a step it does not have."""
        self.check(game, step)
        self.redis.hset(self.keys.tutorial_progress(account_id), f"{game}:{step}", 1)


def progress_of(runtime) -> Progress:
    return Progress(runtime.store.redis, runtime.store.keys)
