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
import datetime
import json
import logging
import logging.handlers
import os
import queue
import re
import sys

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
    event loop or a job. When ``QUEUED`` lines wait already, a line is dropped (and counted) instead."""

    def __init__(self, queue_: queue.Queue):
        super().__init__(queue_)
        self.dropped = 0

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        if getattr(record, "rid", None) is None:
            record.rid = trace.request_id()
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


QUEUED = 10_000
"""Lines waiting for the writing thread at most (then ``Handoff`` drops them)."""


def setup(stream=None) -> logging.Handler | None:
    """Every log line of this process as JSON (or text, ``BURROW_LOG_FORMAT=text``) on ``stream`` (stderr), written
    by a thread of its own (``Handoff``; what waits is written at exit); as ``logging.basicConfig``, nothing when
    the root logger has a handler already (a test's, an embedding program's)."""
    root = logging.getLogger()
    if root.handlers:
        return None
    writer = logging.StreamHandler(stream or sys.stderr)
    if os.environ.get("BURROW_LOG_FORMAT", "json").lower() == "text":
        writer.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    else:
        writer.setFormatter(JsonLines())
    handler = Handoff(queue.Queue(QUEUED))
    listener = logging.handlers.QueueListener(handler.queue, writer)
    listener.start()

    def stop() -> None:
        listener.stop()  # what waits is written
        if handler.dropped:
            writer.handle(logging.makeLogRecord({"name": "burrow.logs", "levelno": logging.WARNING,
                                                 "levelname": "WARNING",
                                                 "msg": f"{handler.dropped} log lines dropped (stderr too slow)"}))

    atexit.register(stop)
    root.addHandler(handler)
    root.setLevel(LEVEL)
    for name in OWN:
        logging.getLogger(name).setLevel(logging.INFO)
    return handler
