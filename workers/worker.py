"""RQ workers: a worker process for production (``burrow worker``) and worker threads for the embedded mode.

Both are ``Worker``, RQ's ``SimpleWorker`` (a job runs in the worker itself, no fork: our jobs are short, pure
Python and idempotent, and a fork per job costs ten times the job, ``docs/benchmarks.md``). Nothing is scheduled
for later: clock checks are the dispatchers' (``services/games/clocks.py``), so no RQ scheduler runs. A worker
says it is alive every ``BEAT_SECONDS`` from a thread of its own (RQ's public ``heartbeat``), while it waits for a
job and while one runs alike, which is how ``burrow doctor`` tells a dead one within 10 seconds.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time

import rq
from rq.timeouts import TimerDeathPenalty

from services import trace
from services.context import Runtime
from services.jobs.queues import KINDS
from services.metrics import Metrics

log = logging.getLogger(__name__)
jobs_log = logging.getLogger("burrow.jobs")
RESTART_SECONDS = 1.0
WORKER_TTL = 20  # RQ's worker TTL: it waits for jobs WORKER_TTL - 15 s at a time, then beats again
BEAT_SECONDS = 2.0  # how often a worker says it is alive besides (``Worker.beating``; doctor: 8 s of silence)


class Worker(rq.SimpleWorker):
    """RQ's ``SimpleWorker``, leaving its command channel without a wait.

    RQ's ``unsubscribe`` leaves the channel, then stops the channel's reader thread, and redis-py's ``stop()``
    waits for that thread (since redis-py 8.2). A reader that has already seen the unsubscription goes on to wait
    for a next subscription, for its whole 60 s, before it looks again whether it should stop: then a worker's
    end (every burst of the tests, a ``burrow worker`` told to stop) took a minute. Here the reader is told to
    stop first, without waiting, so the unsubscription's reply is the last message it reads."""

    # RQ waits 1, 2, 4… up to 60 s between its tries to reach a Redis it lost; a failover of the queue Redis
    # (Sentinel: a few seconds) would then leave the workers idle for up to a minute after it ended.
    max_connection_wait_time = 2.0
    metrics: Metrics | None = None  # burrow_job_seconds{queue}, burrow_jobs_total{queue,outcome}
    kinds: dict[str, str] = {}  # an RQ queue's name → its kind (the label: bounded)

    def measured(self, runtime: Runtime) -> Worker:
        """This worker, its jobs timed into ``runtime``'s metrics."""
        self.metrics = runtime.metrics
        self.kinds = {queue.name: kind for kind, queue in runtime.jobs.queues.items()}
        return self

    @contextlib.contextmanager
    def beating(self, every: float = BEAT_SECONDS):
        """Say this worker is alive every ``every`` seconds while in the block, from a thread of its own: a job
        of several seconds (an analysis, a hard AI turn) then never looks like a dead worker to ``burrow doctor``,
        and a SIGKILLed one stops beating at once."""
        done = threading.Event()

        def beat() -> None:
            while not done.wait(every):
                try:
                    if self.connection.exists(self.key):  # registered, and not yet gone: never a key of its own
                        self.heartbeat()
                except Exception as exc:  # noqa: BLE001 - Redis away a moment: the next beat tries again
                    log.debug("rq worker: a heartbeat failed (%s)", exc)

        thread = threading.Thread(target=beat, name=f"beat {self.name}", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join(timeout=every + 1)

    def perform_job(self, job, queue, *args, **kwargs) -> bool:
        """RQ's, timed into the metrics and logged as one line (``burrow.jobs``) with the id of the request it
        was made for (``services/trace.py``), which it works under meanwhile."""
        started, ok = time.perf_counter(), False
        token = trace.begin((job.meta or {}).get("rid"))
        kind = self.kinds.get(queue.name, "other")
        try:
            ok = super().perform_job(job, queue, *args, **kwargs)
            return ok
        finally:
            took = time.perf_counter() - started
            if self.metrics is not None:
                self.metrics.job_seconds.labels(kind).observe(took)
                self.metrics.jobs.labels(kind, "ok" if ok else "failed").inc()
            outcome = "ok" if ok else "failed"
            jobs_log.info("%s %s", job.func_name, outcome, extra={"fields": {
                "event": "job", "queue": kind, "job": job.func_name, "id": job.id, "outcome": outcome,
                "seconds": round(took, 3)}})
            trace.end(token)

    def unsubscribe(self) -> None:
        thread = self.pubsub_thread
        if not thread:
            return
        thread.stop(timeout=0)
        self.pubsub.unsubscribe()
        thread.join(timeout=1)


class ThreadWorker(Worker):
    """A ``Worker`` in a thread of this process (the embedded Redis lives here: a forked process would
    see only a copy of it). Timeouts by timer, not by signal; ``run`` goes through RQ's own steps without the
    signal handlers of ``work()``, which only a main thread may install."""

    death_penalty_class = TimerDeathPenalty

    def run(self, stop: threading.Event | None = None, burst: bool = False, logging_level: str = "WARNING") -> int:
        """Take and run jobs until ``stop`` is set, or, ``burst``, until the queues are empty; the jobs run."""
        done = 0
        self.bootstrap(logging_level)
        try:
            while stop is None or not stop.is_set():
                # Waits WORKER_TTL - 15 s at most (idle: RQ's heartbeat), then looks at ``stop`` again.
                found = self.dequeue_job_and_maintain_ttl(None if burst else 1, None if burst else 1)
                if found is None:
                    if burst:
                        break
                    continue
                self.execute_job(*found)
                done += 1
        finally:
            self.teardown()
        return done


def start_thread_worker(runtime: Runtime, kind: str = "project", stop: threading.Event | None = None
                        ) -> threading.Thread:
    """Start a worker thread on the runtime's ``kind`` queue (``burrow serve``); returns the thread.

    A worker that stops on an error (Redis unreachable while a job ends, say) is replaced by a fresh one, so that
    an outage does not stop the jobs of a running server for good."""

    def supervise() -> None:
        while stop is None or not stop.is_set():
            try:
                queues = [runtime.jobs.queue(kind)]
                worker = ThreadWorker(queues, connection=runtime.worker_connection(), worker_ttl=WORKER_TTL)
                with worker.beating():
                    worker.measured(runtime).run(stop)
            except Exception as exc:  # noqa: BLE001 - logged, and the worker replaced
                log.warning("rq worker thread: the worker stopped (%s); starting another", exc)
                time.sleep(RESTART_SECONDS)

    thread = threading.Thread(target=supervise, name=f"rq-worker-{kind}", daemon=True)
    thread.start()
    return thread


SEARCHING = ("ai", "analysis")
"""The queues whose jobs run the games' AI searches."""


def load_engines(kinds: tuple[str, ...] | list[str]) -> None:
    """Before a worker on ``kinds`` takes a job: when it searches, every game's AI module imported now (the Murus
    engines load or compile their numba code as they are imported, seconds to a minute on a cold cache), so that
    no AI turn waits for it. A web process never imports them."""
    if any(kind in SEARCHING for kind in kinds):
        from domain import registry

        for game in registry.game_types():
            game.ai_module()


def run_worker(runtime: Runtime, burst: bool = False, kinds: tuple[str, ...] = KINDS) -> None:
    """Run an RQ worker on the ``kinds`` queues in the foreground (``burrow worker [--queue K]``). A worker that
    dies mid-job loses nothing: the dispatcher enqueues the job again (``workers/dispatcher.py``)."""
    load_engines(kinds)
    worker = Worker([runtime.jobs.queue(k) for k in kinds], connection=runtime.worker_connection(),
                    worker_ttl=WORKER_TTL).measured(runtime)
    with worker.beating():
        worker.work(burst=burst, logging_level="WARNING")  # one line per job is ours (perform_job), not RQ's
