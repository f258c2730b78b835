"""RQ worker entry points: a worker process for production and a thread worker for the embedded mode."""

from __future__ import annotations

import logging
import threading
import time

import rq
from rq.registry import ScheduledJobRegistry
from rq.scheduler import RQScheduler
from rq.timeouts import TimerDeathPenalty

from services.context import Runtime
from services.jobs.queues import KINDS
from services.store.connection import REDIS_DOWN

log = logging.getLogger(__name__)
RESTART_SECONDS = 1.0
SCHEDULER_SECONDS = 1  # RQ's scheduler interval: its heartbeat (whole seconds: RQ's lock and heartbeat TTLs)
POLL_SECONDS = 0.1  # how often our schedulers move due jobs (clock checks) to their queue


class ExactRegistry(ScheduledJobRegistry):
    """Scheduled jobs due by the current time to the millisecond (RQ's registry compares whole seconds)."""

    def get_jobs_to_schedule(self, timestamp: float | None = None, chunk_size: int = 1000) -> list[str]:
        return super().get_jobs_to_schedule(time.time(), chunk_size)


class ExactScheduler(RQScheduler):
    """RQ's scheduler, moving due jobs every ``POLL_SECONDS`` and to the millisecond (the clock checks of
    ``services/jobs.py`` are scored exactly), so a timeout lands within about a tenth of a second of its deadline
    instead of up to a second after it. Locks and heartbeat keep RQ's one-second interval and TTLs."""

    def prepare_registries(self, queue_names=None) -> None:
        super().prepare_registries(queue_names)
        self._scheduled_job_registries = [
            ExactRegistry(r.name, connection=self.connection, serializer=self.serializer)
            for r in self._scheduled_job_registries]

    def work(self) -> None:  # RQScheduler.work, polling more often than it beats
        self._install_signal_handlers()
        self.register_birth()
        beat = None
        while not self._stop_requested:
            try:
                if beat is None or time.monotonic() - beat >= self.interval:
                    if self.should_reacquire_locks:
                        self.acquire_locks()
                    self.heartbeat()
                    beat = time.monotonic()
                self.enqueue_scheduled_jobs()
            except REDIS_DOWN as exc:  # an outage: clock checks wait for Redis, the scheduler does not die
                log.warning("scheduler: redis unreachable (%s); retrying", exc)
                beat = None
                time.sleep(RESTART_SECONDS)
                continue
            time.sleep(POLL_SECONDS)
        self.stop()


class ThreadScheduler(ExactScheduler):
    """RQ's scheduler (jobs enqueued at a time: clock checks) in a thread: the embedded Redis lives in this
    process, and the forked process RQ would start sees only a copy of it."""

    def _install_signal_handlers(self) -> None:
        pass

    def start(self) -> threading.Thread:
        self._status = self.Status.STARTED
        self._process = threading.Thread(target=self.work, name="rq-scheduler", daemon=True)
        self._process.start()
        return self._process


class ThreadWorker(rq.SimpleWorker):
    """Runs jobs in its own thread: timer-based timeouts, no signal handlers (only a main thread may set them)."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        pass

    def _start_scheduler(self, burst: bool = False, logging_level: str | None = "INFO", *args, **kwargs) -> None:
        self.scheduler = ThreadScheduler(self.queues, connection=self.connection, interval=SCHEDULER_SECONDS,
                                         logging_level=logging_level or "WARNING", serializer=self.serializer)
        self.scheduler.acquire_locks()
        if self.scheduler.acquired_locks:
            self.scheduler.start()

    def stop_scheduler(self) -> None:
        if self.scheduler is not None and self.scheduler._process is not None:
            self.scheduler.request_stop()
            self.scheduler._process.join(5)


class ProcessWorker(rq.SimpleWorker):
    """``burrow worker``: RQ's worker without a fork per job, whose scheduler (a process, as RQ starts it) is the
    exact one."""

    def _start_scheduler(self, burst: bool = False, logging_level: str | None = "INFO", *args, **kwargs) -> None:
        self.scheduler = ExactScheduler(self.queues, connection=self.connection, interval=SCHEDULER_SECONDS,
                                        logging_level=logging_level or "INFO", serializer=self.serializer)
        self.scheduler.acquire_locks()
        if not self.scheduler.acquired_locks:
            return
        if not burst:
            self.scheduler.start()
            return
        try:  # a burst worker moves what is due now, once
            self.scheduler.register_birth()
            self.scheduler.enqueue_scheduled_jobs()
        finally:
            self.scheduler.release_locks()
            self.scheduler.register_death()


def start_thread_worker(runtime: Runtime, kind: str = "project") -> threading.Thread:
    """Start a worker thread on the runtime's ``kind`` queue (``burrow serve``); returns the thread.

    RQ's work loop quits on an error it does not handle (Redis unreachable while a job ends, say); the thread then
    starts a fresh worker, so that a Redis outage does not stop the jobs of a running server for good.
    """

    def supervise() -> None:
        while True:
            try:
                ThreadWorker([runtime.jobs.queue(kind)], connection=runtime.rq_redis).work(
                    logging_level="WARNING", with_scheduler=kind == "project")  # clock checks: project queue
            except Exception as exc:  # noqa: BLE001 - logged, and the worker replaced
                log.warning("rq worker thread: the worker stopped (%s); starting another", exc)
            time.sleep(RESTART_SECONDS)

    thread = threading.Thread(target=supervise, name=f"rq-worker-{kind}", daemon=True)
    thread.start()
    return thread


def run_worker(runtime: Runtime, burst: bool = False, kinds: tuple[str, ...] = KINDS) -> None:
    """Run an RQ worker on the ``kinds`` queues in the foreground (``burrow worker [--queue K]``).

    It runs jobs in its own process, without a fork per job: the jobs are short, pure Python and idempotent, and
    a fork per job costs ten times the job itself (``docs/benchmarks.md``). A worker that dies mid-job loses
    nothing: the dispatcher enqueues the job again (see ``workers/dispatcher.py``).
    """
    worker = ProcessWorker([runtime.jobs.queue(k) for k in kinds], connection=runtime.rq_redis)
    worker.work(burst=burst, logging_level="INFO", with_scheduler=True)  # clock checks are scheduled jobs
