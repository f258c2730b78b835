"""The Flask app factory."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from flask import Flask, Response, request
from flask.json.provider import DefaultJSONProvider

from services import trace
from services.context import Runtime
from services.health import Health
from web.bridge import ROUTE
from web.errors import flask_response
from web.headers import AnswerHeaders


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON answers (``jsonify``) encoded by msgspec: the same JSON (UTF-8, keys in the order given), about
    five times faster than the standard library's encoder on a game's document. Templates' ``tojson`` keep
    Flask's own ``dumps``."""

    def response(self, *args, **kwargs) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(msgspec.json.encode(obj, enc_hook=self.default) + b"\n",
                                        mimetype=self.mimetype)


TRACE = "burrow.trace"
"""The environ's key of the request's trace (``services/trace.py``) while Flask answers it."""


class App(Flask):
    """Flask, asking once per function whether it is a coroutine function: Flask's ``ensure_sync`` asks ``inspect``
    at every call of every hook and view (seven times for a command), though the answer never changes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable, Callable] = {}

    def ensure_sync(self, func: Callable) -> Callable:
        sync = self._sync.get(func)
        if sync is None:
            sync = super().ensure_sync(func)
            if len(self._sync) < 10_000:  # hooks, views and handlers: a few hundred, registered once
                self._sync[func] = sync
        return sync


def create_app(runtime: Runtime) -> Flask:
    """The web app over ``runtime`` (its store, service and projections)."""
    from web import i18n
    from web.accounts import accounts_bp
    from web.api import api
    from web.away import away_bp
    from web.install import install_bp
    from web.learn import learn_api, learn_pages
    from web.pages import pages
    from web.people import people_api
    from web.tournaments import tournaments_api

    app = App(__name__)
    app.json = JSONProvider(app)
    app.config["RUNTIME"] = runtime
    app.config["MAX_CONTENT_LENGTH"] = runtime.settings.limits.body_bytes
    app.extensions["burrow.health"] = Health.of(runtime)  # GET /api/health, here and on the front
    # Every blueprint is registered here, by name: a module's routes are its own blueprint's (the JSON API's under
    # /api with its rules, ``web/api.py`` ``api_blueprint``), never added to another's by importing it.
    app.register_blueprint(api)
    app.register_blueprint(people_api)
    app.register_blueprint(tournaments_api)
    app.register_blueprint(learn_api)
    app.register_blueprint(pages)
    app.register_blueprint(learn_pages)
    i18n.init_app(app)  # Flask-Babel and the language of each request (web/i18n.py)
    app.register_blueprint(accounts_bp)
    app.register_blueprint(away_bp)
    app.register_blueprint(install_bp)
    # The client's address (behind trusted proxies too) and the scheme are decided once, by the front
    # (``web/front.py``, ``Guard``): Flask's ``request.remote_addr`` and ``request.is_secure`` are those.

    @app.errorhandler(404)
    def not_found(exc):
        if request.path.startswith("/api/"):
            return flask_response(404, "not_found", f"no such endpoint {request.path}")
        return exc

    @app.errorhandler(405)
    def method_not_allowed(exc):
        if request.path.startswith("/api/"):
            return flask_response(405, "method_not_allowed", f"{request.method} is not allowed on {request.path}")
        return exc

    @app.errorhandler(413)
    def too_large(exc):
        limit = runtime.settings.limits.body_bytes
        return flask_response(413, "too_large", f"the body is over {limit} bytes")

    @app.errorhandler(500)
    def internal(exc):
        if request.path.startswith("/api/"):
            return flask_response(500, "internal", "internal error")
        return exc

    app.wsgi_app = AnswerHeaders(app.wsgi_app)  # the headers of every answer, whatever its route

    @app.before_request
    def request_id():
        """The request's id, as the front gave it (``X-Request-ID``), for this thread while Flask answers: the
        event store writes it with the events a command appends (``services/trace.py``)."""
        environ, rule = request.environ, request.url_rule
        environ[TRACE] = trace.begin(environ.get("HTTP_X_REQUEST_ID"))
        matched = environ.get(ROUTE)
        if matched is not None and rule is not None:  # the metrics' label (``web/metrics.py``)
            matched.append(rule.rule)

    @app.teardown_request
    def request_done(exc):
        token = request.environ.pop(TRACE, None)
        if token is not None:
            trace.end(token)

    return app
