"""Request hardening of the serving model (uvicorn + ``web/asgi.py``), for ``burrow serve`` and production alike.

* **Slow or idle connections are dropped, and never hold a thread.** uvicorn serves every connection on one event
  loop; ``GuardedHttp`` closes a connection whose request head (line and headers) has not fully arrived
  ``HEAD_SECONDS`` after the connection opened or its previous response ended — uvicorn alone waits for ever on a
  connection that sends nothing or a byte a minute. An idle keep-alive connection closes after
  ``KEEP_ALIVE_SECONDS``. (``BURROW_HEAD_SECONDS``, ``BURROW_BODY_SECONDS`` change the two deadlines.)
* **Oversized bodies are refused before they are read**: ``read_body`` answers 413 at once from ``Content-Length``,
  reads a body without one (chunked) only up to the limit, and gives ``BODY_SECONDS`` for the whole body (408
  after). Only then does a Flask thread see the request, with the body in memory: a slow upload holds a coroutine,
  never one of the bounded pool's threads, and nothing is spooled to disk.
* A request head is at most ``MAX_HEAD_BYTES`` (the connection closes beyond); at most ``MAX_CONNECTIONS``
  connections per process (uvicorn answers 503 beyond).

``python -m web.serving [--host H] [--port P] [--workers N]`` runs ``burrow.asgi:app`` (production) with these.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_SECONDS = float(os.environ.get("BURROW_HEAD_SECONDS", "10"))
BODY_SECONDS = float(os.environ.get("BURROW_BODY_SECONDS", "10"))
KEEP_ALIVE_SECONDS = 5
MAX_CONNECTIONS = 10_000
MAX_HEAD_BYTES = 16 * 1024
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head."""

    head_seconds = HEAD_SECONDS

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_bytes = 0
        self._head_timer = self.loop.call_later(self.head_seconds, self._too_slow)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if getattr(self, "_head_timer", None) is not None:  # still no complete head: bounded in size too
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._too_slow()

    def _disarm(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head has its own deadline (the keep-alive timer closes idle ones)

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)


def uvicorn_options() -> dict[str, Any]:
    """The hardening options of ``uvicorn.Config`` (and ``uvicorn.run``)."""
    return {"http": GuardedHttp, "timeout_keep_alive": KEEP_ALIVE_SECONDS, "limit_concurrency": MAX_CONNECTIONS,
            "h11_max_incomplete_event_size": MAX_HEAD_BYTES}


async def read_body(scope, receive, send, limit: int):
    """The request's ``receive`` with its body read already, or None once it has been answered (413, 408, 400).

    A body longer than ``limit`` bytes is refused unread when ``Content-Length`` says so, and as soon as it passes
    the limit otherwise; the whole body must arrive within ``BODY_SECONDS``."""
    headers = {k.lower(): v for k, v in scope.get("headers", [])}
    length = headers.get(b"content-length")
    if length is not None:
        try:
            declared = int(length)
        except ValueError:
            await answer(send, 400, "bad_request", "Content-Length is not a number")
            return None
        if declared > limit:
            await answer(send, 413, "too_large", f"the body is over {limit} bytes")
            return None
    elif scope["method"] not in BODY_METHODS and b"transfer-encoding" not in headers:
        return receive  # no body
    chunks, size = [], 0
    deadline = asyncio.get_running_loop().time() + BODY_SECONDS
    while True:
        left = deadline - asyncio.get_running_loop().time()
        try:
            message = await asyncio.wait_for(receive(), max(left, 0.001))
        except TimeoutError:
            await answer(send, 408, "timeout", f"the request body did not arrive within {BODY_SECONDS:g} s")
            return None
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            await answer(send, 413, "too_large", f"the body is over {limit} bytes")
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    body = b"".join(chunks)
    given = False

    async def replay():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def answer(send, status: int, code: str, message: str) -> None:
    """A JSON error, closing the connection (the rest of the request is never read)."""
    raw = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": raw})


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    p = argparse.ArgumentParser(description="burrow.asgi:app under uvicorn, hardened (production)")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    uvicorn.run("burrow.asgi:app", host=args.host, port=args.port, workers=args.workers, backlog=4096,
                proxy_headers=False, timeout_graceful_shutdown=10, **uvicorn_options())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
