"""Tournaments: creating them, joining, withdrawing, starting; the job that pairs rounds and starts their games;
the results of their games; their documents and lists (projections of their streams, rebuilt by ``burrow
rebuild``). The rules of pairing and scoring are the domain's (``domain/tournaments/``).

**Bounds** (``LIMITS``): players per tournament, tournaments open (not finished) at once in all and per creator,
Swiss rounds, arena minutes, how far ahead a start may be, the title's length. Every request is answered with a
clear 4xx and appends nothing when refused.

**The job** (``advance``, queued on the projections' queue by dotted path): one at a time per tournament (a lock;
a change that comes while it runs sets a flag it reads before letting go, so no change is missed). It appends what
``domain.tournaments.state.next_events`` decides (the start at ``starts_at``, the next round once every game of the
last is over, an arena's new pairs, the end) and then makes the game of every table paired and not started yet
through the game service — the game's seats are the accounts', its metadata names the tournament — and tells each
player (``tournament_game`` on ``/api/me/stream``). Its timers (``Keys.tournament_timers``: a start, an arena's
end, and a look every ``RECHECK_MS`` while one runs, in case a job was lost) are read by the dispatchers.

**Games over**: the projection job tells ``game_over`` of every finished game whose metadata names a tournament;
the result is appended once (a second call finds it recorded) and the job is queued.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

import redis

from domain.base import BadSetup, Setup
from domain.registry import GAME_NAMES, game_module
from domain.table import check_clock
from domain.text import Text
from domain.tournaments import events as ev
from domain.tournaments.state import (
    LAPSE_MS,
    SYSTEMS,
    Refused,
    Tournament,
    decide_game_over,
    decide_join,
    decide_start,
    decide_withdraw,
    next_events,
    tables_to_start,
)
from services import bounds, errors
from services.scripts import lua
from services.store import codec
from services.store.optimistic import retry
from services.tournaments.documents import document, line
from services.tournaments.store import TournamentStore, new_tournament_id

log = logging.getLogger(__name__)

LIMITS = {
    "players": 128,  # per tournament (``max_players`` at most this; 64 when not given)
    "open": 100,  # tournaments not finished, in all
    "open_per_creator": 3,
    "rounds": 15,  # a Swiss's
    "minutes": 360,  # an arena's
    "ahead_days": 30,  # how far ahead ``starts_at`` may be
    "title": 80,  # characters
}
DEFAULT_PLAYERS = 64
STEPS = 16  # what one look of the job does at most: a start, a round paired, its games, an end
RECHECK_MS = 60_000  # a running tournament is looked at again this often whatever happens (a job lost)
LOCK_MS = 60_000
STATUSES = ("upcoming", "running", "finished")
WRITE = lua("write_tournament")
RELEASE = lua("tournament_release")
SWITCH = lua("switch_keys")
REBUILDING = ":rebuilding"
FIELDS = ("game", "system", "options", "clock", "rounds", "minutes", "table_size", "starts_at", "max_players",
          "title")


def now_ms() -> int:
    return int(time.time() * 1000)


class Tournaments:
    """The tournaments of one store (``store``), their games made by ``games`` (``GameService``), their job
    queued on ``jobs`` (``RQJobs``; None: the caller runs ``advance`` itself), their players told through
    ``notifications``; ``clock`` gives the time (ms)."""

    def __init__(self, store: TournamentStore, games, jobs=None, notifications=None,
                 clock: Callable[[], int] = now_ms):
        self.store = store
        self.redis: redis.Redis = store.redis
        self.keys = store.keys
        self.games = games
        self.jobs = jobs
        self.notifications = notifications
        self.clock = clock
        self._write = self.redis.register_script(WRITE)
        self._release = self.redis.register_script(RELEASE)
        self._switch = self.redis.register_script(SWITCH)

    # -- requests --------------------------------------------------------------------------------------------

    def create(self, creator: str, body: Any) -> str:
        """A new tournament of ``creator`` (a signed-in account's username) from the API's body; its id."""
        settings = self.check(body)
        tid = new_tournament_id()
        event = ev.Created(creator=creator, **settings)
        self.store.append(tid, creator, 0, [event], at=self.clock())
        self.project(tid)
        start = event.starts_at if event.starts_at is not None else self.clock() + LAPSE_MS
        self.redis.zadd(self.keys.tournament_timers(), {tid: start})  # its start, or its lapse
        return tid

    def check(self, body: Any) -> dict:
        """The settings of a new tournament, each checked (400 for a field unknown, 422 naming the field)."""
        if not isinstance(body, dict):
            raise errors.BadRequest(Text("the body must be a JSON object"))
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise errors.BadRequest(Text("{field}: unknown field (known: {known})", field=unknown[0],
                                         known=", ".join(FIELDS)), field=unknown[0])
        game = body.get("game")
        if game not in GAME_NAMES:
            raise errors.Unprocessable(Text("game: unknown game {game} (known: {game_names})", game=repr(game),
                                            game_names=", ".join(GAME_NAMES)), field="game")
        module = game_module(game)
        low, high = module.CATALOG.seats
        system = body.get("system")
        if system not in SYSTEMS:
            raise errors.Unprocessable(Text("system: one of {known}", known=", ".join(SYSTEMS)), field="system")
        size = body.get("table_size")
        if size is None:
            size = 2 if low <= 2 else low
        else:
            size = bounds.check_int(size, "table_size", max(2, low), high)
        if size > 2 and system != "swiss":
            raise errors.Unprocessable(Text("table_size: tables of more than two are for Swiss tournaments"),
                                       field="table_size")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise errors.Unprocessable(Text("options: must be an object"), field="options")
        bounds.check_json(options, "options")
        try:
            module.initial(Setup(seats=size, options=options), random.Random(0))
        except BadSetup as exc:
            raise errors.Unprocessable(exc.text, field=exc.field) from exc
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            raise errors.Unprocessable(Text("options: not valid options of {game}", game=game),
                                       field="options") from exc
        if body.get("clock") is None:
            raise errors.Unprocessable(Text("clock: a tournament's games need a clock"), field="clock")
        try:
            clock = check_clock(body["clock"])
        except BadSetup as exc:
            raise errors.Unprocessable(exc.text, field=exc.field) from exc
        rounds = minutes = 0
        if system == "swiss":
            rounds = bounds.check_int(body.get("rounds"), "rounds", 1, LIMITS["rounds"])
        elif body.get("rounds") is not None:
            raise errors.Unprocessable(Text("rounds: only a Swiss has a number of rounds"), field="rounds")
        if system == "arena":
            minutes = bounds.check_int(body.get("minutes"), "minutes", 1, LIMITS["minutes"])
        elif body.get("minutes") is not None:
            raise errors.Unprocessable(Text("minutes: only an arena lasts a number of minutes"), field="minutes")
        max_players = body.get("max_players", DEFAULT_PLAYERS)
        max_players = bounds.check_int(max_players, "max_players", 2, LIMITS["players"])
        starts_at = self._starts_at(body.get("starts_at"))
        title = body.get("title")
        if title is None:
            title = f"{module.CATALOG.title} {system.replace('_', ' ')}"
        else:
            title = bounds.check_name(title, "title", LIMITS["title"])
        return {"game": game, "system": system, "title": title, "clock": clock, "options": options,
                "rounds": rounds, "minutes": minutes, "table_size": size, "starts_at": starts_at,
                "max_players": max_players}

    def _starts_at(self, value: Any) -> int | None:
        if value is None:
            return None
        if not isinstance(value, str) or len(value) > 40:
            raise errors.Unprocessable(Text("starts_at: a time such as 2030-01-31T18:00:00Z"), field="starts_at")
        try:
            when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise errors.Unprocessable(Text("starts_at: a time such as 2030-01-31T18:00:00Z"),
                                       field="starts_at") from None
        if when.tzinfo is None:
            raise errors.Unprocessable(Text("starts_at: give the time zone (Z for UTC)"), field="starts_at")
        at = int(when.timestamp() * 1000)
        now = self.clock()
        if at < now - 60_000 or at > now + LIMITS["ahead_days"] * 86_400_000:
            raise errors.Unprocessable(Text("starts_at: from now to {days} days ahead", days=LIMITS["ahead_days"]),
                                       field="starts_at")
        return at

    def join(self, tid: str, username: str) -> None:
        self._request(tid, lambda state: decide_join(state, username))

    def withdraw(self, tid: str, username: str) -> None:
        self._request(tid, lambda state: decide_withdraw(state, username))

    def start(self, tid: str, username: str) -> None:
        self._request(tid, lambda state: decide_start(state, username, self.clock()))

    def _request(self, tid: str, decide: Callable[[Tournament], list]) -> None:
        def attempt() -> None:
            state = self.load(tid)
            try:
                events = decide(state)
            except Refused as exc:
                raise _error(exc) from None
            self.store.append(tid, state.created.creator, state.version, events, at=self.clock())

        retry(attempt, _too_busy)
        self.changed(tid)

    def load(self, tid: str) -> Tournament:
        state = self.store.load(tid) if _is_id(tid) else None
        if state is None:
            raise errors.NotFound(Text("no tournament {id}", id=repr(str(tid)[:40])))
        return state

    def changed(self, tid: str) -> None:
        """The tournament's stream has grown: its document and line, its watchers, its job."""
        self.project(tid)
        if self.jobs is not None:
            self.jobs.enqueue("project", "workers.jobs.tournament_advance", tid)

    # -- games over ------------------------------------------------------------------------------------------

    def game_over(self, game) -> bool:
        """Record the result of ``game`` (a finished game, ``services.games.states.Game``) in its tournament, if
        it has one and it is not recorded yet; True if recorded now."""
        tid = game.meta.get("tournament")
        result = game.result
        if not tid or result is None or game.status != "finished":
            return False
        winners, played = list(result.get("winners") or []), True
        if result.get("termination") == "aborted":
            absent = self._absent(game)
            winners = [s for s in range(game.seats) if s != absent]
            played = absent is not None

        def attempt() -> bool:
            state = self.store.load(tid)
            events = decide_game_over(state, game.gid, winners, played) if state is not None else []
            if events:
                self.store.append(tid, state.created.creator, state.version, events, at=self.clock())
            return bool(events)

        recorded = retry(attempt, _too_busy)
        if recorded:
            self.changed(tid)
        return recorded

    def _absent(self, game) -> int | None:
        """The seat that ended an aborted game, by aborting it or by missing its first move (None if neither is
        its last event): in a tournament it loses the game, and its opponents win it."""
        last = list(self.games.store.read(game.gid, after=game.version - 1, to=game.version))
        if not last or last[-1].type not in ("aborted", "first_move_missed"):
            return None
        return codec.decode(game.rules, last[-1].data).seat

    # -- the job ---------------------------------------------------------------------------------------------

    def advance(self, tid: str) -> int:
        """Do what the tournament calls for now (pair, start games, end), one job at a time per tournament; the
        events appended."""
        token = secrets.token_hex(8)
        lock, again = self.keys.tournament_lock(tid), self.keys.tournament_again(tid)
        self.redis.set(again, 1, px=LOCK_MS)
        if not self.redis.set(lock, token, nx=True, px=LOCK_MS):
            return 0  # its holder sees the flag before it lets go
        done = 0
        while True:
            self.redis.delete(again)
            done += self._advance(tid)
            if self._release(keys=[lock, again], args=[token]) not in (b"again", "again"):
                return done

    def _advance(self, tid: str) -> int:
        done = 0
        for _ in range(STEPS):
            def attempt() -> tuple[Tournament | None, int]:
                state = self.store.load(tid)
                events = next_events(state, self.clock(), seed=tid) if state is not None else []
                if events:
                    self.store.append(tid, state.created.creator, state.version, events, at=self.clock())
                return state, len(events)

            state, appended = retry(attempt, _too_busy)
            if state is None:
                return done
            if appended:
                done += appended
                self.project(tid)
                continue
            started = self._start_games(state)
            if not started:
                self._timer(state)
                return done
            done += started
        return done

    def _start_games(self, state: Tournament) -> int:
        """Make the game of every table paired and not started; tell its players. The games started."""
        c, tid = state.created, state.id
        count = 0
        for number, table, players in tables_to_start(state):
            made = self.games.create(c.game, [{"name": p} for p in players], dict(c.options), clock=dict(c.clock),
                                     accounts=dict(enumerate(players)), tournament=tid)
            gid = made["id"]

            def attempt(number=number, table=table, gid=gid) -> None:
                # A result or a withdrawal may have come meanwhile: the job's lock keeps every other pairing out,
                # so the table is still this job's to start, on the tournament as it is now.
                now = self.store.load(tid)
                self.store.append(tid, c.creator, now.version, [ev.GameStarted(number, table, gid)],
                                  at=self.clock())

            retry(attempt, _too_busy)
            count += 1
            if self.notifications is not None:
                for seat, name in enumerate(players):
                    self.notifications.to_account(name.lower(), "tournament_game", tournament=tid, game=gid,
                                                  seat=seat)
        if count:
            self.project(tid)
        return count

    def _timer(self, state: Tournament) -> None:
        """When the job must look at the tournament again (none once it is over)."""
        key = self.keys.tournament_timers()
        if state.status == "finished":
            self.redis.zrem(key, state.id)
        elif state.status == "upcoming":
            at = state.created.starts_at if state.created.starts_at is not None else state.at + LAPSE_MS
            self.redis.zadd(key, {state.id: at})
        else:
            at = self.clock() + RECHECK_MS
            if state.ends_at is not None and state.ends_at > self.clock():
                at = min(at, state.ends_at)
            self.redis.zadd(key, {state.id: at})

    def due(self, now: int | None = None, count: int = 100) -> list[str]:
        """The tournaments whose timer has come, taken off their timers (the job sets the next one)."""
        now = self.clock() if now is None else now
        found = self.redis.zrangebyscore(self.keys.tournament_timers(), "-inf", now, start=0, num=count)
        ids = [t.decode() if isinstance(t, bytes) else t for t in found]
        if ids:
            self.redis.zrem(self.keys.tournament_timers(), *ids)
        return ids

    # -- documents -------------------------------------------------------------------------------------------

    def project(self, tid: str, suffix: str = "", state: Tournament | None = None) -> dict | None:
        """Write the tournament's document and line (never backwards) and tell its watchers; the document."""
        state = state or self.store.load(tid)
        if state is None:
            return None
        doc = document(state)
        raw = json.dumps(doc, separators=(",", ":"))
        entry = line(state)
        score = state.created.starts_at or state.started or state.at
        written = self._write(keys=[self.keys.tournament_view(tid, suffix), self.keys.tournament_versions(suffix),
                                    self.keys.tournament_lines(suffix),
                                    *(self.keys.tournament_index(s, suffix) for s in STATUSES)],
                              args=[tid, state.version, raw, json.dumps(entry), STATUSES.index(state.status) + 1,
                                    score])
        if written and not suffix and self.notifications is not None:
            self.notifications.to_tournament(tid, state.version, raw)
        return doc

    def document(self, tid: str) -> dict | None:
        """The tournament's document as projected or, when it is not yet, as its stream makes it now (a read
        writes and publishes nothing: the projection job does); None for no such tournament."""
        raw = self.redis.get(self.keys.tournament_view(tid)) if _is_id(tid) else None
        if raw is None:
            state = self.load(tid)
            return None if state is None else document(state)
        return json.loads(raw)

    def stored(self, tid: str) -> tuple[int, bytes] | None:
        """The document's version and JSON as stored (for a stream's first message), or None."""
        if not _is_id(tid):
            return None
        raw = self.redis.get(self.keys.tournament_view(tid))
        if raw is None:
            return None
        return json.loads(raw)["version"], raw

    def listed(self, status: str | None = None, limit: int = 100) -> list[dict]:
        """The tournaments of ``status`` (all when None): upcoming soonest first, the others latest first."""
        out = []
        for name in (status,) if status else STATUSES:
            index = self.keys.tournament_index(name)
            ids = (self.redis.zrange(index, 0, limit - 1) if name == "upcoming"
                   else self.redis.zrevrange(index, 0, limit - 1))
            if ids:
                out += [json.loads(raw) for raw in self.redis.hmget(self.keys.tournament_lines(), ids) if raw]
        return out

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Every tournament's document and line again from its events, in fresh keys, then switched over."""
        shared = [self.keys.tournament_versions(), self.keys.tournament_lines(),
                  *(self.keys.tournament_index(s) for s in STATUSES)]
        self.redis.delete(*(k + REBUILDING for k in shared))
        ids = self.store.ids()
        for i, tid in enumerate(ids, 1):
            self.project(tid, REBUILDING)
            view = self.keys.tournament_view(tid)
            self._switch(keys=[view + REBUILDING, view])
            if progress:
                progress(i, len(ids))
        self._switch(keys=[*(k + REBUILDING for k in shared), *shared])
        return len(ids)


def _too_busy() -> errors.ServiceError:
    return errors.Conflict(Text("the tournament is changing too fast; try again"))


def _is_id(tid: Any) -> bool:
    return isinstance(tid, str) and 1 <= len(tid) <= 20 and tid.isalnum()


def _error(exc: Refused) -> errors.ServiceError:
    kind = {"conflict": errors.Conflict, "forbidden": Forbidden}.get(exc.kind, errors.Unprocessable)
    return kind(exc.text)


class Forbidden(errors.ServiceError):
    status, code = 403, "forbidden"
