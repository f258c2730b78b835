"""Errors as clients see them: ``{"error": {"code", "message", ...}}`` (docs/api.md), built here and nowhere else.

``body`` is the one builder; ``flask_response`` answers a Flask request with it, ``send`` answers on the ASGI
front (before Flask is reached: a body too large or too slow, a foreign host, a stream refused). The ``message``
is said here in the reader's language (``web/i18n.py``: a ``domain.text.Text``, or a plain string as it is); the
``code`` never changes.
"""

from __future__ import annotations

import json

from flask import Response

from services.errors import ServiceError
from web import i18n

RETRY_AFTER_SECONDS = 1  # a 503 (the store unreachable) says to try again after this


def extra_headers(status: int) -> dict[str, str]:
    """The headers an error of ``status`` carries besides its body: ``Retry-After`` on a 503."""
    return {"Retry-After": str(RETRY_AFTER_SECONDS)} if status == 503 else {}


def body(code: str, message: str, **details) -> dict:
    """The error document: a stable ``code`` for programs, a sentence ``message`` for people, and details."""
    return {"error": {"code": code, "message": message, **details}}


def of(exc: ServiceError, lang: str | None = None) -> tuple[int, dict]:
    """A service error's status and document, its message in ``lang`` (default: the Flask request's)."""
    return exc.status, body(exc.code, i18n.say(exc.text, lang), **exc.details)


def flask_response(status: int, code: str, message: str, **details) -> tuple[Response, int]:
    """The error as a Flask answer, its message in the request's language."""
    document = body(code, i18n.say(message), **details)
    response = Response(json.dumps(document), mimetype="application/json", headers=extra_headers(status))
    if isinstance(details.get("retry_after"), int):  # a limit says when to come back (429, 503)
        response.headers["Retry-After"] = str(max(1, details["retry_after"]))
    return response, status


async def send(send, status: int, code: str, message: str, close: bool = False, lang: str = i18n.DEFAULT,
               **details) -> None:
    """The error as an ASGI answer, its message in ``lang`` (``i18n.scope_language``); ``close`` ends the
    connection (the rest of the request is never read)."""
    raw = json.dumps(body(code, i18n.say(message, lang), **details)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    headers += [(k.lower().encode(), v.encode()) for k, v in extra_headers(status).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw})
