"""The Flask app factory."""

from __future__ import annotations

from flask import Flask, jsonify, request
from werkzeug.middleware.proxy_fix import ProxyFix

from services.context import Runtime


def create_app(runtime: Runtime) -> Flask:
    """The web app over ``runtime`` (its store, service and projections)."""
    from web.api import api
    from web.pages import pages

    app = Flask(__name__)
    app.config["RUNTIME"] = runtime
    app.config["MAX_CONTENT_LENGTH"] = runtime.settings.limits["body_bytes"]
    app.register_blueprint(api)
    app.register_blueprint(pages)
    proxies = runtime.settings.trusted_proxies
    if proxies:
        # Behind ``proxies`` reverse proxies, each appending to X-Forwarded-For: the client is the address the
        # outermost one saw. Untrusted (the default), the header is ignored, so a client cannot pick its address.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)

    @app.errorhandler(404)
    def not_found(exc):
        if request.path.startswith("/api/"):
            return jsonify({"error": {"code": "not_found", "message": f"no such endpoint {request.path}"}}), 404
        return exc

    @app.errorhandler(405)
    def method_not_allowed(exc):
        if request.path.startswith("/api/"):
            return jsonify({"error": {"code": "method_not_allowed",
                                      "message": f"{request.method} is not allowed on {request.path}"}}), 405
        return exc

    @app.errorhandler(413)
    def too_large(exc):
        limit = runtime.settings.limits["body_bytes"]
        return jsonify({"error": {"code": "too_large", "message": f"the body is over {limit} bytes"}}), 413

    @app.errorhandler(500)
    def internal(exc):
        if request.path.startswith("/api/"):
            return jsonify({"error": {"code": "internal", "message": "internal error"}}), 500
        return exc

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if response.mimetype == "text/html":
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
        return response

    return app
