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

import datetime
import json
import logging
import os
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
        rid = trace.request_id()
        if rid is not None:
            line["rid"] = rid
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = mask(self.formatException(record.exc_info))
        return json.dumps(line, default=str)


def setup(stream=None) -> logging.Handler | None:
    """Every log line of this process as JSON (or text, ``BURROW_LOG_FORMAT=text``) on ``stream`` (stderr); as
    ``logging.basicConfig``, nothing when the root logger has a handler already (a test's, an embedding
    program's)."""
    root = logging.getLogger()
    if root.handlers:
        return None
    handler = logging.StreamHandler(stream or sys.stderr)
    if os.environ.get("BURROW_LOG_FORMAT", "json").lower() == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    else:
        handler.setFormatter(JsonLines())
    root.addHandler(handler)
    root.setLevel(LEVEL)
    for name in OWN:
        logging.getLogger(name).setLevel(logging.INFO)
    return handler
