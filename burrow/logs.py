"""Logs an operator can search: one JSON object per line, on stderr, for every process ``burrow`` starts.

Each line has ``ts`` (UTC, ISO 8601), ``level``, ``logger``, ``msg``, the ``rid`` of the request or job the line
was written for (``services/trace.py``), and the fields a line adds (``extra={"fields": {...}}``): one line per
HTTP request (``burrow.requests``: method, route template, status, ms, client) and one per job
(``burrow.jobs``: queue, function, job id, outcome, seconds). ``BURROW_LOG_FORMAT=text`` gives plain lines instead.

What is never written: a line is built from our own fields and messages, none of which carries a token, a password,
a session id or an event's data (tests/reliability/test_logs.py looks for them in every line of a session); as a
last guard, anything shaped like a bearer token or a ``password=``/``token=``/``session=`` value is masked.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime
import json
import logging
import logging.handlers
import os
import queue
import re
import sys
import threading
import time

from services import trace

LEVEL = logging.WARNING  # the rest of the library's lines; requests and jobs are INFO lines of their own loggers
OWN = ("burrow.requests", "burrow.jobs")
_SECRET = re.compile(r"(?i)(bearer\s+|(?:password|passwd|token|session|cookie)[\"']?\s*[=:]\s*[\"']?)"
                     r"[^\s\"'&,;}]+")


def mask(text: str) -> str:
    """``text`` with anything shaped like a credential's value replaced by ``***``."""
    return _SECRET.sub(lambda m: m.group(1) + "***", text)


class JsonLines(logging.Formatter):
    """A record as one JSON object."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": mask(record.getMessage()),
        }
        rid = getattr(record, "rid", None) or trace.request_id()
        if rid is not None:
            line["rid"] = rid
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = mask(self.formatException(record.exc_info))
        return json.dumps(line, default=str)


class Handoff(logging.handlers.QueueHandler):
    """Hands each record to the writing thread (``setup``), with the request id it was written for: a request's
    line is formatted and written off its thread, and a stderr read slowly (a full pipe) never stalls the server's
    event loop or a job. When ``QUEUED`` lines wait already, a line is dropped (and counted) instead. The queue is
    the C one (``queue.SimpleQueue``): a put and a get cost no Python lock or condition (the bounded
    ``queue.Queue``'s cost a request about 30 µs of the interpreter between them, ``docs/benchmarks.md``)."""

    def __init__(self, queue_: queue.SimpleQueue):
        super().__init__(queue_)
        self.dropped = 0

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        if getattr(record, "rid", None) is None:
            record.rid = trace.request_id()
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        if self.queue.qsize() >= QUEUED:
            self.dropped += 1
        else:
            self.queue.put_nowait(record)


QUEUED = 10_000
"""Lines waiting for the writing thread at most (then ``Handoff`` drops them)."""
BATCH = 1_000
"""Lines written by one write at most: the writer takes every line waiting, so a busy server's lines cost one
system call for many."""
GATHER_SECONDS = 0.05
"""How long the writer lets lines gather after the first of a batch: woken for each line, it took the interpreter
from the requests about 35 µs a request (``docs/benchmarks.md``); a line reaches the stream at most this late."""
_STOP = object()


class Writer(threading.Thread):
    """The thread that formats the records handed over and writes them to ``stream``, every line waiting in one
    write."""

    def __init__(self, queue_: queue.SimpleQueue, stream, formatter: logging.Formatter):
        super().__init__(name="burrow-logs", daemon=True)
        self.queue, self.stream, self.formatter = queue_, stream, formatter

    def run(self) -> None:
        while True:
            records = [self.queue.get()]
            if records[0] is not _STOP:
                time.sleep(GATHER_SECONDS)
            while len(records) < BATCH:
                try:
                    records.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            stop = _STOP in records
            lines = [self.formatter.format(r) + "\n" for r in records if r is not _STOP]
            with contextlib.suppress(OSError, ValueError):  # a stream gone (closed at exit): nothing to do
                self.stream.write("".join(lines))
                self.stream.flush()
            if stop:
                return

    def stop(self) -> None:
        """Write what waits, then end."""
        self.queue.put(_STOP)
        self.join(10)


def setup(stream=None) -> logging.Handler | None:
    """Every log line of this process as JSON (or text, ``BURROW_LOG_FORMAT=text``) on ``stream`` (stderr), written
    by a thread of its own (``Handoff``, ``Writer``; what waits is written at exit); as ``logging.basicConfig``,
    nothing when the root logger has a handler already (a test's, an embedding program's)."""
    root = logging.getLogger()
    if root.handlers:
        return None
    stream = stream or sys.stderr
    if os.environ.get("BURROW_LOG_FORMAT", "json").lower() == "text":
        formatter = logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s")
    else:
        formatter = JsonLines()
    handler = Handoff(queue.SimpleQueue())
    writer = Writer(handler.queue, stream, formatter)
    writer.start()

    def stop() -> None:
        writer.stop()  # what waits is written
        if handler.dropped:
            with contextlib.suppress(OSError, ValueError):
                stream.write(formatter.format(logging.makeLogRecord({
                    "name": "burrow.logs", "levelno": logging.WARNING, "levelname": "WARNING",
                    "msg": f"{handler.dropped} log lines dropped (stderr too slow)"})) + "\n")
                stream.flush()

    atexit.register(stop)
    # No line names its thread or process: a record need not look them up (the logging module's own advice for a
    # process that logs every request).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    root.addHandler(handler)
    root.setLevel(LEVEL)
    for name in OWN:
        logging.getLogger(name).setLevel(logging.INFO)
    return handler
