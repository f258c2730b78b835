"""RQ jobs. Each only pokes: it reads what it needs from the store, so running it twice changes nothing."""

from __future__ import annotations

import logging
import time

from services import errors
from services.context import current
from services.jobs import ai_turns
from services.learn import deck
from services.store.connection import REDIS_DOWN

log = logging.getLogger(__name__)
UNREACHABLE = (*REDIS_DOWN, errors.Unavailable)  # nobody's failure: the job fails, the dispatcher pokes again


class ProjectionsFailed(Exception):
    """Some games of a batch could not be projected (the others were)."""


DRAIN_SECONDS = 0.1
"""A projection job goes on taking the games waiting, and waiting for more (a blocking pop), this long: games poked
while it runs are taken at once, not after RQ has started another job (RQ's own cost per job, a dozen round trips,
not the projection, was most of the lag at high command rates: on a busy machine 60 ms between two jobs of a
worker), and it still ends soon enough for another worker of the queue to take a share."""


def project_pending() -> int:
    """Bring the games waiting (``RQJobs.project``) up to date, oldest first, a batch at a time, and those poked
    meanwhile, for ``DRAIN_SECONDS``; the games done.

    A game that fails does not hold back the others; the job then fails, naming them (the dispatcher, whose log
    entries stay pending until the game is projected, pokes them again and dead-letters a game that keeps
    failing). A job lost with its worker loses nothing either: the same pokes redo it."""
    runtime = current()
    deadline = time.monotonic() + DRAIN_SECONDS
    done, failed = 0, []
    runtime.jobs.started()  # before reading: a poke from now on queues another job
    while True:
        taken = runtime.jobs.take_pending_since()
        if not taken:
            left = deadline - time.monotonic()
            if left <= 0 or not (taken := runtime.jobs.wait_pending_since(left)):
                break
        gids = [gid for gid, _ in taken]
        projected = runtime.projector.project_many(gids)
        _lag(runtime, taken, projected)
        for gid, game in projected.items():
            try:
                if isinstance(game, Exception):
                    raise game
                _finished(runtime, game)
            except UNREACHABLE:
                raise
            except Exception as exc:  # noqa: BLE001 - this game fails; the rest of the batch goes on
                log.warning("project %s failed: %s: %s", gid, type(exc).__name__, exc)
                failed.append(gid)
        done += len(gids)
        if time.monotonic() >= deadline:
            break
    if failed:
        raise ProjectionsFailed(f"{len(failed)} of {done} games failed: {', '.join(failed)}")
    return done


def _lag(runtime, taken: list[tuple[str, int]], projected: dict) -> None:
    """Each game projected: the time from its first poke to its documents written (``burrow_projection_lag``)."""
    if runtime.metrics is None:
        return
    now = time.time() * 1000
    for gid, poked in taken:
        if not isinstance(projected.get(gid), Exception):
            runtime.metrics.projection_lag.observe(max(0.0, now - poked) / 1000)


def project(gid: str) -> int:
    """Bring every read model of a game up to date: its view, its lobby line, the ratings once it is finished."""
    runtime = current()
    game = runtime.games.load(gid)  # once: every read model at the same version
    version = runtime.projector.project_game(gid, game=game)
    runtime.projector.project_lobby(gid, game=game)
    _finished(runtime, game)
    return version


def _finished(runtime, game) -> None:
    """Count a game that has just finished in the ratings; one with a human seat then gets its analysis. A
    tournament's game gives its result to the tournament (once: a second look finds it recorded)."""
    if runtime.ratings.project(game.gid, game=game):
        runtime.analyses.auto(game.gid)
    if runtime.tournaments is not None and game.meta.get("tournament"):
        runtime.tournaments.game_over(game)


def tournament_advance(tid: str) -> int:
    """Pair a tournament's next round or free players, start their games, end it: what it calls for now."""
    return current().tournaments.advance(tid)


def ai_turn(gid: str, seat: int, version: int, client: str | None = None) -> str:
    """Let the AI at ``seat`` play if the game is still at ``version``; a stale or repeated job does nothing.

    Then the turn's slot of ``client`` (the game's creator) goes to that client's next waiting AI turn."""
    runtime = current()
    started, outcome = time.monotonic(), "failed"
    try:
        outcome = ai_turns.play(runtime.service, gid, seat, version, runtime.settings.ai_time)
    finally:
        runtime.jobs.ai_done(gid, seat, version, client)
        if runtime.metrics is not None:
            runtime.metrics.ai_turn_seconds.labels(_outcome(outcome)).observe(time.monotonic() - started)
    log.info("ai_turn %s seat %s v%s: %s in %.3fs", gid, seat, version, outcome, time.monotonic() - started)
    return outcome


def _outcome(outcome: str) -> str:
    """An AI turn's outcome as a label value (bounded): ``played``, ``answered``, ``stale`` or ``failed``."""
    return outcome if outcome in ("played", "answered", "stale") else "failed"


def analysis_plan(gid: str, version: int) -> int:
    """Split a finished game's analysis into chunks of moves and queue them (``services/reads/analysis.py``)."""
    return current().analyses.plan(gid, version)


def analysis_chunk(gid: str, version: int, chunk: int) -> int:
    """Analyse one chunk of a finished game's moves; the plies already stored are skipped."""
    started = time.monotonic()
    done = current().analyses.run_chunk(gid, version, chunk)
    log.info("analysis %s v%s chunk %s: %s plies in %.3fs", gid, version, chunk, done, time.monotonic() - started)
    return done


def deliver(notices: list) -> dict:
    """What a batch of account notifications becomes away from the site: pushes sent, mails queued
    (``services/away/service.py``)."""
    counts = current().away.deliver(notices)
    log.info("deliver %d notification(s): %s", len(notices), counts)
    return counts


def mail(kind: str, account_id: str, address: str, extra: dict) -> bool:
    """Send one mail of ``kind`` to the account's ``address`` (retried with backoff, then given up)."""
    sent = current().away.send_mail(kind, account_id, address, extra)
    log.info("mail %s: %s", kind, "sent" if sent else "not sent")
    return sent


def deck_extract(gid: str, version: int, client: str | None = None) -> int:
    """Turn the mistakes of a done analysis into cards of its account seats' decks (``services/learn/deck.py``)."""
    rt = current()
    return deck.of(rt).extract(gid, version, rt.analyses.read(gid), client)
