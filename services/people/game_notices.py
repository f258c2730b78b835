"""What a game's new events tell its players' accounts (``GET /api/me/stream``): the game started, your turn, a
draw offered or declined, the game over, a rematch offered. Worked out by the dispatcher from the log entries it
reads for the first time (``workers/dispatcher.py``): at most once each — a notification is a nudge, the game's
document is the truth.
"""

from __future__ import annotations

from collections.abc import Callable

from services.games.states import Game
from services.reads.views import result

Notice = tuple[str, str, dict]  # (account, kind, data)


def notices(game: Game, entries: list[tuple[int, str]],
            seat_of_event: Callable[[int], int | None]) -> list[Notice]:
    """The notifications of ``game`` (at its latest version) for its new log entries ``(version, type)``;
    ``seat_of_event(version)`` reads the seat of an event when one is needed (a declined draw)."""
    accounts = game.accounts
    if not any(accounts):
        return []
    module, state = game.rules, game.state
    status = module.status(state)
    out: list[Notice] = []
    newest = max(version for version, _ in entries)
    types = {kind for _, kind in entries}
    if "seat_taken" in types and status == "playing" and not getattr(state, "open", ()):
        out += [(a, "game_started", {"game": game.gid, "seat": seat}) for seat, a in enumerate(accounts) if a]
    offer = getattr(state, "offer", None)
    if "draw_offered" in types and offer is not None:
        out += [(a, "draw_offered", {"game": game.gid, "by": offer}) for seat, a in enumerate(accounts)
                if a and seat != offer]
    for version, kind in entries:
        if kind == "rematched" and getattr(state, "rematch", None):
            asker = seat_of_event(version)
            out += [(a, "rematch_offered", {"game": game.gid, "rematch": state.rematch,
                                            "by": game.names[asker] if asker is not None else None})
                    for seat, a in enumerate(accounts) if a and seat != asker]
        if kind == "draw_declined":
            decliner = seat_of_event(version)
            out += [(a, "draw_declined", {"game": game.gid, "by": decliner}) for seat, a in enumerate(accounts)
                    if a and seat != decliner]
    if newest == game.version:
        if status == "finished" and types - {"rematched"}:  # its end, not a rematch recorded after it
            out += [(a, "game_over", {"game": game.gid, "result": result(game)}) for a in accounts if a]
        elif status == "playing":
            out += [(a, "your_turn", {"game": game.gid, "version": game.version})
                    for seat, a in enumerate(accounts) if a and seat in module.to_act(state)]
    return [(account.lower(), kind, data) for account, kind, data in out]
