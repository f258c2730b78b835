"""Errors as clients see them: ``{"error": {"code", "message", ...}}`` (CONTRACT.md), built here and nowhere else.

``body`` is the one builder; ``flask_response`` answers a Flask request with it, ``send`` answers on the ASGI
front (before Flask is reached: a body too large or too slow, a foreign host, a stream refused).
"""

from __future__ import annotations

import json

from flask import Response

from services.errors import ServiceError


def body(code: str, message: str, **details) -> dict:
    """The error document: a stable ``code`` for programs, a sentence ``message`` for people, and details."""
    return {"error": {"code": code, "message": message, **details}}


def of(exc: ServiceError) -> tuple[int, dict]:
    """A service error's status and document."""
    return exc.status, body(exc.code, exc.message, **exc.details)


def flask_response(status: int, code: str, message: str, **details) -> tuple[Response, int]:
    """The error as a Flask answer."""
    return Response(json.dumps(body(code, message, **details)), mimetype="application/json"), status


async def send(send, status: int, code: str, message: str, close: bool = False, **details) -> None:
    """The error as an ASGI answer; ``close`` ends the connection (the rest of the request is never read)."""
    raw = json.dumps(body(code, message, **details)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw})
