"""The one write unit: every change to a game goes through ``Round.change`` (or ``Round.create`` for a new game).

A move, a table command, a seat claim, a timeout, a rematch record: each is a pure decision (``Decide``: the game
as it is and the time → its events, or a refusal) handed to ``change``, which owns the rest, once:

1. load the game (the cached state first: no Redis read when it is current);
2. the clock first: a clock that ran out ends the game (``timed_out``) before anything is judged on it;
3. the decision, once;
4. fold its events into the state (a decision whose events the rules cannot fold is never stored);
5. the append with the version the decision was made on (and the command id: a repeat answers its first result);
6. one retry budget (``services/store/optimistic.py``): another writer won that version → load and decide again;
7. remember the new state, poke the projection workers.

A refusal decided on a cached state, or "nothing to do", is decided again on the stream's tail before it is
given: only an append's version check trusts a cached state. Like boardgame.io's ``Master`` and lila's round
actor, one place owns a game's writes; the rules stay in the domain (``Table.command``, ``Table.expired``).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import redis

from domain.base import BadNotation, Event, IllegalMove, OutOfTurn
from domain.text import Text
from services import errors
from services.games.states import Game, States
from services.store import codec
from services.store.optimistic import Again, retry
from services.store.streams import ConcurrencyError, NotReplicated

Decide = Callable[[Game, int], list[Event]]
"""A decision: the events of a change to the game at ``now`` (ms; [] for nothing to do), or a refusal (a
``services.errors.ServiceError``, or the domain's ``OutOfTurn``/``BadNotation``/``IllegalMove``). It reads the game
it is given and nothing else."""


class JobSink(Protocol):
    """Where the write path pokes the workers (RQ in production, nothing in some tests)."""

    def project(self, gid: str) -> None: ...


@dataclass(frozen=True)
class Written:
    """What ``Round.change`` did."""

    before: Game
    """The game the decision was made on."""
    game: Game
    """The game after the change (``before`` when nothing was appended)."""
    events: list[Event]
    """The events appended ([] for none)."""
    states: list[Any]
    """The state after each of ``events``."""
    at: int
    """The commit time of the events (ms)."""
    timed_out: bool = False
    """This change ended the game by its clock first (``Table.expired``)."""
    repeated: tuple[int, int] | None = None
    """The command id was applied already: the versions it appended, (first, last); nothing was appended now."""


def now_ms() -> int:
    return int(time.time() * 1000)


def refused(exc: Exception) -> errors.ServiceError:
    """A decision's refusal as the answer the API gives."""
    match exc:
        case OutOfTurn():
            return errors.NotYourTurn(exc.text)
        case BadNotation():
            return errors.BadNotationError(exc.text)
        case IllegalMove():
            return errors.IllegalMoveError(exc.text)
    assert isinstance(exc, errors.ServiceError)
    return exc


REFUSALS = (errors.ServiceError, OutOfTurn, BadNotation, IllegalMove)


class Round:
    """Every change to a game: load, the clock first, decide, append, retry, fold, remember, poke."""

    def __init__(self, states: States, jobs: JobSink | None = None):
        self.states = states
        self.store = states.store
        self.jobs = jobs

    def change(self, gid: str, decide: Decide, *, expected_version: int | None = None,
               command_id: str | None = None, seats: dict[int, str] | None = None,
               before: Callable[[], None] | None = None, now: int | None = None) -> Written:
        """Apply ``decide``'s events to game ``gid`` (module docstring); what was done.

        ``expected_version``: the client's; a game at another version is a ``Conflict`` (409), never a retry.
        ``command_id`` (``<seat>:<id>``): a command applied already answers ``repeated`` (its first result), even
        when it would be refused now. ``seats``: token hashes the append writes with its events (a seat taken).
        ``before``: a write that must precede the append (an account keeping its seat's token). ``now``: the time
        to judge at (ms; default the current time)."""
        game = self.states.cached(gid)
        timed_out = False

        def attempt() -> Written:
            nonlocal game, timed_out
            fresh = game is None or (expected_version is not None and expected_version != game.version)
            judged = self.states.load(gid) if fresh else game
            game = None  # whatever follows, another attempt reads the stream's tail
            at = now if now is not None else now_ms()
            expired: list[Event] = []
            try:
                if expected_version is not None and expected_version != judged.version:
                    raise errors.Conflict(Text("the game is at version {version}, not {expected_version}",
                                               version=judged.version, expected_version=expected_version),
                                          version=judged.version)
                expired = judged.expired(at)
                events = [] if expired else decide(judged, at)
            except REFUSALS as exc:
                if isinstance(exc, errors.Unavailable):
                    raise
                if not fresh:
                    raise Again from exc  # judged on a cached state that may be stale: judge on the stream's tail
                # Looked up after loading: a twin request that appended in between is then either in this state
                # (its result is stored with its events, atomically) or found here.
                stored = self.store.command_result(gid, command_id) if command_id else None
                if stored is not None:
                    return Written(judged, judged, [], [], at, timed_out, _versions(stored))
                raise refused(exc) from None
            if expired:  # the clock first: the timeout was due, nothing is judged on a game whose time is up
                self._append(judged, expired, at)
                timed_out = True
                raise Again
            if not events:
                if not fresh:
                    raise Again
                return Written(judged, judged, [], [], at, timed_out)
            try:
                return self._append(judged, events, at, command_id, seats, before, timed_out)
            except ConcurrencyError as exc:
                # The append checks the command id first: a conflict means this command was never applied.
                if expected_version is not None:
                    raise errors.Conflict(Text("the game is at version {current}, not {expected_version}",
                                               current=exc.current, expected_version=expected_version),
                                          version=exc.current) from exc
                raise

        return retry(attempt, lambda: errors.Conflict(Text("the game is too busy right now; try again"),
                                                      version=self.store.version(gid)))

    def _append(self, game: Game, events: list[Event], at: int, command_id: str | None = None,
                seats: dict[int, str] | None = None, before: Callable[[], None] | None = None,
                timed_out: bool = False) -> Written:
        """Fold ``events`` into ``game``, append them with its version, remember and poke; ``ConcurrencyError``
        if another writer won that version."""
        states, state = [], game.state
        for event in events:
            state = game.rules.evolve(state, event, at)
            states.append(state)
        last = game.version + len(events)
        if before is not None:
            before()
        with errors.store_errors():
            result = self.store.append(game.gid, [codec.encode(e) for e in events], expected_version=game.version,
                                       command_id=command_id, result=f"{game.version + 1}-{last}".encode(),
                                       at=at, seats=seats)
        if result.duplicate:
            return Written(game, game, [], [], at, timed_out, _versions(result.stored))
        after = game.at(result.version, state)
        self.states.remember(after)
        self.poke(game.gid)
        return Written(game, after, events, states, at, timed_out)

    def create(self, gid: str, events: list[Event], meta: dict, seats: dict[int, str],
               before: Callable[[], None], undo: Callable[[], None]) -> int:
        """Append a new game's first ``events`` with its ``meta``, after ``before`` (accounts keeping their seats'
        tokens) and the seats' token hashes; its version. ``undo`` (and the seats' hashes' removal) when the game
        was not made; not when the append may have been made but was not confirmed by the replicas
        (``NotReplicated``: its creator never gets its tokens)."""
        try:
            before()  # before the game exists: no seat of it without its entry
            self.store.set_seat_hashes(gid, seats)
            result = self.store.append(gid, [codec.encode(e) for e in events], expected_version=0,
                                       meta=json.dumps(meta).encode())
        except Exception as exc:
            if not isinstance(exc, NotReplicated):
                undo()
                self.store.redis.delete(self.store.keys.seats(gid))  # no orphan seats hash of a game never made
            with errors.store_errors():
                raise
        self.poke(gid)
        return result.version

    def poke(self, gid: str) -> None:
        """Tell the workers the game changed (the dispatcher projects it from the log if this is lost)."""
        if self.jobs is not None:
            with contextlib.suppress(redis.RedisError):
                self.jobs.project(gid)


def _versions(stored: bytes) -> tuple[int, int]:
    """The versions a command appended, from its stored result ``first-last``."""
    first, last = (int(v) for v in stored.decode().split("-"))
    return first, last
