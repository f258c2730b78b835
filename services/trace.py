"""The request (or job) a thread is working for: its id, set where the work comes in and read where it goes out.

``web/`` sets it for each HTTP request (its ``X-Request-ID``, or one made there); the event store writes it into
the partition log's entries of the events a command appended (``append.lua``), the dispatcher hands it to the jobs
it makes of those entries (RQ's job ``meta``), and a worker sets it while the job runs: one id, searchable in the
structured logs (``burrow/logs.py``), follows a command from its request into its projection and AI turn.
"""

from __future__ import annotations

import contextvars
import re
import secrets

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("burrow_request_id", default=None)
FORM = re.compile(r"[A-Za-z0-9._-]{1,64}")  # an id a client may send: anything else is replaced by one of ours


def new_id() -> str:
    return secrets.token_hex(8)


def accepted(sent: str | None) -> str:
    """The id a request goes by: the one its client sent, when of a sane form, else a new one."""
    return sent if sent is not None and FORM.fullmatch(sent) else new_id()


def request_id() -> str | None:
    """The id of the request or job this thread works for, if any."""
    return _current.get()


def begin(rid: str | None) -> contextvars.Token:
    """Work for ``rid`` from now on (in this thread or task); ``end`` with the token returned."""
    return _current.set(rid)


def end(token: contextvars.Token) -> None:
    _current.reset(token)
