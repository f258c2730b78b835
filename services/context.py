"""The runtime of one process, and the holder jobs read it from.

``Runtime`` bundles what the wiring (``burrow/runtime.py``) builds, each once: the Redis clients, the store, the
games' states, the seats, the command service, the projector, the job queues, the ratings, the accounts, the
analyses, the cap on expensive reads and the tournaments. Web and workers receive it, or read it with
``current()``; they never build one, nor any of its parts. A process that nobody installed a runtime
in (a bare ``rq worker`` running our jobs) gets one built from the environment by the composition root, imported by
name on first use, as jobs are enqueued by name: services never import the packages above them.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass

import redis
import rq

from services.accounts.service import Accounts
from services.away.service import Away
from services.config import Settings
from services.games.commands import GameService
from services.games.seats import Seats
from services.games.states import States
from services.jobs.queues import RQJobs
from services.metrics import Metrics
from services.people import People
from services.reads.analysis import Analyses
from services.reads.limits import ExpensiveReads
from services.reads.projections import Projector
from services.reads.ratings import Ratings
from services.store.streams import EventStore
from services.tournaments.service import Tournaments

ROOT = "burrow.runtime"  # the composition root's module: ``from_env()`` builds a runtime from the environment


@dataclass
class Runtime:
    settings: Settings
    redis: redis.Redis
    rq_redis: redis.Redis
    store: EventStore
    games: States
    seats: Seats
    service: GameService
    projector: Projector
    queue: rq.Queue
    jobs: RQJobs
    ratings: Ratings
    accounts: Accounts  # accounts, sessions, the accounts' seats (``services/accounts/``; journaled when embedded)
    analyses: Analyses  # post-game analyses and their jobs (``services/reads/analysis.py``)
    old_reads: ExpensiveReads  # the per-client cap on reads of old versions (``services/reads/limits.py``)
    embedded: bool = False
    loaded_games: int = 0
    people: People | None = None  # chat, presence, notifications (``services/people/``)
    metrics: Metrics | None = None  # what this process observes (``services/metrics.py``)
    tournaments: Tournaments | None = None  # ``services/tournaments/``
    away: Away | None = None  # push, mail, password reset (``services/away/``)
    worker_redis: redis.Redis | None = None  # the queues' Redis for RQ workers alone (its own pool); else rq_redis

    def worker_connection(self) -> redis.Redis:
        """The client an RQ worker of this process is given."""
        return self.worker_redis if self.worker_redis is not None else self.rq_redis


_current: Runtime | None = None
_lock = threading.Lock()


def install(runtime: Runtime) -> None:
    """Make ``runtime`` the one job functions use in this process (``burrow`` commands, tests)."""
    global _current
    _current = runtime


def current() -> Runtime:
    """This process's runtime; built from the environment on first use (``rq worker`` processes)."""
    global _current
    with _lock:
        if _current is None:
            _current = importlib.import_module(ROOT).from_env()
        return _current
