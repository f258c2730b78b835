"""Flask (WSGI) under the ASGI front, one hop to a thread and back per request.

The API's answers are small and whole (the one streaming route, the live stream, is the front's own), and the
guard has read the request's body before (``web/front.py``). So a request is run to completion on a pool thread
— environ in, status, headers and body out — and sent from the event loop in one go. a2wsgi, the general adapter,
passes every message of the answer from the thread to the loop and waits for each (four round trips between the
threads for one JSON answer); measured in ``docs/benchmarks.md`` ("The front"), that was most of the front's own
cost per command. The hop itself is a plain queue of requests taken by ``threads`` threads, each answer handed back
with one ``call_soon_threadsafe``: ``run_in_executor`` chains a second future through the executor's and costs
about twice as much per request (``docs/benchmarks.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import queue
import sys
import threading
from typing import Any

BODY = "burrow.body"
"""The scope's key of the request body the guard has read (``web/front.py``): the bridge reads no other, and hands
it to the routes under the same key of the environ (``web/schemas.py``, ``request_body``)."""
ROUTE = "burrow.route"
"""The scope's (and the environ's) key of a list the WSGI app puts the route it matched in (its template): the
metrics label a request with it without matching the path a second time (``web/metrics.py``)."""


class TooLarge(Exception):
    """The body passed its limit (nothing after the limit is read)."""


async def receive_body(receive, limit: int | None = None) -> bytes | None:
    """The request's whole body from ASGI ``receive`` (None: the client went away); ``TooLarge`` once it passes
    ``limit`` bytes. The one reader of request bodies: the guard's, or the bridge's when no guard stands before
    it."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if limit is not None and size > limit:
            raise TooLarge
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def environ_of(scope: dict, body: bytes) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI HTTP request whose body is ``body``."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client")
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf8").decode("latin1"),
        "PATH_INFO": scope["path"].encode("utf8").decode("latin1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_NAME": server[0] if server else "localhost",
        "SERVER_PORT": str(server[1]) if server and server[1] is not None else "80",
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0] if client else "",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        BODY: body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        ROUTE: scope.get(ROUTE),
    }
    for name, value in scope.get("headers", []):
        key = name.decode("latin1").upper().replace("-", "_")
        if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            environ[key] = value.decode("latin1")
            continue
        key = f"HTTP_{key}"
        text = value.decode("latin1")
        environ[key] = f"{environ[key]},{text}" if key in environ else text
    return environ


class Bridge:
    """ASGI app running the WSGI app ``app`` on ``threads`` pool threads, one request at a time per thread."""

    def __init__(self, app, threads: int = 32):
        self.app = app
        self.threads = threads
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._started = False
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            if not self._started:
                for i in range(self.threads):
                    threading.Thread(target=self._serve, name=f"flask_{i}", daemon=True).start()
                self._started = True

    def _serve(self) -> None:
        """A pool thread: answer requests, one at a time, handing each answer (or error) back to its loop."""
        while True:
            loop, future, environ = self._requests.get()
            try:
                outcome = (self._answer(environ), None)
            except BaseException as exc:  # handed to the awaiting request, raised there
                outcome = (None, exc)
            with contextlib.suppress(RuntimeError):  # its loop is closed (the server stopped): nobody waits
                loop.call_soon_threadsafe(_settle, future, *outcome)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            return
        body = scope.get(BODY) if BODY in scope else await receive_body(receive)  # the guard's, read once
        if body is None:
            return
        environ = environ_of(scope, body)
        if not self._started:
            self._start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._requests.put((loop, future, environ))
        status, headers, body = await future
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _answer(self, environ: dict) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The WSGI app's whole answer to ``environ`` (on a pool thread)."""
        started: list = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info=None):
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return lambda data: parts.append(data)

        parts: list[bytes] = []
        result = self.app(environ, start_response)
        try:
            parts.extend(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (int(status.split(" ", 1)[0]),
                [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers], b"".join(parts))


def _settle(future: asyncio.Future, answer, exc: BaseException | None) -> None:
    """Give a pool thread's answer to the request awaiting it (on its loop), unless it is gone (cancelled)."""
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(answer)
