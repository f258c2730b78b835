"""Who a request comes from: the account of its ``burrow_session`` cookie, looked up once per request."""

from __future__ import annotations

from flask import current_app, g, request

from services import accounts as accounts_of
from services import errors

COOKIE = "burrow_session"
COOKIE_SECONDS = 30 * 24 * 3600


def accounts():
    """The accounts of this app's runtime."""
    return accounts_of.of(current_app.config["RUNTIME"])


def signed_in():
    """``(session, account)`` of the request's cookie, or None (looked up once per request)."""
    if "burrow_signed_in" not in g:
        cookie = request.cookies.get(COOKIE)
        g.burrow_signed_in = accounts().signed_in(cookie) if cookie else None
    return g.burrow_signed_in


def username() -> str | None:
    """The signed-in account's username, or None for a guest."""
    found = signed_in()
    return found[1].username if found else None


def required():
    """``(session, account)``, or 401 for a guest."""
    found = signed_in()
    if found is None:
        raise errors.Unauthorized("sign in first: this needs an account (POST /api/session)")
    return found


def set_cookie(response, session_id: str) -> None:
    """The session's cookie: HttpOnly, SameSite=Lax, Secure when the site is served over https."""
    response.set_cookie(COOKIE, session_id, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="Lax",
                        secure=request.is_secure)


def clear_cookie(response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax", secure=request.is_secure)
