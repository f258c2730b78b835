"""The front's part of the metrics: every HTTP request counted by route template and status, and ``GET /metrics``.

A request's route is the template it matched (``/api/games/<gid>/commands``), never its path: a label per game id
would make a time series per game. A path nothing matches is ``unmatched``.
"""

from __future__ import annotations

import asyncio
import logging
import time

from flask import Flask
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from werkzeug.exceptions import HTTPException

from domain.text import Text
from services import errors as service_errors
from services import trace
from services.config import allowed
from services.metrics import CONTENT_TYPE, Metrics, StateCollector, scrape
from web.bridge import ROUTE

UNMATCHED = "unmatched"
REQUEST_ID = b"x-request-id"
requests_log = logging.getLogger("burrow.requests")


class Routes:
    """The route template of a request: one of the front's own routes, else the Flask rule it matches."""

    def __init__(self, front_routes: list[Route], flask_app: Flask):
        self.front_routes = front_routes
        self.flask_map = flask_app.url_map
        self._adapter = flask_app.url_map.bind("localhost")

    def template(self, scope: dict) -> str:
        for route in self.front_routes:
            match, _ = route.matches(scope)
            if match is not Match.NONE:
                return route.path
        try:
            rule, _ = self._adapter.match(scope["path"], method=scope["method"], return_rule=True)
        except HTTPException:
            return UNMATCHED
        return rule.rule


class HttpMetrics:
    """ASGI middleware, outermost: each request's status and time under its route's template (the guard's
    refusals too), and its request id (``X-Request-ID``: the client's when of a sane form, else a new one; sent
    back, handed to Flask, and logged with the request's one line, ``burrow.requests``). A live stream counts when
    its head is sent, and its time is that of its opening."""

    def __init__(self, app, metrics: Metrics | None, routes: Routes):
        self.app = app
        self.metrics = metrics
        self.routes = routes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        matched: list[str] = []  # the route Flask matched (``web/bridge.py`` ROUTE), if the request reaches it
        sent = next((v for k, v in scope["headers"] if k == REQUEST_ID), None)
        rid = trace.accepted(sent.decode("latin-1") if sent is not None else None)
        scope = {**scope, "headers": [*((k, v) for k, v in scope["headers"] if k != REQUEST_ID),
                                      (REQUEST_ID, rid.encode())], ROUTE: matched}
        token = trace.begin(rid)
        status = None

        async def counting_send(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start" and status is None:
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []), (REQUEST_ID, rid.encode())]}
                # Counted and logged once the answer is on its way: run by the loop after this request's task
                # yields (its head and body written), in this request's context (its id in the line).
                asyncio.get_running_loop().call_soon(self._record, scope, matched, status,
                                                     time.perf_counter() - started)
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            trace.end(token)

    def _record(self, scope: dict, matched: list[str], status: int, took: float) -> None:
        """Count one answered request under its route's template and write its line."""
        route = matched[0] if matched else self.routes.template(scope)
        if self.metrics is not None:
            self.metrics.http_requests.labels(route, str(status)).inc()
            self.metrics.http_seconds.labels(route).observe(took)
        requests_log.info("%s %s %s", scope["method"], route, status, extra={"fields": {
            "event": "request", "method": scope["method"], "route": route, "status": status,
            "ms": round(took * 1000, 1), "client": scope["client"][0] if scope.get("client") else None}})


def metrics_route(runtime, error_response, headers: dict[str, str]) -> Route:
    """``GET /metrics``: every process's metrics and the state of Redis, to the addresses of
    ``BURROW_METRICS_ALLOW`` only (403 otherwise)."""
    state = StateCollector(runtime)
    allow = runtime.settings.metrics_allow

    async def endpoint(request: Request) -> Response:
        address = request.client.host if request.client else None
        if not allowed(address, allow):
            return error_response(service_errors.Forbidden(
                Text("the metrics are not served to this address (BURROW_METRICS_ALLOW)")), request)
        text = await asyncio.get_running_loop().run_in_executor(None, scrape, runtime.metrics, state)
        return Response(text, media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store", **headers})

    return Route("/metrics", endpoint, methods=["GET"])
