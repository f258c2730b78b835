"""Away from the site over HTTP (docs/api.md "Away from the site"): Web Push subscriptions, the mail address
and its
verification, notification preferences, password reset, one-click unsubscribe, the vacation switch, and the pages
the mailed links open. Thin: parse, call ``services/away``, shape the answer."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request

from domain.text import Text
from services import errors
from services.accounts.sessions import agent_summary
from web import schemas, session
from web.accounts import body_as, body_object
from web.api import only_json_from_this_origin, service_error

away_bp = Blueprint("away", __name__, template_folder="templates")
away_bp.register_error_handler(errors.ServiceError, service_error)

MAX_ID = 40


@away_bp.before_request
def api_checks():
    if request.path.startswith("/api/"):
        return only_json_from_this_origin()
    return None


@away_bp.after_request
def private(response):
    """Nothing here is cached: answers depend on who asks, pages carry a token in their address."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Cookie"
    return response


def away():
    found = current_app.config["RUNTIME"].away
    if found is None:
        raise errors.Unavailable(Text("push and mail are not set up in this process"))
    return found


def no_content():
    return current_app.response_class(status=204)


# -- Web Push ---------------------------------------------------------------------------------------------------

@away_bp.get("/api/push/key")
def push_key():
    return jsonify({"public_key": away().push_key()})


@away_bp.post("/api/me/push")
def subscribe():
    _, account = session.required()
    body = body_object(("endpoint", "keys", "expirationTime"))
    sid = away().subscribe(account, body, agent_summary(request.user_agent.string))
    return jsonify({"id": sid}), 201


@away_bp.delete("/api/me/push/<sid>")
def unsubscribe(sid: str):
    _, account = session.required()
    away().unsubscribe(account, sid[:MAX_ID])
    return no_content()


# -- mail address, preferences, vacation -----------------------------------------------------------------------

@away_bp.post("/api/me/email")
def set_email():
    _, account = session.required()
    email = body_as(schemas.EmailAddress).email
    away().set_email(account, email)
    return jsonify({"email": {"address": email, "verified": False}}), 202


@away_bp.post("/api/email/verify")
def verify_email():
    away().verify_email(body_as(schemas.LinkToken).token)
    return no_content()


@away_bp.put("/api/me/notifications")
def set_notifications():
    _, account = session.required()
    away().set_notifications(account, body_object(("email", "push")))
    return no_content()


@away_bp.put("/api/me/vacation")
def set_vacation():
    _, account = session.required()
    return jsonify({"vacation": away().set_vacation(account, body_as(schemas.Vacation).on)})


@away_bp.get("/api/me/waiting")
def waiting():
    """The games waiting for the account (one of its seats is to act): how many, and the longest-waiting ones."""
    _, account = session.required()
    people = current_app.config["RUNTIME"].people
    if people is None or people.waiting is None:
        raise errors.Unavailable(Text("meeting people is not set up in this process"))
    count, games = people.waiting.of(account.username.lower())
    return jsonify({"count": count, "games": games})


# -- password reset --------------------------------------------------------------------------------------------

@away_bp.post("/api/password/reset")
def reset():
    """202 whatever the address: the answer never tells whether it is an account's."""
    away().request_reset(body_as(schemas.EmailAddress).email)
    return current_app.response_class(status=202)


@away_bp.post("/api/password/reset/confirm")
def reset_confirm():
    body = body_as(schemas.NewPasswordByLink)
    away().confirm_reset(body.token, body.password)
    response = no_content()
    session.clear_cookie(response)
    return response


# -- one-click unsubscribe (RFC 8058) and the pages of the mailed links ----------------------------------------

@away_bp.post("/unsubscribe")
def unsubscribe_mail():
    """A mail client's one-click POST (body ``List-Unsubscribe=One-Click``), or the page's button (the same)."""
    if request.form.get("List-Unsubscribe") != "One-Click":
        raise errors.BadRequest(Text("the body must be List-Unsubscribe=One-Click"))
    away().unsubscribe_mail(request.args.get("token"))
    return no_content()


@away_bp.get("/unsubscribe")
def unsubscribe_page():
    """A page with a button (a link opened by a mail scanner changes nothing)."""
    return render_template("away_link.html", what="unsubscribe")


@away_bp.get("/verify-email")
def verify_page():
    return render_template("away_link.html", what="verify")


@away_bp.get("/reset-password")
def reset_page():
    return render_template("away_link.html", what="reset")


@away_bp.get("/forgot-password")
def forgot_page():
    return render_template("away_link.html", what="forgot")
