"""The dispatcher: reads every partition log with a consumer group and enqueues the jobs each event calls for,
and ends the games whose clock has run out.

For each batch: a projection job per game touched, and an AI turn when an AI seat must act. An entry is
acknowledged only once its effect is visible (the game's projections have reached its version and no AI seat is
still to act at it); until then it stays pending. The dispatcher looks again at the entries it left pending
``settle_ms`` later (then twice as long after each look: an AI may think for seconds), poking what is still behind
and acknowledging what is now visible, so the log's pending list holds a fraction of a second of entries under
load; and pending entries of a consumer that died (or of this one, forgotten in a restart) are claimed back
(XAUTOCLAIM, at most every quarter of ``claim_idle_ms``) after ``claim_idle_ms`` and their jobs enqueued again.
So a job lost with a killed worker is redone. Jobs are idempotent: a batch handled twice changes nothing.

(XAUTOCLAIM looks at up to ten entries per entry asked for, and each look finds the entry in the stream: with every
entry left pending until the claim, 30 s of them at a few hundred commands a second, each call held Redis for
12 ms, 36 times a second, and the projections' lag p99 rose from tens to hundreds of milliseconds.)

Failures stay with their game: when a game's log cannot be handled (an event that does not decode or fold), only
its entries fail; they are retried with a doubling backoff and, after ``dead_letter_after`` failures, moved to the
partition's dead letters and acknowledged (``services/jobs/failures.py``). Every other game's entries are projected
and acknowledged as usual. Redis being unreachable is nobody's failure: the batch is simply tried again.

Tournaments: the job of a tournament whose timer has come (``services/tournaments/``) is queued each turn of the
loop.

Clocks: every game read gets its next deadline in its partition's deadlines (``services/games/clocks.py``), and the
loop, which waits on the logs, waits at most until the earliest deadline: a seat whose time runs out loses a few
milliseconds after its deadline, whether or not a client is connected.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from services import errors, trace
from services.context import Runtime
from services.games.clocks import RECHECK_MS, Clocks
from services.games.tables import Tables
from services.jobs.ai_turns import ai_seats_now
from services.jobs.doctor import Heartbeats, now_ms
from services.jobs.failures import Failure, Failures
from services.people.game_notices import notices
from services.store import codec
from services.store.connection import REDIS_DOWN
from services.store.log import Follower, Group, LogEntry

log = logging.getLogger(__name__)

# Not the entry's fault: the whole batch waits and is retried (``run``), nothing is counted against an entry.
UNREACHABLE = (*REDIS_DOWN, errors.Unavailable)


def _why(exc: Exception) -> str:
    """What went wrong, for the operator: a damaged game's cause itself (the API's message only names the game)."""
    if isinstance(exc, errors.Corrupt) and exc.__cause__ is not None:
        exc = exc.__cause__
    return f"{type(exc).__name__}: {exc}"


class Dispatcher:
    settle_ms = 100  # an entry left pending is looked at again this long after (then twice as long each time)
    beat_ms = 1000  # how often it says it is alive (``burrow doctor``)
    unsettled_max = 10_000  # entries remembered so per partition at most (the rest wait for XAUTOCLAIM)

    def __init__(self, runtime: Runtime, consumer: str | None = None, claim_idle_ms: int | None = None,
                 batch: int = 200):
        self.runtime = runtime
        self.redis = runtime.redis
        self.keys = runtime.store.keys
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{threading.get_ident()}"
        self.claim_idle_ms = runtime.settings.claim_idle_ms if claim_idle_ms is None else claim_idle_ms
        self.batch = batch
        settings = runtime.settings
        self.group = Group(self.redis, self.keys, self.consumer)
        self.failures = Failures(self.redis, self.keys, self.group.group, settings.dead_letter_after,
                                 settings.retry_ms)
        self.heartbeats = Heartbeats(self.redis, self.keys)
        self.clocks = Clocks(self.redis, self.keys)
        self.tables = Tables(runtime.service)
        self.stopping = threading.Event()
        self.group.ensure()
        self._failing: dict[str, Failure] = {}  # the partition being handled's failing entries (``run_once``)
        self.follower = Follower(self.group, batch, lambda p, entries: self._counted(p, entries))
        # Per partition: the entries this dispatcher handled whose effect was not visible yet, to look at again
        # (entry id → (when, seconds waited, entry, (gid, version) if only its projection is awaited)), oldest
        # first; and when XAUTOCLAIM is due next.
        self._unsettled: dict[int, dict[str, tuple[float, float, LogEntry, tuple[str, int] | None]]] = {}
        self._claim_at: dict[int, float] = {}
        self._claim_every = self.claim_idle_ms / 4000  # seconds; also the longest wait before another look
        self._beat_at = 0.0
        self._handled = 0

    def run_once(self, block_ms: int = 1000) -> int:
        """End the games whose clock ran out, then handle what is pending in every partition (failed entries due
        again, claimed, then new, waiting for new ones at most ``block_ms`` and never past the next deadline);
        returns the number of log entries handled."""
        handled = 0
        if time.monotonic() >= self._beat_at:
            self.heartbeats.beat(self.consumer)
            self._beat_at = time.monotonic() + self.beat_ms / 1000
        self.check_clocks()
        self.check_tournaments()
        per_partition_block = max(1, self._block_ms(block_ms) // self.keys.partitions)
        for p in range(self.keys.partitions):
            failing = self.failures.of(p)
            now = now_ms()
            due = [eid for eid, failure in failing.items() if failure.next_at <= now]
            retried = self.group.claim(p, due)
            gone = set(due) - {entry.id for entry in retried}
            self.failures.recovered(p, sorted(gone))  # acknowledged meanwhile, or deleted
            claimed = self._autoclaim(p)
            waiting = {eid for eid, failure in failing.items() if failure.next_at > now}  # backing off
            again = {entry.id: entry for entry in [*retried, *claimed] if entry.id not in waiting}
            handled += self._handle(p, list(again.values()), failing)
            full, light = self._unsettled_due(p, again)  # not counted below: nothing new, no reason to spin
            self._handle(p, full, failing)
            self._settle(p, light)
            self._failing, self._handled = failing, 0
            self.follower.step(p, per_partition_block if handled == 0 else None)
            handled += self._handled
        return handled

    def _counted(self, partition: int, entries: list[LogEntry]) -> None:
        self._handled += self._handle(partition, entries, self._failing, fresh=True)

    def _block_ms(self, block_ms: int) -> int:
        """How long the loop may wait for new entries: ``block_ms``, or less when a clock runs out sooner."""
        deadline = self.clocks.next_deadline()
        if deadline is None:
            return block_ms
        return max(1, min(block_ms, deadline - now_ms()))

    def check_tournaments(self) -> int:
        """Queue the job of every tournament whose timer has come (a start at its time, an arena's end, a look
        while one runs); returns how many. The loop wakes at least every ``block_ms`` (a second by default): a
        tournament's timer is late by that much at most."""
        tournaments = self.runtime.tournaments
        if tournaments is None:
            return 0
        due = tournaments.due()
        for tid in due:
            self.runtime.jobs.enqueue("project", "workers.jobs.tournament_advance", tid)
        return len(due)

    def check_clocks(self) -> int:
        """End the games whose deadline has come and whose clock has run out; returns how many ended. A game
        whose clock has not run out after all (a move came first, or the deadline was set by a slower look) gets
        its current deadline back."""
        ended, now = 0, now_ms()
        for p in range(self.keys.partitions):
            due = self.clocks.due_at(p, now)
            if not due:
                continue
            deadlines: dict[str, int | None] = {}
            for gid, deadline in due:
                try:
                    if self.tables.flag(gid) == "timeout":
                        ended += 1
                        if self.runtime.metrics is not None:  # how late the loss came: burrow_clock_lateness
                            self.runtime.metrics.clock_lateness.observe(max(0, now_ms() - deadline) / 1000)
                    game = self.runtime.games.load(gid)
                except UNREACHABLE:
                    raise
                except Exception as exc:  # noqa: BLE001 - this game's error; its log entries fail on their own
                    log.warning("dispatcher: clock of %s not checked: %s", gid, _why(exc))
                    deadlines[gid] = None
                    continue
                deadline = game.deadline
                deadlines[gid] = None if deadline is None else max(deadline, now_ms() + RECHECK_MS)
            self.clocks.set(deadlines)
        return ended

    def _autoclaim(self, partition: int) -> list[LogEntry]:
        """Entries pending for ``claim_idle_ms`` (a dead consumer's, or forgotten), now this consumer's; looked for
        at most every quarter of ``claim_idle_ms``."""
        now = time.monotonic()
        if now < self._claim_at.get(partition, 0.0):
            return []
        self._claim_at[partition] = now + self._claim_every
        return self.group.autoclaim(partition, self.claim_idle_ms, self.batch)

    def _unsettled_due(self, partition: int, handled: dict) -> tuple[list[LogEntry], list]:
        """The entries left pending that are due for another look (``settle_ms`` after the last), oldest first,
        ``batch`` at most, not those being handled already: those to handle again (an AI was to act at them), and
        those that only wait for their projection, as (entry, gid, version)."""
        unsettled = self._unsettled.get(partition)
        if not unsettled:
            return [], []
        now, full, light = time.monotonic(), [], []
        for eid, (at, _, entry, projection) in unsettled.items():
            if len(full) + len(light) >= self.batch:
                break
            if at <= now and eid not in handled:
                if projection is None:
                    full.append(entry)
                else:
                    light.append((entry, *projection))
        return full, light

    def _settle(self, partition: int, entries: list[tuple[LogEntry, str, int]]) -> None:
        """Entries that only waited for their game's projection: acknowledge those now visible, poke the games
        still behind (their job may have been lost) and look again later. One read of the checkpoints: the games
        themselves are not loaded again."""
        if not entries:
            return
        versions: dict[str, int] = {}
        for _, gid, version in entries:
            versions[gid] = max(version, versions.get(gid, 0))
        projected = self._poke_behind(versions)
        done = {entry.id for entry, gid, version in entries if version <= projected[gid]}
        self.group.ack(partition, sorted(done))
        self._remember(partition, [entry for entry, _, _ in entries], done,
                       {entry.id: (gid, version) for entry, gid, version in entries})

    def _remember(self, partition: int, entries: list[LogEntry], settled: set[str],
                  projections: dict[str, tuple[str, int]]) -> None:
        """Forget the entries ``settled`` (acknowledged, or failing: their backoff takes them), and remember the
        others of ``entries`` to look at again: ``settle_ms`` from now, or twice as long as they waited last time
        (at most a quarter of ``claim_idle_ms``); ``projections`` has the (gid, version) of those that only wait
        for their projection."""
        unsettled = self._unsettled.setdefault(partition, {})
        now, longest = time.monotonic(), max(self.settle_ms / 1000, self._claim_every)
        for entry in entries:
            _, waited, _, _ = unsettled.pop(entry.id, (0.0, 0.0, None, None))
            if entry.id not in settled and len(unsettled) < self.unsettled_max:
                wait = min(longest, 2 * waited) if waited else self.settle_ms / 1000
                unsettled[entry.id] = (now + wait, wait, entry, projections.get(entry.id))

    def _handle(self, partition: int, entries: list[LogEntry], failing: dict[str, Failure], fresh: bool = False
                ) -> int:
        """Enqueue what the entries call for, game by game; acknowledge those whose effect is visible. Entries
        read for the first time (``fresh``) also tell the players' accounts what happened (at most once).

        A game whose log cannot be handled (an event that does not decode or fold, say) fails alone: its entries
        are counted as failures and retried with backoff, then dead-lettered; every other game goes on.
        """
        by_game: dict[str, list[LogEntry]] = {}
        count = 0
        for entry in entries:
            if not entry.fields:  # deleted entries come back empty
                continue
            count += 1
            if entry.gid is None:
                self._failed(partition, entry, "a log entry without a game id and version", failing)
                continue
            by_game.setdefault(entry.gid, []).append(entry)
        done, recovered, gave_up, projections = [], [], [], {}
        dispatched = self._dispatch(list(by_game), _request_ids(by_game)) if by_game else {}
        if fresh:
            self._notify({gid: items for gid, items in by_game.items()
                          if not isinstance(dispatched[gid], Exception)})
        for gid, items in by_game.items():
            outcome = dispatched[gid]
            if isinstance(outcome, Exception):  # this game's entries fail; the others go on
                why = _why(outcome)
                log.warning("dispatcher: game %s failed at %s: %s", gid, [e.version for e in items], why)
                for entry in items:
                    self._failed(partition, entry, why, failing)
                    gave_up.append(entry.id)  # the backoff retries it, or it is dead-lettered
                continue
            projected, ai_waits_at = outcome
            for entry in items:
                if entry.id in failing:
                    recovered.append(entry.id)
                if entry.version != ai_waits_at:
                    if entry.version <= projected:
                        done.append(entry.id)
                    else:
                        projections[entry.id] = (gid, entry.version)  # only its projection is still to come
        self.failures.recovered(partition, recovered)
        for eid in recovered:
            failing.pop(eid, None)
        self.group.ack(partition, done)
        self._remember(partition, [e for e in entries if e.gid is not None and e.fields],
                       {*done, *gave_up}, projections)
        return count

    def _dispatch(self, gids: list[str], rids: dict[str, str] | None = None
                  ) -> dict[str, tuple[int, int | None] | Exception]:
        """Enqueue the projections and AI turns the games of a batch need and note their clocks' deadlines; for
        each game (projected version, version an AI must act at), or the error that stopped it (the others go
        on). The games' tails are read in one round trip, their projections checked in one and poked in one,
        their deadlines written in one."""
        runtime = self.runtime
        out: dict[str, tuple[int, int | None] | Exception] = {}
        games = {}
        for gid, loaded in runtime.games.load_many(gids).items():
            if isinstance(loaded, UNREACHABLE):
                raise loaded
            if isinstance(loaded, Exception):
                out[gid] = loaded
            else:
                games[gid] = loaded[0]
        projected = self._poke_behind({gid: game.version for gid, game in games.items()}) if games else {}
        deadlines: dict[str, int | None] = {}
        for gid, game in games.items():
            try:
                ai_seats = ai_seats_now(game)  # their turn, or a draw offer to answer
                token = trace.begin((rids or {}).get(gid))  # the request that moved: its id goes with the job
                try:
                    for seat in ai_seats:
                        runtime.jobs.ai_turn(gid, seat, game.version, game.meta.get("client"))
                finally:
                    trace.end(token)
                deadlines[gid] = game.deadline
            except UNREACHABLE:
                raise
            except Exception as exc:  # noqa: BLE001 - this game's error; the others go on
                out[gid] = exc
                continue
            out[gid] = (projected[gid], game.version if ai_seats else None)
        self.clocks.set(deadlines)
        return out

    def _notify(self, by_game: dict[str, list[LogEntry]]) -> None:
        """Tell the accounts of the games' seats what their new entries mean for them
        (``services/people/game_notices.py``)."""
        people = self.runtime.people
        if people is None or not by_game:
            return
        told, waiting = [], []
        for gid, items in by_game.items():
            try:
                game = self.runtime.games.load(gid)  # cached: loaded by the batch just now
                entries = [(e.version, e.fields.get(b"type", b"").decode()) for e in items]
                told += notices(game, entries, lambda v, gid=gid: self._seat_of(gid, v))
                if any(game.accounts):
                    waiting.append((gid, list(game.accounts), list(game.to_act),
                                    game.status == "playing"))
            except UNREACHABLE:
                raise
            except Exception as exc:  # noqa: BLE001 - a nudge lost, nothing else
                log.warning("dispatcher: notifications of %s not worked out: %s", gid, _why(exc))
        try:
            if people.waiting is not None:
                people.waiting.update(waiting)  # "waiting for you" in the accounts' pages
            people.notifications.to_accounts(told)  # one batch: one job for what goes away from the site
        except UNREACHABLE:
            raise
        except Exception as exc:  # noqa: BLE001 - a nudge lost, nothing else
            log.warning("dispatcher: notifications not sent: %s", _why(exc))

    def _seat_of(self, gid: str, version: int) -> int | None:
        """The seat of the event at ``version`` of ``gid``."""
        game = self.runtime.games.load(gid)
        for item in self.runtime.store.read(gid, after=version - 1, to=version):
            return getattr(codec.decode(game.rules, item.data), "seat", None)
        return None

    def _poke_behind(self, versions: dict[str, int]) -> dict[str, int]:
        """Each game's projected version (one read), the games whose projection is behind its version in
        ``versions`` poked (one round trip)."""
        projected = self.runtime.projector.projected_many(list(versions))
        behind = [gid for gid, version in versions.items() if projected[gid] < version]
        if behind:
            self.runtime.jobs.project_many(behind)
        return projected

    def _failed(self, partition: int, entry: LogEntry, error: str, failing: dict[str, Failure]) -> None:
        text = {k.decode(): v.decode(errors="replace") for k, v in entry.fields.items()}
        text.setdefault("gid", "")
        text.setdefault("v", "0")
        failure = self.failures.failed(partition, entry.id, text, error, now_ms(), failing.get(entry.id))
        if failure is None:
            log.error("dispatcher: log entry %s (game %s, version %s) dead-lettered after %d failures: %s",
                      entry.id, text["gid"], text["v"], self.failures.limit, error)
            failing.pop(entry.id, None)
        else:
            failing[entry.id] = failure

    def run(self, block_ms: int = 1000) -> None:
        """Loop until ``stop()``; a Redis outage is logged and retried."""
        while not self.stopping.is_set():
            try:
                self.run_once(block_ms)
            except REDIS_DOWN as exc:
                log.warning("dispatcher: redis unreachable (%s); retrying", exc)
                if self.runtime.metrics is not None:
                    self.runtime.metrics.dispatcher_errors.inc()
                self.stopping.wait(1.0)
            except Exception:
                log.exception("dispatcher: batch failed; retrying")
                self.stopping.wait(1.0)

    def stop(self) -> None:
        self.stopping.set()


def _request_ids(by_game: dict[str, list[LogEntry]]) -> dict[str, str]:
    """Each game's latest request id among its log entries (``append.lua`` writes it), if any."""
    out = {}
    for gid, items in by_game.items():
        for entry in items:
            rid = entry.fields.get(b"rid")
            if rid:
                out[gid] = rid.decode(errors="replace")
    return out
