"""Post-game analysis: RQ jobs on the ``analysis`` queue compute each move's chances and the engine's best move.

A finished game is analysed at the version it finished at, with everything revealed. The work:

1. ``request`` (``POST /api/games/<gid>/analysis``, ``burrow analyse``, or automatically when a game with a human
   seat finishes: ``auto``) records the request in ``Keys.analysis(gid)`` and queues the *plan* job. A running
   game is refused (``NotFinished``, 409) before anything is read or written about it.
2. The plan job (``plan``) splits the game's events into moves (``moves``) and stores them, then queues one
   *chunk* job per ``CHUNK_PLIES`` moves, so several workers share a long game.
3. Each chunk job (``run_chunk``) analyses the positions before its moves with ``domain.ai.analysis.evaluate``
   and stores each result as soon as it has it, in ``Keys.analysis_plies(gid, version)`` (ply index → JSON).

Idempotent: a job finds the plies already stored and does only the others, so a job run twice, a chunk queued
twice or a request repeated computes nothing again; nothing is ever appended to the game. Resumed after a crash: a
chunk holds a lease (``Keys.analysis_lease``, with a TTL refreshed at every ply) while queued or running; a chunk
whose lease has lapsed and whose plies are not all stored is queued again by the next request or read (``status``
does it), and redoes only its missing plies.

The answer (``read``) is docs/api.md's: ``{"status", "version", "plies": [{"version", "seat", "move", "win",
"best", "blunder", "class"}], "players": [...]}`` with the plies analysed so far, in order; ``blunder`` and
``class`` are judged against the next ply's chances (or the result, for the last move) once both are known, and
``players`` (each seat's accuracy and counts, ``domain/ai/accuracy.py``) over the plies known in order.

When an analysis of a game with an account's seat is done, the job that turns its mistakes into cards of the
accounts' decks (``services/learn/deck.py``) is queued on the same queue, under the same fairness.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.ai import accuracy
from domain.ai import analysis as engine
from domain.base import BadNotation, IllegalMove, commands
from domain.text import Text
from services import errors
from services.clients import client_id
from services.games.commands import rng_for
from services.games.states import Game, States
from services.store import codec

log = logging.getLogger(__name__)

PLAN = "workers.jobs.analysis_plan"
CHUNK = "workers.jobs.analysis_chunk"
CHUNK_PLIES = 8
"""Moves per chunk job: a 40-ply game is five jobs, about 2 s each at the default budget."""
LEASE_SLACK = 30.0
"""Seconds a chunk's lease outlives the time its next ply should take (a worker may be busy with others)."""
QUEUED_LEASE = 3600.0
"""Seconds a queued chunk's lease lasts before it is taken for lost (the queue may be long)."""
PLAN_CHUNK = -1
"""The plan job's lease is that of chunk -1."""
DECK = "workers.jobs.deck_extract"
"""The job that turns a done analysis's mistakes into cards of its account seats' decks (``services/learn/``)."""


class NotFinished(errors.ServiceError):
    status, code = 409, "not_finished"


@dataclass(frozen=True)
class Move:
    """One command of the game: the version before it, the seat that sent it and its notation."""

    version: int
    seat: int
    move: str


class Analyses:
    """Requests, runs and reads analyses; the store's Redis holds them, the ``analysis`` queue runs them. A
    process has one, ``runtime.analyses`` (built by ``burrow/runtime.py`` at the settings' budget and limits)."""

    def __init__(self, games: States, jobs, budget: float = 0.25,
                 clock: Callable[[], float] = time.monotonic, jobs_per_client: int = 1, per_client: int = 5,
                 waiting: int = 500):
        self.games = games
        self.jobs_per_client = jobs_per_client  # analysis jobs of one client queued or running at once
        self.per_client = per_client  # analyses of one client asked for and not done (0: no cap)
        self.waiting = waiting  # analyses asked for and not done, of every client (0: no cap)
        self.store = games.store
        self.redis = games.store.redis
        self.keys = games.store.keys
        self.jobs = jobs
        self.budget = budget
        self.clock = clock

    # -- requests ----------------------------------------------------------------------------------------

    def request(self, gid: str, budget: float | None = None, queue: bool = True, address: str | None = None,
                client: str | None = None) -> str:
        """Queue the analysis of a finished game (once per finished version); returns its status.

        ``budget`` (seconds per position, default the setting) different from an earlier analysis's starts a new
        one; ``queue=False`` records the request without queueing the plan job (``burrow analyse`` runs it). Its
        jobs count as the asking client's (``address``, or the hashed ``client``; else the game's creator): fair
        between clients, and refused (``TooMany``, 429) beyond ``per_client`` analyses of that client not done
        yet or ``waiting`` of everybody's."""
        game = self.games.load(gid)
        if game.status != "finished":
            raise NotFinished(Text("the game is still running: only a finished game can be analysed"))
        budget = budget or self.budget
        current = self._meta(gid)
        if current and current["version"] == game.version and current["budget"] == budget:
            return self.status(gid) if queue else current["status"]
        client = client_id(address) if address else client or game.meta.get("client")
        if queue:
            self._reserve(client, gid, game.version)
        key = self.keys.analysis(gid)
        self.redis.delete(key, self.keys.analysis_plies(gid, game.version))
        self.redis.hset(key, mapping={"status": "queued", "version": game.version, "budget": budget,
                                      "requested": int(time.time() * 1000), "client": client or ""})
        if queue:
            self._queue_plan(gid, game.version)
        return "queued"

    def auto(self, gid: str) -> bool:
        """Queue the analysis of a game that has just finished with a human seat, unless already requested (or
        its creator's backlog or everybody's is full: then it is skipped, and may be asked for later)."""
        game = self.games.load(gid)
        if game.status != "finished" or self._meta(gid) is not None:
            return False
        if all(player.get("ai") for player in game.meta["players"]):
            return False
        try:
            self.request(gid)
        except errors.TooMany as exc:
            log.info("analysis of %s not queued: %s", gid, exc)
            return False
        return True

    def _reserve(self, client: str | None, gid: str, version: int) -> None:
        counted = self.jobs.reserve_analysis(client, f"{gid}:{version}", self.per_client, self.waiting)
        if counted == 0:
            raise errors.TooMany(Text("too many analyses asked for by this client and not done yet (at most "
                                      "{limit}): wait for one to finish", limit=self.per_client), retry_after=60)
        if counted < 0:
            raise errors.TooMany(Text("too many analyses are waiting (at most {limit}); try again later",
                                      limit=self.waiting), retry_after=60)

    # -- jobs --------------------------------------------------------------------------------------------

    def plan(self, gid: str, version: int, queue: bool = True) -> int:
        """The plan job: store the game's moves and queue a job per chunk (unless not ``queue``); returns the
        number of chunks."""
        meta = self._meta(gid)
        if meta is None or meta["version"] != version:
            return 0  # superseded or never requested
        try:
            return self._plan(gid, version, meta, queue)
        finally:
            self._job_done(meta, PLAN_CHUNK)

    def _plan(self, gid: str, version: int, meta: dict, queue: bool) -> int:
        if meta.get("plies") is None:
            game = self.games.at_version(gid, version)
            found = [[m.version, m.seat, m.move] for m in moves(self.games, game)]
            chunks = max(1, -(-len(found) // CHUNK_PLIES))
            self.redis.hset(self.keys.analysis(gid), mapping={"plies": json.dumps(found), "chunks": chunks,
                                                              "status": "running"})
            meta = self._meta(gid)
        for chunk in range(meta["chunks"] if queue else 0):
            self._queue_chunk(gid, version, chunk)
        self.redis.delete(self.keys.analysis_lease(gid, version, PLAN_CHUNK))
        self._finish_if_done(gid, meta)
        return meta["chunks"]

    def run_chunk(self, gid: str, version: int, chunk: int, progress: Callable[[int], None] | None = None) -> int:
        """The chunk job: analyse the chunk's plies not stored yet; returns how many it analysed. ``progress``
        is called with each ply's index once stored."""
        meta = self._meta(gid)
        if meta is None or meta["version"] != version or meta.get("plies") is None:
            return 0
        try:
            return self._run_chunk(gid, version, chunk, meta, progress)
        finally:
            self._job_done(meta, chunk)

    def _run_chunk(self, gid: str, version: int, chunk: int, meta: dict,
                   progress: Callable[[int], None] | None) -> int:
        plies = meta["plies"][chunk * CHUNK_PLIES:(chunk + 1) * CHUNK_PLIES]
        first = chunk * CHUNK_PLIES
        results = self.redis.hkeys(self.keys.analysis_plies(gid, version))
        done = {int(k) for k in results}
        todo = [first + i for i in range(len(plies)) if first + i not in done]
        lease = self.keys.analysis_lease(gid, version, chunk)
        budget = float(meta["budget"])
        count = 0
        for index in todo:
            before, seat, move = meta["plies"][index]
            self.redis.set(lease, "running", ex=int(LEASE_SLACK + 4 * budget) + 1)
            game = self.games.at_version(gid, before)
            rng = random.Random(f"{gid}/{version}/{index}")
            # The engines search the game's own state (domain/table.py wraps it with the table's: seats, clocks).
            evaluation = engine.evaluate(game.rules.game, game.state.game, game.seats, seat, budget, rng,
                                         self.clock)
            entry = {"version": before + 1, "seat": seat, "move": move, "win": list(evaluation.win),
                     "best": evaluation.best}
            self.redis.hset(self.keys.analysis_plies(gid, version), str(index), json.dumps(entry))
            count += 1
            if progress:
                progress(index)
        self.redis.delete(lease)
        self._finish_if_done(gid, self._meta(gid))
        return count

    def _queue_plan(self, gid: str, version: int, lost: bool = False) -> None:
        meta = self._meta(gid)
        if lost:
            self.jobs.analysis_lost(job_id(meta, PLAN_CHUNK), meta["client"])
        self.redis.set(self.keys.analysis_lease(gid, version, PLAN_CHUNK), "queued", ex=int(QUEUED_LEASE))
        self.jobs.analysis_job(PLAN, [gid, version], job_id(meta, PLAN_CHUNK), 600, meta["client"],
                               self.jobs_per_client)

    def _queue_chunk(self, gid: str, version: int, chunk: int, lost: bool = False) -> None:
        meta = self._meta(gid)
        if lost:
            self.jobs.analysis_lost(job_id(meta, chunk), meta["client"])
        self.redis.set(self.keys.analysis_lease(gid, version, chunk), "queued", ex=int(QUEUED_LEASE))
        self.jobs.analysis_job(CHUNK, [gid, version, chunk], job_id(meta, chunk),
                               int(600 + 10 * CHUNK_PLIES * meta["budget"]), meta["client"], self.jobs_per_client)

    def _job_done(self, meta: dict, chunk: int) -> None:
        """One of the analysis's jobs has ended (or ran here, from ``burrow analyse``): its client's slot goes to
        its next job waiting."""
        self.jobs.analysis_done(job_id(meta, chunk), meta["client"], self.jobs_per_client)

    def _finish_if_done(self, gid: str, meta: dict | None) -> None:
        if meta is None or meta.get("plies") is None:
            return
        stored = self.redis.hlen(self.keys.analysis_plies(meta["gid"], meta["version"]))
        if stored >= len(meta["plies"]) and meta["status"] != "done":
            self.redis.hset(self.keys.analysis(gid), "status", "done")
            self.jobs.analysis_finished(meta["client"], f"{gid}:{meta['version']}")
            if any(self.games.load(gid).accounts):  # an account's seat: its mistakes become cards of its deck
                version = meta["version"]
                self.jobs.analysis_job(DECK, [gid, version, meta["client"]], f"deck-{gid}-{version}",
                                       int(600 + 40 * meta["budget"] * CHUNK_PLIES), meta["client"],
                                       self.jobs_per_client)

    # -- reading -----------------------------------------------------------------------------------------

    def meta(self, gid: str) -> dict[str, Any] | None:
        """The request as stored: status, version, budget, its moves (``[version, seat, notation]``, once
        planned) and chunk count; None if never requested."""
        return self._meta(gid)

    def _meta(self, gid: str) -> dict[str, Any] | None:
        raw = self.redis.hgetall(self.keys.analysis(gid))
        if not raw:
            return None
        meta = {k.decode(): v.decode() for k, v in raw.items()}
        return {"gid": gid, "status": meta["status"], "version": int(meta["version"]),
                "budget": float(meta["budget"]), "requested": int(meta.get("requested", 0)),
                "client": meta.get("client") or None,
                "plies": json.loads(meta["plies"]) if "plies" in meta else None,
                "chunks": int(meta["chunks"]) if "chunks" in meta else None}

    def status(self, gid: str) -> str:
        """The analysis's status; a chunk lost with a crashed worker (lease lapsed, plies missing) is queued
        again, and a plan lost before it ran as well."""
        meta = self._meta(gid)
        if meta is None:
            raise errors.NotFound(Text("no analysis of this game was requested"))
        if meta["status"] == "done":
            return "done"
        version = meta["version"]
        if meta["plies"] is None:
            if not self.redis.exists(self.keys.analysis_lease(gid, version, PLAN_CHUNK)):
                self._queue_plan(gid, version, lost=True)
            return meta["status"]
        stored = {int(k) for k in self.redis.hkeys(self.keys.analysis_plies(gid, version))}
        for chunk in range(meta["chunks"]):
            indices = range(chunk * CHUNK_PLIES, min((chunk + 1) * CHUNK_PLIES, len(meta["plies"])))
            if any(i not in stored for i in indices) \
                    and not self.redis.exists(self.keys.analysis_lease(gid, version, chunk)):
                self._queue_chunk(gid, version, chunk, lost=True)
        return meta["status"]

    def read(self, gid: str) -> dict:
        """docs/api.md's answer: status, analysed version and the plies analysed so far (404 if never asked)."""
        status = self.status(gid)
        meta = self._meta(gid)
        version = meta["version"]
        raw = self.redis.hgetall(self.keys.analysis_plies(gid, version))
        stored = {int(k): json.loads(v) for k, v in raw.items()}
        total = len(meta["plies"]) if meta["plies"] is not None else 0
        entries = [stored.get(i) for i in range(total)]
        end = None
        if total and entries[-1] is not None:
            game = self.games.at_version(gid, version)
            end = engine.final(game.rules, game.state, game.seats)
        filled = [e or {"seat": 0, "move": "", "win": None, "best": None} for e in entries]
        flags = engine.blunders(filled, end)
        lost = accuracy.losses(filled, end)
        plies = [{**entry, "blunder": flag, "class": accuracy.classify(loss, entry["best"], entry["move"])}
                 for entry, flag, loss in zip(entries, flags, lost) if entry is not None]
        # The players' figures over the moves analysed in order (chunks finish in any order).
        known = entries[:next((i for i, e in enumerate(entries) if e is None), total)]
        seats = self.games.load(gid).seats
        return {"status": status, "version": version, "plies": plies,
                "players": accuracy.players(known, end if len(known) == total else None, seats)}


def job_id(meta: dict, chunk: int) -> str:
    """The RQ job id of one of an analysis's jobs (the plan: ``PLAN_CHUNK``): one per request, so that a new
    request (another budget) is never taken for a job that has just finished."""
    return (f"analysis-{meta['gid']}-{meta['version']}-{meta['requested']}-"
            f"{'plan' if chunk == PLAN_CHUNK else chunk}")


# -- the moves of a game --------------------------------------------------------------------------------------

def moves(games: States, game: Game) -> list[Move]:
    """The commands that made ``game``, in order, from its events.

    A command's events are those its command id recorded (``Keys.cmds``: seat, first and last version) where it had
    one; else those the rules give for it when they match the stored ones exactly (a seeded game replays its dice
    and draws); else the events appended with its first one (one append: the same ``at``). Its notation is the
    legal command whose events begin like the stored ones (the same first event, or with dice its type)."""
    store, module = games.store, game.rules
    ranges = {}
    for key, value in store.redis.hgetall(store.keys.cmds(game.gid)).items():
        seat = key.decode().split(":", 1)[0]
        first, last = (int(v) for v in value.decode().split("-")) if not value.startswith(b"{") else (0, 0)
        if first and seat.isdigit():
            ranges[first] = (int(seat), last)
    items = list(store.read(game.gid, to=game.version))
    stored = [codec.decode(module, item.data) for item in items]
    found: list[Move] = []
    state, version = None, 0
    while version < game.version:
        if state is None or module.status(state) not in ("setup", "playing") or not module.to_act(state):
            state = module.evolve(state, stored[version])
            version += 1
            continue
        known = ranges.get(version + 1)
        seats = [known[0]] if known else module.to_act(state)
        # Between events appended together (game_created and its deck shuffle) the state is half made: the rules
        # may fail there (Commando draws from a deck not yet shuffled), which is no rules bug worth a traceback.
        half_made = version > 0 and items[version].at == items[version - 1].at
        match = _command(module, state, seats, stored[version:], lambda at=version + 1: rng_for(game.meta, at),
                         quiet=half_made)
        if match is None:  # not a command we can name (an event appended by the system): step over it
            state = module.evolve(state, stored[version])
            version += 1
            continue
        seat, text, exact = match
        if known:
            last = known[1]
        elif exact:
            last = version + exact
        else:  # the events appended together with the first one
            last = version + 1
            while last < game.version and items[last].at == items[version].at:
                last += 1
        found.append(Move(version, seat, text))
        for event in stored[version:last]:
            state = module.evolve(state, event)
        version = last
    return found


def _command(module, state, seats: list[int], ahead: list, rng: Callable[[], random.Random], quiet: bool = False
             ) -> tuple[int, str, int | None] | None:
    """(seat, notation, number of events if they match ``ahead`` exactly) of the legal command whose events begin
    like ``ahead``: all of them (a seeded game replays exactly), else the first one, else (a random first event:
    dice) its type."""
    same_first = same_type = None
    for seat in seats:
        for text in commands(module.legal(state, seat)):  # a range (``commit 0..N``) as each of its commands
            try:
                events = module.decide(state, seat, module.parse(text), rng())
            except (IllegalMove, BadNotation):
                continue
            except Exception:  # a rules bug in a command nobody played must not stop naming the one played
                if quiet:
                    continue
                log.warning("analysis: %s %r raised while matching a move", module.NAME, text, exc_info=True)
                continue
            if not events:
                continue
            if events[0] == ahead[0]:
                if list(events) == ahead[:len(events)]:
                    return seat, text, len(events)
                same_first = same_first or (seat, text, None)
            elif type(events[0]) is type(ahead[0]):
                same_type = same_type or (seat, text, None)
    return same_first or same_type
