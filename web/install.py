"""The installable site (docs/api.md "Away from the site"): the web app manifest, the service worker at the site's
root (its scope is the whole site: pushes, the kept shell)
and the page it shows when the network cannot be reached."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, render_template

from domain.text import Text
from web import i18n

install_bp = Blueprint("install", __name__, template_folder="templates")
STATIC = Path(__file__).parent / "static"


@install_bp.get("/sw.js")
def service_worker():
    """The service worker; never cached by HTTP (the browser checks it for a new version on every visit)."""
    response = Response((STATIC / "sw.js").read_bytes(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@install_bp.get("/manifest.webmanifest")
def manifest():
    lang = i18n.request_language()
    body = {
        "name": "Burrow",
        "short_name": "Burrow",
        "description": i18n.say(Text("turn-based board games"), lang),
        "lang": i18n.HTML_LANG[lang],
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#faf7f0",
        "theme_color": "#3b2f23",
        "icons": [
            {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "/static/icons/maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@install_bp.get("/offline")
def offline():
    """What a page asked for without a network shows (the service worker keeps it): it says so, nothing more."""
    return render_template("offline.html")
