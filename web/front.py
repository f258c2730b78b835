"""The web front: one ASGI application (Starlette) serving the live streams itself and everything else by Flask.

Why (``docs/architecture.md``, "The front"): an open Server-Sent Events stream is idle nearly all its life, so it
must cost neither a thread nor a Redis connection. Here a stream is a coroutine on the event loop (sse-starlette's
``EventSourceResponse``), fed by the process's live hub (``services/live/hub.py``), whose reader threads alone read
new versions from Redis. The JSON API and the pages stay plain Flask (``web/app.py``), run on a bounded pool of
threads (``web/bridge.py``), so a slow or CPU-heavy request never blocks the loop.

Before any of them, ``Guard`` (a small ASGI middleware) decides once, for every request:

* **the client's address**: the peer's, or the one ``BURROW_TRUSTED_PROXIES`` proxies name in ``X-Forwarded-For``
  (``services/clients.py``), written into the request so that Flask and the streams see the same;
* **the host**: a request naming a host this site does not serve is refused (a DNS-rebinding page cannot borrow a
  visitor's browser to reach it; ``BURROW_ALLOWED_HOSTS``, by default the loopback names and the public URL's);
* **the body**: refused unread when ``Content-Length`` is over the limit (413), cut off when a chunked one passes
  it, and given ``BURROW_BODY_SECONDS`` to arrive (408); only then does a Flask thread see the request, its body
  in memory. (Request heads are bounded by the server: Hypercorn's keep-alive timeout, which runs from a
  connection's start until its request head has arrived, and its head size limit; ``burrow/serving.py``.)
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from urllib.parse import urlsplit

from flask import Flask
from prometheus_client import Gauge
from sse_starlette import EventSourceResponse
from sse_starlette.sse import SendTimeoutError
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from domain.text import Text
from services import bounds
from services import errors as service_errors
from services.accounts.sessions import session_hash
from services.bounds import is_game_id, is_stream_id
from services.clients import address_of
from services.config import Settings
from services.live.hub import RETRY_MS, Hub, Subscription, frame, new_hub
from web import errors, i18n
from web import metrics as web_metrics
from web.api import health_answer
from web.bridge import BODY, Bridge, TooLarge, receive_body

KEEPALIVE_SECONDS = 15  # a comment line on an idle stream, so proxies and clients see it alive
SEND_SECONDS = 10  # a stream whose client takes longer to accept one message is ended (it reconnects)
PLAIN_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}  # as Flask's answers
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
Subscribe = Callable[[Callable[[], None]], Subscription]
"""How a stream subscribes to the hub, given the wake-up of its coroutine (run on a setup thread)."""
Endpoint = Callable[[Request], Awaitable[Response]]
SETUP_THREADS = 4  # threads that open streams (the first stream of a game loads it); never more
BODY_METHODS = (b"POST", b"PUT", b"PATCH", b"DELETE")
SESSION_COOKIE = "burrow_session"  # the cookie web/session.py sets


class Waker:
    """Wakes stream coroutines from the hub's reader threads: one wake-up of the loop per batch (a new version
    watched by 2,000 pages is one write to the loop's self-pipe, not 2,000)."""

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


class Guard:
    """ASGI middleware: the client's address, the allowed hosts, and bounded request bodies (module docstring)."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.settings = settings
        self.hosts = allowed_hosts(settings)
        self.body_bytes = settings.limits.body_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        forwarded = headers.get(b"x-forwarded-for")
        peer = scope["client"][0] if scope.get("client") else None
        address = address_of(peer, forwarded.decode("latin-1") if forwarded else None,
                             self.settings.trusted_proxies)
        scope = {**scope, "client": (address, 0) if address else None}
        if self.settings.trusted_proxies and headers.get(b"x-forwarded-proto") in (b"http", b"https"):
            scope["scheme"] = headers[b"x-forwarded-proto"].decode()
        host = host_name(headers.get(b"host", b"").decode("latin-1"))
        if self.hosts is not None and host not in self.hosts:
            refused = errors.asgi_response(400, "bad_host", Text("this site is not served as {host}",
                                                                 host=repr(host[:100])),
                                           i18n.scope_language(scope), close=True)
            await refused(scope, receive, send)
            return
        if scope["method"].encode() in BODY_METHODS or b"content-length" in headers \
                or b"transfer-encoding" in headers:
            scope = await self._read_body(headers, receive, send, scope)
            if scope is None:
                return
        await self.app(scope, receive, send)

    async def _read_body(self, headers: dict, receive, send, scope: dict):
        """The request's scope with its body read (``bridge.BODY``: the bridge reads it there, not again), or None
        once answered (413, 408, 400; their messages in the request's language, worked out only then)."""

        async def refuse(status: int, code: str, message: Text) -> None:
            await errors.asgi_response(status, code, message, i18n.scope_language(scope), close=True)(
                scope, receive, send)

        limit = self.body_bytes
        too_large = Text("the body is over {limit} bytes", limit=limit)
        length = headers.get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await refuse(400, "bad_request", Text("Content-Length is not a number"))
                return None
            if declared > limit:
                await refuse(413, "too_large", too_large)
                return None
        try:
            async with asyncio.timeout(self.settings.body_seconds):  # one deadline for the whole body
                body = await receive_body(receive, limit)
        except TimeoutError:
            await refuse(408, "timeout", Text("the request body did not arrive within {s} s",
                                              s=float(self.settings.body_seconds)))
            return None
        except TooLarge:
            await refuse(413, "too_large", too_large)
            return None
        if body is None:
            return None
        return {**scope, BODY: body}


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port, lower case (``[::1]:8000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts(settings: Settings) -> frozenset[str] | None:
    """The host names this site answers to (None: any); ``BURROW_ALLOWED_HOSTS`` or the loopback names and the
    public URL's host."""
    if "*" in settings.allowed_hosts:
        return None
    names = {host_name(h) for h in settings.allowed_hosts}
    if settings.site_url:
        names.add((urlsplit(settings.site_url).hostname or "").lower())
    return frozenset(names - {""})


class Counted:
    """The Flask app behind its bridge, each request counted as being answered (the hub's readers let it finish
    before they fan a new version out: ``services/live/hub.py``, ``Answering``)."""

    def __init__(self, wsgi, hub: Hub):
        self.wsgi = wsgi
        self.hub = hub

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)
            return
        self.hub.answering.begin()
        try:
            await self.wsgi(scope, receive, send)
        finally:
            self.hub.answering.end()


class EventStream(EventSourceResponse):
    """sse-starlette's response, for a client that may stop reading: a message it has not taken within
    ``send_timeout`` ends the response, quietly (the server closes the connection; the client reconnects with
    ``Last-Event-ID``)."""

    async def __call__(self, scope, receive, send) -> None:
        with suppress(SendTimeoutError):
            await super().__call__(scope, receive, send)


class Streams:
    """The live streams, one route each: ``GET /api/games/<gid>/stream`` (a game's versions),
    ``GET /api/games/<gid>/notices`` (what happens beside them: chat, presence), ``GET /api/me/stream`` (an
    account's notifications; ``username_of`` a session cookie: its account's name) and ``GET
    /api/tournaments/<id>/stream`` (a tournament's document on each change)."""

    def __init__(self, hub: Hub, username_of=lambda cookie: None, live: Gauge | None = None,
                 tournament_of=lambda tid: None):
        self.hub = hub
        self.live = live  # burrow_live_streams (services/metrics.py)
        self.username_of = username_of
        self.tournament_of = tournament_of  # a tournament's stored document: (version, JSON) or None
        self.setup = ThreadPoolExecutor(max_workers=SETUP_THREADS, thread_name_prefix="stream-open")
        self._wakers: dict[asyncio.AbstractEventLoop, Waker] = {}
        self._open: set[asyncio.Event] = set()  # the wake-ups of every open stream
        self._lock = threading.Lock()
        self.closing = False

    def close(self) -> None:
        """The server is stopping: every open stream ends now (its client reconnects elsewhere or later)."""
        self.closing = True
        for loop in list(self._wakers):
            loop.call_soon_threadsafe(lambda: [wakeup.set() for wakeup in list(self._open)])

    def _waker(self, loop: asyncio.AbstractEventLoop) -> Waker:
        with self._lock:
            if loop not in self._wakers:
                self._wakers[loop] = Waker(loop)
            return self._wakers[loop]

    def route(self, opening: Callable[[Request], Awaitable[Subscribe]]) -> Endpoint:
        """The one routine of every stream route: ``opening`` checks the request and says how to subscribe (any
        ``ServiceError`` on the way is the front's error answer, in the request's language); the subscription is
        made on a setup thread (it may read Redis), then its messages are streamed until the client goes, the
        subscription ends or the server stops. A ``HEAD`` answers whether the stream would open."""

        async def endpoint(request: Request) -> Response:
            loop = asyncio.get_running_loop()
            wakeup, waker = asyncio.Event(), self._waker(loop)
            try:
                subscribe = await opening(request)
                sub = await loop.run_in_executor(self.setup, subscribe, lambda: waker.wake(wakeup.set))
            except service_errors.ServiceError as exc:
                return error_response(exc, request)
            if request.method == "HEAD":
                self.hub.unsubscribe(sub)
                return Response(media_type="text/event-stream", headers=SSE_HEADERS)
            return EventStream(self._messages(sub, wakeup), headers=SSE_HEADERS, ping=KEEPALIVE_SECONDS,
                               send_timeout=SEND_SECONDS, background=BackgroundTask(self.hub.unsubscribe, sub))

        return endpoint

    async def game(self, request: Request) -> Subscribe:
        """``GET /api/games/<gid>/stream``: the versions after ``Last-Event-ID`` (or ``?after=``), then each new
        one as it comes."""
        gid = request.path_params["gid"]
        if not is_game_id(gid):
            raise service_errors.NotFound(Text("no game {gid}", gid=repr(gid[:40])))
        after = last_event_id(request.headers.get("last-event-id"), request.query_params.get("after"))
        address = address_of_request(request)
        return lambda wake: self.hub.subscribe(gid, after, address, wake)

    async def notices(self, request: Request) -> Subscribe:
        """``GET /api/games/<gid>/notices``: what happens beside a game's versions (a chat message posted, a
        player back), from now on: the game's own stream carries its versions and nothing else."""
        gid = request.path_params["gid"]
        if not is_game_id(gid):
            raise service_errors.NotFound(Text("no game {gid}", gid=repr(gid[:40])))
        cookie = request.cookies.get(SESSION_COOKIE)
        # Opened with a live session's cookie, it ends with that session (a stolen cookie's stream must not
        # outlive "sign out everywhere"); a guest without one has nothing to revoke.
        signed = cookie and await self._username(cookie) is not None
        session = session_hash(cookie) if signed else None
        address = address_of_request(request)
        return lambda wake: self.hub.subscribe_notices(gid, address, wake, session)

    async def account(self, request: Request) -> Subscribe:
        """``GET /api/me/stream``: the signed-in account's notifications, to every tab and device, after
        ``Last-Event-ID`` (a reconnect) or from now on."""
        cookie = request.cookies.get(SESSION_COOKIE)
        username = await self._username(cookie) if cookie else None
        if username is None:
            raise service_errors.Unauthorized(Text("sign in first: this is an account's stream"))
        after = request.headers.get("last-event-id")
        if after is not None and not is_stream_id(after):
            raise service_errors.BadRequest(Text("Last-Event-ID: not a notification's id"))
        address, session = address_of_request(request), session_hash(cookie)
        return lambda wake: self.hub.subscribe_account(username.lower(), after, address, wake, session)

    async def tournament(self, request: Request) -> Subscribe:
        """``GET /api/tournaments/<id>/stream``: the tournament's document now (unless ``Last-Event-ID`` is its
        version), then on each change."""
        tid = request.path_params["tid"]
        after = last_event_id(request.headers.get("last-event-id"), request.query_params.get("after"))
        if not (1 <= len(tid) <= 20 and tid.isalnum()):
            raise service_errors.NotFound(Text("no tournament {id}", id=repr(tid[:40])))
        address = address_of_request(request)
        return lambda wake: self.hub.subscribe_tournament(tid, after, address, wake, self.tournament_of)

    async def _username(self, cookie: str) -> str | None:
        """The account a session cookie is signed in as (a Redis read: on a setup thread)."""
        return await asyncio.get_running_loop().run_in_executor(self.setup, self.username_of, cookie)

    async def _messages(self, sub: Subscription, wakeup: asyncio.Event):
        self._open.add(wakeup)
        if self.live is not None:
            self.live.inc()
        try:
            yield frame(retry=RETRY_MS)
            while not self.closing:
                batch = sub.take()
                if batch is None:
                    return  # fell too far behind: the client reconnects from the last id it received
                if batch:
                    yield b"".join(batch)
                    continue
                await wakeup.wait()
                wakeup.clear()
        finally:
            self._open.discard(wakeup)
            if self.live is not None:
                self.live.dec()
            self.hub.unsubscribe(sub)


def address_of_request(request: Request) -> str | None:
    """The client's address as the guard decided it."""
    return request.client.host if request.client else None


def last_event_id(header: str | None, after: str | None) -> int:
    """The version a stream starts after: ``Last-Event-ID`` (a reconnect), else ``?after=``, else 0."""
    return bounds.parse_int(header or after or "0", "Last-Event-ID")


def error_response(exc: service_errors.ServiceError, request: Request | None = None) -> JSONResponse:
    """A service error as the front's JSON answer, its message in the ``request``'s language (its ``code`` never
    changes)."""
    lang = i18n.scope_language(request.scope) if request is not None else i18n.DEFAULT
    return errors.asgi_response(exc.status, exc.code, exc.text, lang, **exc.details)


def create_front(flask_app: Flask, threads: int = 32) -> Starlette:
    """The ASGI application over ``flask_app`` (its runtime's settings and hub), Flask on ``threads`` threads."""
    runtime = flask_app.config["RUNTIME"]
    hub = new_hub(runtime)
    accounts = runtime.accounts

    def username_of(cookie: str) -> str | None:
        """The account's username of a session cookie, or a guest session's id (its notifications' key)."""
        found = accounts.signed_in(cookie)
        if found:
            return found[1].username
        session = accounts.sessions.find(cookie)
        return session.account if session is not None and session.guest else None

    metrics = runtime.metrics
    tournaments = runtime.tournaments
    streams = Streams(hub, username_of, metrics.live_streams if metrics is not None else None,
                      tournaments.stored if tournaments is not None else lambda tid: None)

    @asynccontextmanager
    async def lifespan(app):
        yield
        streams.close()
        hub.stop()

    checker = flask_app.extensions["burrow.health"]

    async def health(request: Request) -> Response:
        """``GET /api/health`` on the loop's own executor: answered even while every Flask thread waits on a
        stalled Redis."""
        status, document = await asyncio.get_running_loop().run_in_executor(None, health_answer, checker)
        return JSONResponse(document, status_code=status, headers={"Cache-Control": "no-store", **PLAIN_HEADERS})

    own = [Route("/api/health", health, methods=["GET"]),
           Route("/api/games/{gid}/stream", streams.route(streams.game), methods=["GET", "HEAD"]),
           Route("/api/games/{gid}/notices", streams.route(streams.notices), methods=["GET"]),
           Route("/api/me/stream", streams.route(streams.account), methods=["GET"]),
           Route("/api/tournaments/{tid}/stream", streams.route(streams.tournament), methods=["GET"])]
    if runtime.settings.metrics and metrics is not None:
        own.append(web_metrics.metrics_route(runtime, error_response, PLAIN_HEADERS))
    routes = [*own, Mount("/", app=Counted(Bridge(flask_app, threads), hub))]
    front = Starlette(routes=routes, lifespan=lifespan)
    front.add_middleware(Guard, settings=runtime.settings)
    # Outermost: the guard's refusals are counted and logged too; every request gets its id here.
    front.add_middleware(web_metrics.HttpMetrics, metrics=metrics, routes=web_metrics.Routes(own, flask_app))
    front.state.hub, front.state.streams = hub, streams
    return front
