"""RQ worker entry points: a normal forking worker for production and a thread worker for the embedded mode."""

from __future__ import annotations

import threading

import rq
from rq.timeouts import TimerDeathPenalty

from services.runtime import Runtime


class ThreadWorker(rq.SimpleWorker):
    """Runs jobs in its own thread: timer-based timeouts, no signal handlers (only a main thread may set them)."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        pass


def start_thread_worker(runtime: Runtime) -> ThreadWorker:
    """Start a worker thread on the runtime's queue (embedded mode); returns the worker."""
    worker = ThreadWorker([runtime.queue], connection=runtime.rq_redis)
    thread = threading.Thread(target=worker.work, kwargs={"logging_level": "WARNING"}, name="rq-worker",
                              daemon=True)
    thread.start()
    return worker


def run_worker(runtime: Runtime, burst: bool = False) -> None:
    """Run a forking RQ worker in the foreground (``burrow worker``)."""
    worker = rq.Worker([runtime.queue], connection=runtime.rq_redis)
    worker.work(burst=burst, logging_level="INFO")
