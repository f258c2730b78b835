"""The headers every answer of the Flask app carries whatever its route, written in one place.

* **Plain**: ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` on every answer, and a
  ``Content-Security-Policy`` on every page (unless the route set its own).
* **Vary**: every answer varies with ``Accept-Language`` and ``Cookie`` (a cache must not give one reader another's
  language: ``web/i18n.py``); the JSON API's (``/api/``) with ``Authorization`` too.
* **Private answers** (issue #31): an API answer that depends on who asks is never kept by a cache, a proxy's or
  the browser's: anything asked with a bearer token or a session cookie (a seat's document, its legal moves, hidden
  cards) and every answer to a POST, PUT, PATCH or DELETE (a new game's seat tokens, a claimed seat's) is
  ``Cache-Control: no-store``.

A WSGI middleware around Flask (``app.wsgi_app``), reading the environ and adding to the header list Flask hands
the server: three after-request hooks did this through werkzeug's ``Headers`` (parsed, searched and rewritten on
every answer), a fifth of the JSON API's own time per command (``docs/benchmarks.md``). Routes with rules of their
own (the accounts' and the away pages', always ``no-store``) keep them; these are added around them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.http import parse_cookie

from web.session import COOKIE

PLAIN = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"))
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
               "base-uri 'none'; frame-ancestors 'none'")
VARY = ("Accept-Language", "Cookie")
API_VARY = (*VARY, "Authorization")
READS = ("GET", "HEAD")


class AnswerHeaders:
    """WSGI middleware: ``app``'s answers with the headers of the module docstring."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None):
            add_headers(environ, headers)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def add_headers(environ: dict[str, Any], headers: list[tuple[str, str]]) -> None:
    """Add this module's headers to ``headers``, the answer to ``environ`` (in place)."""
    where = {name.lower(): i for i, (name, _) in enumerate(headers)}
    for name, value in PLAIN:
        if name.lower() not in where:
            headers.append((name, value))
    if "content-security-policy" not in where and "content-type" in where \
            and headers[where["content-type"]][1].startswith("text/html"):
        headers.append(("Content-Security-Policy", PAGE_POLICY))
    api = environ.get("PATH_INFO", "").startswith("/api/")
    vary = API_VARY if api else VARY
    if "vary" in where:
        i = where["vary"]
        present = headers[i][1]
        have = {v.strip().lower() for v in present.split(",")}
        more = [name for name in vary if name.lower() not in have]
        if more:
            headers[i] = ("Vary", ", ".join((present, *more)))
    else:
        headers.append(("Vary", ", ".join(vary)))
    if api and private(environ):
        if "cache-control" in where:
            headers[where["cache-control"]] = ("Cache-Control", "no-store")
        else:
            headers.append(("Cache-Control", "no-store"))


def private(environ: dict[str, Any]) -> bool:
    """Whether the answer to ``environ`` depends on who asks, or hands out something of theirs: a write, or a
    request with a bearer token or a session cookie."""
    if environ.get("REQUEST_METHOD") not in READS or "HTTP_AUTHORIZATION" in environ:
        return True
    cookies = environ.get("HTTP_COOKIE", "")
    return COOKIE in cookies and bool(parse_cookie(cookies).get(COOKIE))
