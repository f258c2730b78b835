"""The gate in front of password hashing: argon2id is made to be slow and to use memory (64 MiB a hash), so a
process hashes at most about one password per core at once; a few more requests may wait a moment for a turn,
and the rest are refused at once (503 ``busy``, ``Retry-After``) instead of holding the request threads the rest
of the site needs: a flood of sign-ins never freezes ``/api/health`` or a move."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from contextlib import contextmanager
from typing import TypeVar

from domain.text import Text
from services import errors

WAIT_SECONDS = 2.0  # how long a request may wait for a turn before it is refused
RETRY_SECONDS = 1

T = TypeVar("T")


class Busy(errors.Unavailable):
    code = "busy"


class HashGate:
    """At most ``slots`` hashes at once (default: one per core), at most ``waiting`` more waiting for a turn (at
    most ``wait`` seconds); beyond, ``Busy`` at once."""

    def __init__(self, slots: int | None = None, waiting: int | None = None, wait: float = WAIT_SECONDS):
        self.slots = max(1, os.cpu_count() or 1) if slots is None else slots
        self.waiting = 2 * self.slots if waiting is None else waiting
        self.wait = wait
        self._free = threading.Semaphore(self.slots)
        self._lock = threading.Lock()
        self._queued = 0

    def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a turn of the gate; ``Busy`` when none is free soon enough."""
        with self.turn():
            return work()

    @contextmanager
    def turn(self):
        if not self._free.acquire(blocking=False):
            with self._lock:
                queue = self._queued < self.waiting
                if queue:
                    self._queued += 1
            try:
                if not queue or not self._free.acquire(timeout=self.wait):
                    raise Busy(Text("the server is busy checking passwords; try again in a moment"),
                               retry_after=RETRY_SECONDS)
            finally:
                if queue:
                    with self._lock:
                        self._queued -= 1
        try:
            yield
        finally:
            self._free.release()
