"""Who a request comes from: the account — or the guest — of its ``burrow_session`` cookie, looked up once per
request."""

from __future__ import annotations

from flask import after_this_request, current_app, g, request

from domain.text import Text
from services import bounds, errors
from services.people.person import Person
from web import i18n

COOKIE = "burrow_session"
COOKIE_SECONDS = 30 * 24 * 3600


def accounts():
    """The accounts of this app's runtime."""
    return current_app.config["RUNTIME"].accounts


def signed_in():
    """``(session, account)`` of the request's cookie, or None (looked up once per request)."""
    cookie = i18n.request_cookie(COOKIE)
    if not cookie:  # most API calls: a bearer token, no session
        return None
    if "burrow_signed_in" not in g:
        g.burrow_signed_in = accounts().signed_in(cookie)
    return g.burrow_signed_in


def guest_session():
    """The request's guest session (docs/api.md "The first ten minutes"), or None (an account's, or none)."""
    if "burrow_guest" not in g:
        cookie = i18n.request_cookie(COOKIE)
        found = accounts().sessions.find(cookie) if cookie and signed_in() is None else None
        g.burrow_guest = found if found is not None and found.guest else None
    return g.burrow_guest


def person() -> Person | None:
    """Who the request comes from: its account, its guest session, or None."""
    found = signed_in()
    if found is not None:
        return Person.of_account(found[1].username)
    guest = guest_session()
    return Person(guest.account, guest.name) if guest is not None else None


def person_or_guest(name: object) -> Person:
    """The request's account or guest; else a new guest session under ``name`` (checked: a name no account has),
    its cookie set on this answer. A guest giving another name is renamed (its session and seats stay)."""
    found = signed_in()
    if found is not None:
        return Person.of_account(found[1].username)
    runtime = current_app.config["RUNTIME"]
    guest = guest_session()
    if name is None and guest is not None:
        return Person(guest.account, guest.name)
    if name is None:
        raise errors.Unauthorized(Text("name: give a name to play as a guest, or sign in"), field="name")
    name = bounds.check_name(name, "name", runtime.settings.limits.name_length)
    runtime.service.accounts.refuse_reserved(name, "name")
    sessions = accounts().sessions
    if guest is not None:
        if guest.name != name:
            guest = g.burrow_guest = sessions.rename_guest(guest, name)
        return Person(guest.account, guest.name)
    session_id, guest = sessions.open_guest(name, request.user_agent.string)
    g.burrow_guest = guest

    @after_this_request
    def remember(response):
        set_cookie(response, session_id)
        return response

    return Person(guest.account, guest.name)


def owner():
    """``(owner id, account or None, guest session or None)`` of the request's seats (``GET /api/me/games``): an
    account's id, else a guest session's; 401 for neither."""
    found = signed_in()
    if found is not None:
        return found[1].id, found[1], None
    guest = guest_session()
    if guest is None:
        raise errors.Unauthorized(Text("sign in first: this needs an account or a guest's session"))
    return guest.account, None, guest


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
