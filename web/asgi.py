"""The ASGI front of the web app: live streams served by asyncio, every other request by Flask in a thread pool.

Why (``docs/architecture.md``, "Live updates"): an open Server-Sent Events stream is idle nearly all its
life. Served by a WSGI thread, each one held a thread (and a Redis connection blocked in ``XREAD``), and 33 open
pages took every thread of the service. Here a stream is a coroutine on one event loop: it costs a socket, a buffer
and a few KB, and waits on the process's one live-update hub (``services/live.py``), whose reader threads are the
only ones reading new versions from Redis. The rest of the API stays plain Flask (synchronous code, the same on
every server), run by ``a2wsgi`` on a bounded pool of ``threads`` threads, so a slow request never blocks the loop.

``burrow serve`` runs this app under uvicorn in its own process (embedded store, workers as threads); production
runs ``burrow.asgi:app`` under uvicorn, one process per core (``docker-compose.yml``).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from services import errors
from services.live.hub import RETRY_MS, Hub
from web.api import KEEPALIVE_SECONDS, SSE_HEADERS, last_event_id, live_hub
from web.serving import read_body

STREAM_PATH = re.compile(r"^/api/games/([0-9a-f]{12})/stream$")  # other ids: Flask says 404
SETUP_THREADS = 4  # threads that open streams (a store read each); never more, whatever the number of streams


class Waker:
    """Wakes stream coroutines from the hub's reader threads: one wake-up of the loop per batch of streams (a new
    version watched by 2,000 pages is one write to the loop's self-pipe, not 2,000)."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._lock = threading.Lock()
        self._pending: list = []
        self._scheduled = False

    def wake(self, callback) -> None:
        """Run ``callback`` on the loop soon; from any thread."""
        with self._lock:
            self._pending.append(callback)
            if self._scheduled:
                return
            self._scheduled = True
        self.loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        with self._lock:
            pending, self._pending, self._scheduled = self._pending, [], False
        for callback in pending:
            callback()


class Direct:
    """Writes a chunk of an open stream's response at once, on the loop, with no task switch: under uvicorn's
    httptools protocol (``send`` is its ``RequestResponseCycle.send``) while the client keeps up. A new version
    watched by 2,000 streams is then 2,000 socket writes from one callback, not 2,000 coroutines woken one by one.
    ``ready()`` is False (use ``send``) under another server, or while the client does not read (uvicorn's flow
    control has paused writing: ``send`` then waits for it) or is gone."""

    def __init__(self, send):
        cycle = getattr(send, "__self__", None)
        self.cycle = cycle if isinstance(cycle, RequestResponseCycle) else None

    def ready(self) -> bool:
        cycle = self.cycle
        return (cycle is not None and cycle.chunked_encoding and not cycle.flow.write_paused
                and not cycle.disconnected and cycle.response_started and not cycle.response_complete)

    def write(self, body: bytes) -> None:
        """One chunk (``ready()`` first)."""
        self.cycle.transport.write(b"%x\r\n%b\r\n" % (len(body), body))


class Front:
    """ASGI app: ``GET /api/games/<gid>/stream`` here, everything else to ``flask_app``."""

    def __init__(self, flask_app: Flask, threads: int = 32):
        self.flask = flask_app
        self.wsgi = WSGIMiddleware(flask_app, workers=threads)
        self.hub: Hub = live_hub(flask_app)
        self.settings = flask_app.config["RUNTIME"].settings
        self.setup = ThreadPoolExecutor(max_workers=SETUP_THREADS, thread_name_prefix="stream-open")
        self._wakers: dict[asyncio.AbstractEventLoop, Waker] = {}
        self._lock = threading.Lock()
        self._open: dict[asyncio.Event, dict] = {}  # every open stream: its wake-up → its state (on the loop)
        self._tickers: set[asyncio.AbstractEventLoop] = set()
        self.closing = False
        self.direct_writes = 0  # batches written by the wake-up itself (``Direct``)

    def close_streams(self) -> None:
        """The server is stopping: every open stream ends its response now (its client reconnects elsewhere or
        later), so the server need not wait for them. From any thread."""
        self.closing = True
        for loop in list(self._wakers):
            loop.call_soon_threadsafe(lambda: [wakeup.set() for wakeup in list(self._open)])

    def _keep_alive(self, loop: asyncio.AbstractEventLoop) -> None:
        """One task per loop marks every open stream for a keep-alive line every ``KEEPALIVE_SECONDS`` (cheaper
        than a timeout on each stream's every wait)."""
        if loop in self._tickers:
            return
        self._tickers.add(loop)

        async def tick() -> None:
            while True:
                await asyncio.sleep(KEEPALIVE_SECONDS)
                for wakeup, state in list(self._open.items()):
                    if state["loop"] is loop:
                        state["keepalive"] = True
                        wakeup.set()

        loop.create_task(tick())

    def _waker(self, loop: asyncio.AbstractEventLoop) -> Waker:
        with self._lock:
            if loop not in self._wakers:
                self._wakers[loop] = Waker(loop)
            return self._wakers[loop]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            match = STREAM_PATH.match(scope["path"])
            if match:
                await self.stream(match.group(1), scope, receive, send)
                return
        if scope["type"] == "http":  # the body read here, bounded and with a deadline: never by a Flask thread
            receive = await read_body(scope, receive, send, self.settings.limits["body_bytes"])
            if receive is None:
                return
        self.hub.answering.begin()  # the live readers let it finish before they publish
        try:
            await self.wsgi(scope, receive, send)
        finally:
            self.hub.answering.end()

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.hub.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def client_address(self, scope, headers: dict[str, str]) -> str | None:
        """The client's address: the peer, or the one ``trusted_proxies`` proxies name (as werkzeug's ProxyFix)."""
        peer = scope["client"][0] if scope.get("client") else None
        trusted = self.settings.trusted_proxies
        if trusted and "x-forwarded-for" in headers:
            values = [v.strip() for v in headers["x-forwarded-for"].split(",")]
            if len(values) >= trusted:
                return values[-trusted]
        return peer

    async def stream(self, gid: str, scope, receive, send) -> None:
        """One live stream: the versions after ``Last-Event-ID`` (or ``?after=``), then each new one as it
        comes."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        loop = asyncio.get_running_loop()
        wakeup = asyncio.Event()
        task = asyncio.current_task()
        state = {"sending": False, "sub": None, "gone": False, "keepalive": False, "loop": loop, "idle": False}
        direct = Direct(send)

        def on_wake() -> None:  # on the loop
            sub = state["sub"]
            if state["idle"] and direct.ready():  # the task waits, the client keeps up: write here and now
                batch = sub.take()
                if batch:
                    direct.write(b"".join(batch))
                    self.direct_writes += 1
                    return
            wakeup.set()
            if sub is not None and sub.dropped and state["sending"]:
                task.cancel()  # stuck writing to a client that does not read: end it, it reconnects

        waker = self._waker(loop)

        def wake() -> None:  # from a reader thread
            waker.wake(on_wake)

        try:
            after = last_event_id(headers.get("last-event-id"), (query.get("after") or [None])[0])
            sub = await loop.run_in_executor(self.setup, self.hub.subscribe, gid, after,
                                             self.client_address(scope, headers), wake)
        except errors.ServiceError as exc:
            await _json(send, exc.status, {"error": {"code": exc.code, "message": exc.message, **exc.details}})
            return
        state["sub"] = sub

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            state["gone"] = True
            wakeup.set()

        watcher = asyncio.ensure_future(watch_disconnect())
        self._open[wakeup] = state
        self._keep_alive(loop)

        async def write(body: bytes) -> None:
            state["sending"] = True
            try:
                await send({"type": "http.response.body", "body": body, "more_body": True})
            finally:
                state["sending"] = False

        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                *((k.lower().encode(), v.encode()) for k, v in SSE_HEADERS.items())]})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await write(f"retry: {RETRY_MS}\n\n".encode())
            while not state["gone"] and not self.closing:
                batch = sub.take()
                if batch is None:
                    break  # fell too far behind: the client reconnects from the last id it received
                if batch:
                    await write(b"".join(batch))
                    continue
                if state["keepalive"]:
                    state["keepalive"] = False
                    await write(b": keep-alive\n\n")
                    continue
                state["idle"] = True
                try:
                    await wakeup.wait()
                finally:
                    state["idle"] = False
                wakeup.clear()
            if not state["gone"]:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not sub.dropped:
                raise  # the server is stopping
            # Dropped while its writes were stuck: the server closes the connection (and logs that the response
            # was cut short); the client reconnects with Last-Event-ID.
        finally:
            self._open.pop(wakeup, None)
            watcher.cancel()
            self.hub.unsubscribe(sub)


async def _json(send, status: int, body: dict) -> None:
    raw = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]})
    await send({"type": "http.response.body", "body": raw})


def create_asgi(flask_app: Flask, threads: int = 32) -> Front:
    """The ASGI app over ``flask_app``, Flask running on ``threads`` threads."""
    return Front(flask_app, threads)


def stopping_streams(front: Front, config):
    """A uvicorn server for ``config`` (serving ``front``) that, on SIGINT/SIGTERM, ends every open stream at once
    instead of letting them hold the shutdown for its grace period (``burrow serve``)."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            front.close_streams()
            super().handle_exit(sig, frame)

    return Server(config)
