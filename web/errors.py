"""Errors as clients see them: ``{"error": {"code", "message", ...}}`` (docs/api.md), built here and nowhere else.

``body`` is the one builder; ``flask_response`` answers a Flask request with it, ``asgi_response`` answers on
the ASGI front (before Flask is reached: a body too large or too slow, a foreign host, a stream refused). The
``message`` is said here in the reader's language (``web/i18n.py``: a ``domain.text.Text``, or a plain string as
it is); the ``code`` never changes.
"""

from __future__ import annotations

import json

from flask import Response
from starlette.responses import JSONResponse

from web import i18n

RETRY_AFTER_SECONDS = 1  # a 503 (the store unreachable) says to try again after this


def extra_headers(status: int) -> dict[str, str]:
    """The headers an error of ``status`` carries besides its body: ``Retry-After`` on a 503."""
    return {"Retry-After": str(RETRY_AFTER_SECONDS)} if status == 503 else {}


def body(code: str, message: str, **details) -> dict:
    """The error document: a stable ``code`` for programs, a sentence ``message`` for people, and details."""
    return {"error": {"code": code, "message": message, **details}}


def flask_response(status: int, code: str, message: str, **details) -> tuple[Response, int]:
    """The error as a Flask answer, its message in the request's language."""
    document = body(code, i18n.say(message), **details)
    response = Response(json.dumps(document), mimetype="application/json", headers=extra_headers(status))
    if isinstance(details.get("retry_after"), int):  # a limit says when to come back (429, 503)
        response.headers["Retry-After"] = str(max(1, details["retry_after"]))
    return response, status


def asgi_response(status: int, code: str, message: str, lang: str = i18n.DEFAULT, close: bool = False,
                  **details) -> JSONResponse:
    """The error as the ASGI front's answer (before Flask is reached: the guard's refusals, a stream or a route of
    the front refused), its message in ``lang`` (``i18n.scope_language``); ``close`` ends the connection (the rest
    of the request is never read). Sent with ``await response(scope, receive, send)``."""
    headers = extra_headers(status)
    if close:
        headers["Connection"] = "close"
    return JSONResponse(body(code, i18n.say(message, lang), **details), status_code=status, headers=headers)
