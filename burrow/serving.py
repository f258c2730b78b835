"""How the web front is served: Hypercorn, configured here once for ``burrow serve`` in all its forms.

Hypercorn is the server because its own settings bound what reaches the application (``docs/architecture.md``,
"The front"): ``keep_alive_timeout`` runs from a connection's start (and from the end of each response) until the
next request head has fully arrived, so a connection that sends nothing, or a head a byte a minute, is closed
after ``BURROW_HEAD_SECONDS``; ``h11_max_incomplete_size`` bounds a request head in bytes. The body is the
front's (``web/front.py``, ``Guard``). No hook into the server's classes is needed for either.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from hypercorn.config import Config

from services.config import Settings

MAX_HEAD_BYTES = 16 * 1024  # a request head longer than this closes its connection


def config(settings: Settings, bind: list[str]) -> Config:
    """Hypercorn's configuration for this site: the bounds above, no access log, uvloop."""
    conf = Config()
    conf.bind = bind
    conf.keep_alive_timeout = settings.head_seconds
    conf.h11_max_incomplete_size = MAX_HEAD_BYTES
    conf.backlog = 4096
    conf.graceful_timeout = 5
    conf.accesslog = None
    conf.loglevel = "WARNING"
    conf.include_server_header = False
    conf.worker_class = "uvloop"
    return conf


def serve_here(app, settings: Settings, sock: socket.socket, on_stop: Callable[[], None]) -> None:
    """Serve ``app`` on ``sock`` (bound already) in this process until SIGINT or SIGTERM; ``on_stop`` runs first
    then (open streams end at once instead of holding the shutdown)."""
    import uvloop
    from hypercorn.asyncio import serve

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def stopping() -> None:
            on_stop()
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stopping)
        await serve(app, config(settings, [f"fd://{sock.fileno()}"]), shutdown_trigger=stop.wait)

    uvloop.run(main())


SETTINGS_ENV = "BURROW_SETTINGS_JSON"  # every setting of the command, for its web processes
LISTEN_FD_ENV = "BURROW_LISTEN_FD"  # the listening socket they share
READY_FD_ENV = "BURROW_READY_FD"  # where each says it is ready
THREADS_ENV = "BURROW_WEB_THREADS"
START_SECONDS = 60  # a web process not ready by then has failed to start
BACKOFF_SECONDS = (1, 2, 5, 10, 30)  # waits before replacing a web process that died again before it was ready


def settings_to_env(settings: Settings) -> str:
    """Every field of ``settings`` as JSON (what ``settings_from_env`` reads back in a web process)."""
    return json.dumps(dataclasses.asdict(settings))


def settings_from_env() -> Settings:
    """The settings a supervisor handed over (``settings_to_env``), every field as it had it."""
    return Settings.from_plain(json.loads(os.environ[SETTINGS_ENV]))


class WebProcess:
    """One slot of the supervisor: the process serving in it now, started again when it ends."""

    def __init__(self, number: int, env: dict[str, str], sock: socket.socket):
        self.number = number
        self.env = env
        self.sock = sock
        self.proc: subprocess.Popen | None = None
        self.ready = False
        self.failures = 0  # deaths before ready in a row
        self.announced = False  # its readiness said (a replacement's)
        self.not_before = 0.0
        self._pipe: int | None = None

    def start(self) -> None:
        read, write = os.pipe()
        env = {**self.env, LISTEN_FD_ENV: str(self.sock.fileno()), READY_FD_ENV: str(write)}
        self.proc = subprocess.Popen([sys.executable, "-m", "burrow.web_process"], env=env,
                                     pass_fds=(self.sock.fileno(), write))
        os.close(write)
        os.set_blocking(read, False)
        self._pipe, self.ready, self.announced = read, False, False

    def check_ready(self) -> bool:
        """Whether it has said it is ready (reads its pipe)."""
        if not self.ready and self._pipe is not None:
            try:
                said = os.read(self._pipe, 64)
            except BlockingIOError:
                said = b""
            if said.startswith(b"ready"):
                self.ready, self.failures = True, 0
                os.close(self._pipe)
                self._pipe = None
        return self.ready

    def ended(self) -> int | None:
        """Its exit status once it has ended (a signal as a negative number), else None."""
        code = self.proc.poll() if self.proc is not None else None
        if code is not None and self._pipe is not None:
            self.check_ready()
            if self._pipe is not None:
                os.close(self._pipe)
                self._pipe = None
        return code

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)


def _said(code: int) -> str:
    return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"


def serve_processes(settings: Settings, sock: socket.socket, processes: int, threads: int = 32) -> int:  # noqa: C901
    """Serve ``web/front.py`` in ``processes`` processes sharing ``sock``, each handed every one of ``settings``
    (``burrow/web_process.py``), and supervise them one by one: one that ends is replaced on the same socket (the
    others serve on, untouched; one that keeps dying before it is ready is started again after a growing wait).
    Returns 1 at once, every process stopped, when one dies before it is ready at the start (a setting or Redis it
    cannot use) or is not ready within ``START_SECONDS``; 0 after SIGTERM or SIGINT."""
    env = {**os.environ, SETTINGS_ENV: settings_to_env(settings), THREADS_ENV: str(threads)}
    slots = [WebProcess(n, env, sock) for n in range(processes)]
    stopping = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stopping.set())
    try:
        for slot in slots:
            slot.start()
        deadline = time.monotonic() + START_SECONDS
        while not all(slot.check_ready() for slot in slots):
            for slot in slots:
                code = slot.ended()
                if code is not None and not slot.ready:
                    print(f"burrow: web process {slot.number + 1} (pid {slot.proc.pid}) died at start "
                          f"({_said(code)}); stopping", file=sys.stderr)
                    return 1
            if time.monotonic() > deadline:
                print(f"burrow: the web processes were not ready within {START_SECONDS} s; stopping",
                      file=sys.stderr)
                return 1
            if stopping.wait(0.05):
                return 0
        print(f"burrow: {processes} web processes ready (pids {', '.join(str(s.proc.pid) for s in slots)})",
              file=sys.stderr)
        for slot in slots:
            slot.announced = True
        while not stopping.wait(0.2):
            for slot in slots:
                _supervise(slot)
        return 0
    finally:
        _stop_all(slots)


def _supervise(slot: WebProcess) -> None:
    """Replace the slot's process if it has ended (after a wait if it keeps dying before it is ready)."""
    if slot.check_ready() and not slot.announced:
        slot.announced = True
        print(f"burrow: web process {slot.number + 1} (pid {slot.proc.pid}) ready", file=sys.stderr)
    code = slot.ended()
    if code is None:
        return
    now = time.monotonic()
    if slot.not_before == 0.0:
        if not slot.ready:
            slot.failures += 1
        wait = BACKOFF_SECONDS[min(slot.failures, len(BACKOFF_SECONDS)) - 1] if slot.failures else 0
        slot.not_before = now + wait
        print(f"burrow: web process {slot.number + 1} (pid {slot.proc.pid}) ended ({_said(code)}); "
              f"starting another{f' in {wait} s' if wait else ''}", file=sys.stderr)
    if now >= slot.not_before:
        slot.not_before = 0.0
        slot.start()
        print(f"burrow: web process {slot.number + 1} started again (pid {slot.proc.pid})", file=sys.stderr)


def _stop_all(slots: list[WebProcess], grace: float = 10.0) -> None:
    """SIGTERM every web process, SIGKILL those still running after ``grace`` seconds."""
    for slot in slots:
        slot.stop()
    deadline = time.monotonic() + grace
    for slot in slots:
        if slot.proc is None:
            continue
        try:
            slot.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            slot.stop(signal.SIGKILL)
            slot.proc.wait()
