"""One web process of ``burrow serve --web-only --processes N``, started by its supervisor (``burrow/serving.py``,
``serve_processes``): the settings it was given whole (every one, the command line's included), the listening
socket it inherits, a pipe to say it is ready. It builds its runtime, checks that Redis answers (a process that
cannot serve dies at start, and the command with it), says it is ready, then serves until SIGTERM or SIGINT."""

from __future__ import annotations

import os
import socket
import sys

from burrow import observed, serving


def main() -> int:
    settings = serving.settings_from_env()
    observed.prepare()  # the directory the supervisor made (PROMETHEUS_MULTIPROC_DIR): every process's metrics
    sock = socket.socket(fileno=int(os.environ[serving.LISTEN_FD_ENV]))
    from burrow.runtime import build, install
    from web.app import create_app
    from web.front import create_front

    runtime = build(settings, journal=False)
    try:
        runtime.store.ping()
    except Exception as exc:  # noqa: BLE001 - any reason it cannot serve: said in one line, exit 1
        print(f"burrow: web process {os.getpid()}: cannot reach redis ({exc})", file=sys.stderr)
        return 1
    install(runtime)
    front = create_front(create_app(runtime), int(os.environ.get(serving.THREADS_ENV, "32")))
    ready = int(os.environ[serving.READY_FD_ENV])
    os.write(ready, b"ready\n")
    os.close(ready)
    serving.serve_here(front, settings, sock, front.state.streams.close)
    return 0


if __name__ == "__main__":
    sys.exit(main())
