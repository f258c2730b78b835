"""Enqueueing work for the RQ workers. Jobs are named by dotted path: services never import workers.

Five queues, each with workers of its own, so that one kind of work never waits behind another:

``<prefix>:project``  projections (a game's views, lobby line, statistics) — short jobs, the page waits for them
``<prefix>:ai``       AI turns — up to twice ``BURROW_AI_TIME`` each
``<prefix>:analysis`` analyses of finished games — long, nobody is waiting at a board
``<prefix>:push``     what notifications become away from the site, and the Web Push messages (services/away/)
``<prefix>:mail``     mails, through the SMTP server (services/away/)

(``<prefix>`` is ``Settings.queue_name``, ``burrow`` by default.) ``RQJobs.enqueue(kind, job, *args)`` puts any job
on one of them; ``project`` and ``ai_turn`` are the two the command path and the dispatcher use.

Projections are coalesced: ``project(gid)`` adds the game to the games waiting (a sorted set, oldest first) and
queues a job only if none waits; a job takes up to ``batch`` games and brings each up to date (reading every
event appended meanwhile). The backlog is bounded by the games being played, not by the commands.

AI turns are fair between clients (the creator of a game, ``meta["client"]``): a client has at most
``ai_per_client`` turns in the ``ai`` queue or running at once; its further turns wait in a list of its own and
enter the queue one by one as its earlier ones finish (``ai_done``). So a client flooding the service with AI games
holds at most ``ai_per_client`` AI workers, and another client's turn waits behind at most that many jobs of it.
A turn already queued or waiting is not queued again (the dispatcher pokes a waiting game on every claim); one
whose slot is older than ``stale_ms`` (its worker died) is. Nor is a turn that finished less than ``stale_ms`` ago:
the dispatcher may have read the game just before that turn was played, and RQ breaks when a job id is enqueued
again while its first run is still ending (``InvalidJobOperation: Failed to retrieve status``).

Analysis jobs are fair between clients the same way (the client that asked, else the game's creator): at most
``analysis_per_client`` jobs of a client in the ``analysis`` queue or running at once, its others waiting in a
list of their own; and the backlog is bounded, per client (``analyses_per_client`` analyses asked for and not done)
and in all (``analyses_waiting``): beyond, a request is refused (429) and an automatic one skipped.
"""

from __future__ import annotations

import json
import logging
import threading
import time

import redis
import rq

from services import trace
from services.scripts import lua
from services.store.streams import QueueKeys

PROJECT = "workers.jobs.project"  # one game (tools and benches)
PROJECT_PENDING = "workers.jobs.project_pending"  # the games waiting (``RQJobs.project``)
AI_TURN = "workers.jobs.ai_turn"

log = logging.getLogger(__name__)

KINDS = ("project", "ai", "analysis", "push", "mail")
ANONYMOUS = "-"  # games without a client (CLI imports, tests): one bucket, not capped

# KEYS: 1 the client's active slots (zset job id → ms), 2 its waiting turns (list), 3 every known turn (hash
# job id → "a" active | "w" waiting), 4 the turns finished lately (zset job id → ms). ARGV: job id, payload,
# now ms, cap (0: none), stale ms. Returns 1: enqueue it now; 0: waiting (or already known, or just finished).
SUBMIT = lua("ai_submit")

# KEYS as SUBMIT. ARGV: the finished job id, now ms, cap, stale ms. Returns the payloads to enqueue now (oldest
# first).
DONE = lua("ai_done")

# KEYS: 1 the client's analyses not done, 2 every client's. ARGV: analysis, now ms, client's cap, backlog's cap,
# window ms. Returns 1 counted, 0 the client is at its cap, -1 the backlog is full.
RESERVE_ANALYSIS = lua("reserve_analysis")


def queue_name(prefix: str, kind: str) -> str:
    """The RQ queue of ``kind`` (one of ``KINDS``) under ``prefix``."""
    if kind not in KINDS:
        raise ValueError(f"no queue {kind!r} (known: {', '.join(KINDS)})")
    return QueueKeys(prefix).queue(kind)


def ai_job_id(gid: str, seat: int, version: int) -> str:
    return f"ai-{gid}-{version}-{seat}"


class RQJobs:
    """The queues the command path and the dispatcher poke (``connection``: the RQ Redis)."""

    def __init__(self, connection, prefix: str = "burrow", ai_per_client: int = 1, stale_ms: int = 60_000):
        self.connection = connection
        self.prefix = prefix
        self.keys = QueueKeys(prefix)
        self.queues = {kind: rq.Queue(queue_name(prefix, kind), connection=connection) for kind in KINDS}
        self.ai_per_client = ai_per_client
        self.stale_ms = stale_ms
        self._submit = connection.register_script(SUBMIT)
        self._done = connection.register_script(DONE)
        self._reserve_analysis = connection.register_script(RESERVE_ANALYSIS)

    def queue(self, kind: str) -> rq.Queue:
        return self.queues[kind]

    def enqueue(self, kind: str, job: str, *args, **options) -> rq.job.Job:
        """Put ``job`` (a dotted path) on the ``kind`` queue; ``options`` as ``rq.Queue.enqueue`` takes them."""
        options.setdefault("result_ttl", 0)
        options.setdefault("failure_ttl", 3600)
        rid = trace.request_id()
        if rid is not None:  # the request this job is done for: the worker logs it (services/trace.py)
            options.setdefault("meta", {})["rid"] = rid
        return self.queues[kind].enqueue(job, *args, **options)

    # -- projections: the games waiting, drained in batches --------------------------------------------------

    batch = 32  # games a projection job brings up to date at most (then it queues the next job)
    coalesce_ms = 10_000  # a marker outlives a lost job by this much at most (the dispatcher pokes again)

    def project(self, gid: str) -> bool:
        """The game's read models are behind: put it among the games waiting (once, keeping its place: oldest
        first) and queue a projection job unless one waits already, not yet started — it will take this game
        too. True if a job was queued.

        So a poke costs a sorted-set add and a ``SET NX`` however many commands arrive, the queue holds at most
        one waiting job (plus one per batch of ``batch`` games waiting beyond the first), and one RQ job brings
        many games up to date: RQ's own cost per job (a dozen round trips) is paid once per batch, not once per
        game — at the highest command rates that cost, not the projection, was most of the lag."""
        return self.project_many([gid])

    def project_many(self, gids: list[str]) -> bool:
        """``project`` for several games at once (one round trip); True if a job was queued."""
        if not gids:
            return False
        keys = self.keys
        pipe = self.connection.pipeline()
        pipe.zadd(keys.pending("project"), dict.fromkeys(gids, _now()), nx=True)
        pipe.set(keys.queued("project"), b"1", nx=True, px=self.coalesce_ms)
        return self._queue_drain(pipe.execute()[1])

    def started(self) -> None:
        """A projection job starts: from now on a poke queues another job (it may come with a newer version, and
        this one may be past that game already). So at most one job waits in the queue, whatever the rate."""
        self.connection.delete(self.keys.queued("project"))

    def take_pending(self) -> list[str]:
        """For a projection job that has ``started``: the oldest ``batch`` games waiting, taken off the list. If
        more games wait, a job is queued for them now (unless one waits already)."""
        return [gid for gid, _ in self.take_pending_since()]

    def take_pending_since(self) -> list[tuple[str, int]]:
        """``take_pending``, each game with when it was first poked (ms): the projection lag starts there."""
        keys = self.keys
        pipe = self.connection.pipeline()
        pipe.zpopmin(keys.pending("project"), self.batch)
        pipe.exists(keys.pending("project"))
        taken, more = pipe.execute()
        if more and self.connection.set(keys.queued("project"), b"1", nx=True, px=self.coalesce_ms):
            self._queue_drain(True)
        return [(_member(member), int(score)) for member, score in taken]

    def wait_pending(self, seconds: float) -> list[str]:
        """For a projection job that has ``started`` and found no game waiting: wait up to ``seconds`` for one to
        be poked (a blocking pop: no polling), then take it and the others waiting as ``take_pending`` does."""
        return [gid for gid, _ in self.wait_pending_since(seconds)]

    def wait_pending_since(self, seconds: float) -> list[tuple[str, int]]:
        """``wait_pending``, each game with when it was first poked (ms)."""
        popped = self.connection.bzpopmin(self.keys.pending("project"), timeout=max(0.001, seconds))
        if not popped:
            return []
        return [(_member(popped[1]), int(popped[2])), *self.take_pending_since()]

    def pending(self) -> int:
        """How many games wait for a projection job."""
        return self.connection.zcard(self.keys.pending("project"))

    def _queue_drain(self, marked: bool) -> bool:
        if not marked:
            return False
        try:
            self.enqueue("project", PROJECT_PENDING)
        except BaseException:
            self.connection.delete(self.keys.queued("project"))
            raise
        return True

    # -- AI turns, fair between clients -------------------------------------------------------------------

    def _keys(self, client: str | None) -> list[str]:
        client = client or ANONYMOUS
        keys = self.keys
        return [keys.ai_active(client), keys.ai_waiting(client), keys.ai_known(), keys.ai_finished()]

    def _cap(self, client: str | None) -> int:
        return 0 if not client or client == ANONYMOUS else self.ai_per_client

    def ai_turn(self, gid: str, seat: int, version: int, client: str | None = None) -> bool:
        """Queue the AI turn of ``seat`` at ``version``, or let it wait its client's turn; True if queued now."""
        job_id = ai_job_id(gid, seat, version)
        payload = json.dumps({"id": job_id, "gid": gid, "seat": seat, "version": version, "client": client})
        if not self._submit(keys=self._keys(client), args=[job_id, payload, _now(), self._cap(client),
                                                            self.stale_ms]):
            return False
        self._enqueue_ai(gid, seat, version, client)
        return True

    def ai_done(self, gid: str, seat: int, version: int, client: str | None = None) -> int:
        """A turn of ``client`` has finished: free its slot and queue its next waiting turns; returns how many."""
        payloads = self._done(keys=self._keys(client), args=[ai_job_id(gid, seat, version), _now(),
                                                              self._cap(client), self.stale_ms])
        for raw in payloads:
            item = json.loads(raw)
            self._enqueue_ai(item["gid"], item["seat"], item["version"], item["client"])
        return len(payloads)

    def ai_waiting(self, client: str | None) -> int:
        """How many AI turns of ``client`` wait for a slot."""
        return self.connection.llen(self._keys(client)[1])

    def _enqueue_ai(self, gid: str, seat: int, version: int, client: str | None) -> None:
        # The job id makes a re-enqueue of the same turn visible; the job itself is idempotent.
        self.enqueue("ai", AI_TURN, gid, seat, version, client, job_id=ai_job_id(gid, seat, version),
                     retry=rq.Retry(max=3), job_timeout=120)


    # -- analyses, fair between clients as AI turns are, with a bounded backlog ----------------------------

    analysis_stale_ms = 900_000  # an analysis job's slot older than this is taken for lost (its worker died)
    analysis_window_ms = 6 * 3600_000  # an analysis not done this long after it was asked is forgotten

    def _analysis_keys(self, client: str | None) -> list[str]:
        client = client or ANONYMOUS
        keys = self.keys
        return [keys.analysis_active(client), keys.analysis_waiting(client), keys.analysis_known(),
                keys.analysis_finished()]

    def reserve_analysis(self, client: str | None, analysis: str, per_client: int, total: int) -> int:
        """Count ``analysis`` ("gid:version") in ``client``'s backlog and the whole one: 1 counted (or already),
        0 the client has ``per_client`` analyses not done yet, -1 the backlog holds ``total`` (0: no cap)."""
        keys = self.keys
        return int(self._reserve_analysis(keys=[keys.analyses_of(client or ANONYMOUS), keys.analyses_all()],
                                          args=[analysis, _now(), per_client if client else 0, total,
                                                self.analysis_window_ms]))

    def analysis_finished(self, client: str | None, analysis: str) -> None:
        """``analysis`` is done (or given up): it leaves the backlogs."""
        pipe = self.connection.pipeline()
        pipe.zrem(self.keys.analyses_of(client or ANONYMOUS), analysis)
        pipe.zrem(self.keys.analyses_all(), analysis)
        pipe.execute()

    def analysis_job(self, job: str, args: list, job_id: str, timeout: int, client: str | None, cap: int) -> bool:
        """Queue analysis job ``job`` (a dotted path) with ``args``, or let it wait ``client``'s turn: at most
        ``cap`` jobs of one client queued or running at once, the same scripts as AI turns (``ai_submit``,
        ``ai_done``) over keys of their own. True if queued now; a job already queued or waiting is not again."""
        payload = json.dumps({"id": job_id, "job": job, "args": args, "timeout": timeout, "client": client})
        if not self._submit(keys=self._analysis_keys(client), args=[job_id, payload, _now(), cap if client else 0,
                                                                     self.analysis_stale_ms]):
            return False
        self._enqueue_analysis(job, args, job_id, timeout)
        return True

    def analysis_done(self, job_id: str, client: str | None, cap: int) -> int:
        """An analysis job of ``client`` has ended: free its slot and queue its next waiting jobs; how many."""
        payloads = self._done(keys=self._analysis_keys(client), args=[job_id, _now(), cap if client else 0,
                                                                       self.analysis_stale_ms])
        for raw in payloads:
            item = json.loads(raw)
            self._enqueue_analysis(item["job"], item["args"], item["id"], item["timeout"])
        return len(payloads)

    def analysis_lost(self, job_id: str, client: str | None) -> None:
        """An analysis job queued or running was lost (its lease lapsed: its worker died): forget it, freeing its
        client's slot, so that it can be queued again. A job still waiting for a slot is not lost."""
        keys = self._analysis_keys(client)
        if self.connection.hget(keys[2], job_id) in (b"w", "w"):
            return
        pipe = self.connection.pipeline()
        pipe.zrem(keys[0], job_id)
        pipe.hdel(keys[2], job_id)
        pipe.zrem(keys[3], job_id)
        pipe.execute()

    def analysis_waiting(self, client: str | None) -> int:
        """How many analysis jobs of ``client`` wait for a slot."""
        return self.connection.llen(self._analysis_keys(client)[1])

    def _enqueue_analysis(self, job: str, args: list, job_id: str, timeout: int) -> None:
        self.enqueue("analysis", job, *args, job_id=job_id, job_timeout=timeout)


class BatchedPokes:
    """The command path's job sink (``BURROW_FAST_PATH``): ``project(gid)`` notes the game and returns at once; a
    thread of this process sends the games noted in one round trip (``RQJobs.project_many``), ``GATHER_SECONDS``
    after the first of them, so a command pays no round trip for its projection and the commands of those
    milliseconds share one (the thread's own work, competing with the commands for the interpreter, is paid once
    for them all). A poke lost with its process costs nothing but time: the dispatcher pokes every game it reads in
    the log.

    The gathering lasts 20 ms: when the machine keeps up, the dispatcher's own poke (woken by the append) reaches
    the workers within a few milliseconds anyway (``bench/projection_lag.py``: the same lag with this sink off), so
    this one matters only when the dispatcher falls behind, and a longer gathering makes its thread wake once for
    many commands instead of once for nearly each: at 2 ms it cost an HTTP command about 0.3 ms of a 2.2 ms median
    (``docs/benchmarks.md``, "The front")."""

    GATHER_SECONDS = 0.02

    def __init__(self, jobs: RQJobs):
        self.jobs = jobs
        self._noted: set[str] = set()
        self._lock = threading.Lock()
        self._sending = threading.Lock()  # a flush returns once every game noted before it has been sent
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def project(self, gid: str) -> None:
        with self._lock:
            self._noted.add(gid)
            if self._thread is None or not self._thread.is_alive():  # first poke, or in a forked child
                self._thread = threading.Thread(target=self._send_forever, name="burrow-pokes", daemon=True)
                self._thread.start()
        if not self._wake.is_set():  # (setting a set event still takes its lock)
            self._wake.set()

    def flush(self) -> None:
        """Send the games noted so far, now, in this thread (after a send in progress)."""
        with self._sending:
            with self._lock:
                gids, self._noted = self._noted, set()
            if gids:
                self.jobs.project_many(list(gids))

    def _send_forever(self) -> None:
        while True:
            self._wake.wait()
            time.sleep(self.GATHER_SECONDS)
            self._wake.clear()
            try:
                self.flush()
            except redis.RedisError as exc:  # the dispatcher pokes them from the log
                log.warning("projection pokes not sent (%s); the dispatcher will send them", exc)


def _member(member: bytes | str) -> str:
    return member.decode() if isinstance(member, bytes) else member


def _now() -> int:
    return int(time.time() * 1000)
