"""How a process's metrics join the deployment's: prometheus-client's multiprocess mode, set up once per process.

Every process of a deployment on one machine (the web processes of ``burrow serve --processes N``, its worker
threads, ``burrow worker`` and ``burrow dispatch``) writes its metrics' values into files of one directory,
``PROMETHEUS_MULTIPROC_DIR``, and the process answering ``GET /metrics`` adds them up (``services/metrics.py``).
``burrow serve`` makes a fresh directory for its own processes when none is set; an operator running workers as
processes of their own gives them all the same directory (``docker-compose.yml``: a shared volume).

The files are named after the process: ``<host>-<pid>``, not the pid alone, so that containers sharing the volume
(each with its own pid 1) never write into each other's files. A process that ended leaves its counters and
histograms (a counter never goes down), but its live gauge (``burrow_live_streams``) must stop counting: each
process, as it starts, drops the live gauges of the processes of its host that are gone, and its own as it ends.
"""

from __future__ import annotations

import atexit
import glob
import os
import socket
import tempfile

DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"  # prometheus-client's own name for the directory


def enabled() -> bool:
    """Whether metrics are on (``BURROW_METRICS``; off: no ``/metrics`` route, no files)."""
    from services.config import Settings

    return Settings.one("metrics")


def identity(pid: int | None = None) -> str:
    """This process's name in the directory: ``<host>-<pid>`` (of process ``pid``, by default this one).
    prometheus-client asks it at every change of every value (to notice a fork), so this process's is kept, and
    forgotten in a forked child."""
    global _own
    if pid is not None:
        return f"{socket.gethostname()}-{pid}"
    if _own is None:
        _own = f"{socket.gethostname()}-{os.getpid()}"
    return _own


_own: str | None = None


def _forked() -> None:
    global _own
    _own = None


os.register_at_fork(after_in_child=_forked)


def prepare(own_dir: bool = False) -> str | None:
    """Set this process up to share its metrics (before any metric is made); the directory, or None when this
    process keeps its metrics to itself (no directory set, and ``own_dir`` false) or metrics are off.

    ``own_dir``: make a fresh directory when none is set (``burrow serve``: its processes inherit it)."""
    if not enabled():
        return None
    directory = os.environ.get(DIR_ENV)
    if not directory:
        if not own_dir:
            return None
        directory = tempfile.mkdtemp(prefix="burrow-metrics-")
        os.environ[DIR_ENV] = directory
    os.makedirs(directory, exist_ok=True)
    from prometheus_client import values

    # prometheus-client picks its value class from the environment when it is first imported; the process
    # identifier is its documented hook (``MultiProcessValue(process_identifier=...)``).
    values.ValueClass = values.MultiProcessValue(process_identifier=identity)
    forget_dead(directory)
    atexit.register(_forget, directory, identity())
    return directory


def forget_dead(directory: str) -> list[str]:
    """Drop the live gauges of this host's processes that are gone; the processes forgotten."""
    host = socket.gethostname()
    gone = set()
    for path in glob.glob(os.path.join(directory, f"gauge_live*_{host}-*.db")):
        pid_text = path.rsplit("-", 1)[1].removesuffix(".db")
        if pid_text.isdigit() and not _alive(int(pid_text)):
            gone.add(identity(int(pid_text)))
    for name in gone:
        _forget(directory, name)
    return sorted(gone)


def _forget(directory: str, name: str) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(name, directory)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
