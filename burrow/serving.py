"""How the web front is served: Hypercorn, configured here once for ``burrow serve`` in all its forms.

Hypercorn is the server because its own settings bound what reaches the application (``docs/architecture.md``,
"The front"): ``keep_alive_timeout`` runs from a connection's start (and from the end of each response) until the
next request head has fully arrived, so a connection that sends nothing, or a head a byte a minute, is closed
after ``BURROW_HEAD_SECONDS``; ``h11_max_incomplete_size`` bounds a request head in bytes. The body is the
front's (``web/front.py``, ``Guard``). No hook into the server's classes is needed for either.
"""

from __future__ import annotations

import asyncio
import signal
import socket
from collections.abc import Callable

from hypercorn.config import Config

from services.config import Settings

MAX_HEAD_BYTES = 16 * 1024  # a request head longer than this closes its connection
APP_PATH = "burrow.asgi:app"  # what each process of ``burrow serve --web-only --processes N`` serves


def config(settings: Settings, bind: list[str], processes: int = 1) -> Config:
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
    conf.workers = processes
    conf.application_path = APP_PATH
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


def serve_processes(settings: Settings, sock: socket.socket, processes: int) -> int:
    """Serve ``APP_PATH`` in ``processes`` processes sharing ``sock`` (each builds its runtime from the
    environment: ``REDIS_URL`` is required); returns the exit status."""
    from hypercorn.run import run

    return run(config(settings, [f"fd://{sock.fileno()}"], processes))
