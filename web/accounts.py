"""Accounts and ratings over HTTP (docs/api.md, "Accounts and ratings"): sign-up, sessions, passkeys, one's own
games and sessions, profiles, leaderboards, and their pages. Thin: parse, call ``services/accounts`` and
``services/reads/ratings``, shape the answer."""

from __future__ import annotations

import re
from typing import TypeVar
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, render_template, request

from domain import registry
from domain.text import Text
from services import errors
from services.accounts.passkeys import Passkeys
from services.accounts.service import USERNAME
from services.reads.ratings import outcome
from services.store.codec import iso_time
from web import i18n, schemas, session
from web.api import only_json_from_this_origin, service_error

accounts_bp = Blueprint("accounts", __name__, template_folder="templates")
accounts_bp.register_error_handler(errors.ServiceError, service_error)

T = TypeVar("T")
PAGE, MAX_PAGE = 20, 100
SESSION_ID = re.compile(r"[0-9a-f]{16}\Z")


@accounts_bp.before_request
def api_checks():
    if request.path.startswith("/api/"):
        return only_json_from_this_origin()
    return None


@accounts_bp.after_request
def private(response):
    """Answers that depend on who asks are never cached, and vary with the cookie."""
    if request.path.startswith(("/api/me", "/api/session", "/api/accounts", "/api/passkeys")):
        response.headers["Cache-Control"] = "no-store"
        response.headers["Vary"] = "Cookie"
    return response


def runtime():
    return current_app.config["RUNTIME"]


def body_object(allowed: tuple[str, ...], empty_ok: bool = False) -> dict:
    """The request's JSON object; 400 if it is none, 422 naming a field it should not have."""
    body = schemas.request_body(empty_ok=empty_ok)
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise errors.Unprocessable(Text("{field}: unknown field (known: {known})", field=unknown[0][:40],
                                        known=", ".join(allowed)),
                                   field=unknown[0][:40])
    return body


def body_as(kind: type[T], empty_ok: bool = False) -> T:
    """The request's body as ``kind`` (``web/schemas.py``): 400 if it is no JSON object, 422 naming the field it
    does not fit (a field ``kind`` lacks, a value of another kind)."""
    return schemas.request_body(kind, empty_ok=empty_ok, refused=errors.Unprocessable)


def credential_body() -> dict:
    """A credential as ``PublicKeyCredential.toJSON()`` gives it."""
    return body_object(("id", "rawId", "response", "type", "clientExtensionResults", "authenticatorAttachment"))


def limit_arg() -> int:
    raw = request.args.get("limit", str(PAGE))
    if not re.fullmatch(r"[0-9]{1,3}", raw) or not 1 <= int(raw) <= MAX_PAGE:
        raise errors.BadRequest(Text("limit: a whole number from 1 to {n}", n=MAX_PAGE))
    return int(raw)


def relying_party() -> tuple[str, str]:
    """The passkeys' relying party id and the origin pages are served from: the configured public URL's, else the
    request's own host (``localhost`` in tests)."""
    site = runtime().settings.site_url
    if site:
        parts = urlsplit(site)
        return parts.hostname or "localhost", f"{parts.scheme}://{parts.netloc}"
    host = urlsplit(f"//{request.host}").hostname or "localhost"
    return host, f"{'https' if request.is_secure else 'http'}://{request.host}"


def signed_in_answer(username: str, session_id: str, status: int = 200):
    response = jsonify({"username": username})
    session.set_cookie(response, session_id)
    return response, status


# -- signing up, in and out -------------------------------------------------------------------------------------

@accounts_bp.post("/api/accounts")
def sign_up():
    body = body_as(schemas.Credentials)
    session_id, account = session.accounts().sign_up(body.username, body.password,
                                                     request.remote_addr, request.user_agent.string)
    return signed_in_answer(account.username, session_id, 201)


@accounts_bp.post("/api/session")
def sign_in():
    body = body_as(schemas.Credentials)
    session_id, account = session.accounts().sign_in(body.username, body.password,
                                                     request.remote_addr, request.user_agent.string)
    return signed_in_answer(account.username, session_id)


@accounts_bp.delete("/api/session")
def sign_out():
    found = session.signed_in()
    if found is not None:
        session.accounts().sessions.revoke(found[0])
    response = current_app.response_class(status=204)
    session.clear_cookie(response)
    return response


# -- passkeys ---------------------------------------------------------------------------------------------------

def passkeys() -> Passkeys:
    return Passkeys(session.accounts())


@accounts_bp.post("/api/passkeys/register/options")
def passkey_register_options():
    found = session.signed_in()
    body = body_as(schemas.PasskeyOptionsRequest, empty_ok=True)
    rp_id, _ = relying_party()
    return jsonify(passkeys().register_options(rp_id, found[1] if found else None, body.username,
                                               request.remote_addr))


@accounts_bp.post("/api/passkeys/register")
def passkey_register():
    found = session.signed_in()
    rp_id, origin = relying_party()
    account, new = passkeys().register(credential_body(), rp_id, origin, found[1] if found else None,
                                       request.remote_addr, request.user_agent.string)
    if new:
        session_id = session.accounts().open_session(account, request.user_agent.string)
        return signed_in_answer(account.username, session_id, 201)
    return jsonify({"username": account.username, "passkeys": len(account.passkeys)}), 201


@accounts_bp.post("/api/passkeys/login/options")
def passkey_login_options():
    body_object((), empty_ok=True)
    rp_id, _ = relying_party()
    return jsonify(passkeys().login_options(rp_id, request.remote_addr))


@accounts_bp.post("/api/passkeys/login")
def passkey_login():
    rp_id, origin = relying_party()
    account = passkeys().login(credential_body(), rp_id, origin)
    return signed_in_answer(account.username, session.accounts().open_session(account, request.user_agent.string))


# -- one's own account -----------------------------------------------------------------------------------------

@accounts_bp.get("/api/me")
def me():
    _, account = session.required()
    ratings, _ = runtime().ratings.of_player(account.username)
    return jsonify({"username": account.username, "created": iso_time(account.created), "ratings": ratings,
                    "password": account.password is not None,
                    "passkeys": [{"device": k.device or "a device", "added": iso_time(k.added)}
                                 for k in account.passkeys.values()],
                    **away_fields(account)})


def away_fields(account) -> dict:
    """What ``GET /api/me`` says of the account away from the site (docs/api.md "Away from the site"): its mail
    address, which notifications reach it how, its devices with pushes (never their endpoints), its vacation."""
    return {"email": {"address": account.email, "verified": account.email_verified} if account.email else None,
            "notifications": {channel: {kind: account.wants(channel, kind) for kind in kinds}
                              for channel, kinds in (("email", ("your_turn", "challenge")),
                                                     ("push", ("your_turn", "challenge", "game_over")))},
            "push": [{"id": s.id, "device": s.device, "added": iso_time(s.added)} for s in account.push.values()],
            "vacation": account.vacation,
            "mail": runtime().away is not None and runtime().away.smtp is not None}


@accounts_bp.post("/api/me/password")
def set_password():
    current, account = session.required()
    body = body_as(schemas.NewPassword)
    session.accounts().set_password(account, body.password, body.current_password, current)
    sessions = session.accounts().sessions
    for other in sessions.of_account(account.id):  # a new password signs out every other device
        if other.hash != current.hash:
            sessions.revoke(other)
    return current_app.response_class(status=204)


@accounts_bp.post("/api/me/language")
def choose_language():
    """``{"lang"}``: the language picked with the page's switch, kept for the account on every device. Only this
    site's own JSON ``POST`` saves it (``api_checks``): a page asked for with ``?lang=`` saves nothing, so a link
    from another site cannot change the account, nor write anything for it."""
    _, account = session.required()
    session.accounts().store.set_language(account.id, body_as(schemas.Language).lang)
    return current_app.response_class(status=204)


@accounts_bp.get("/api/me/games")
def my_games():
    """The seats of the request's account, or of its guest session (in that browser)."""
    owner, account, _ = session.owner()
    return jsonify(seats_page(owner, account.username if account else None, own=True))


@accounts_bp.get("/api/me/games/<gid>")
def my_game(gid: str):
    """The account's seat in game ``gid`` with its token (docs/api.md "The first ten minutes"): a page opened
    on any
    device, from any link, plays its player's game; 404 when the account holds no seat there."""
    owner, account, _ = session.owner()
    missing = errors.NotFound(Text("you hold no seat in game {gid}", gid=repr(gid[:40])))
    if len(gid) > 40:
        raise missing
    rt = runtime()
    try:
        game = rt.games.load(gid)
    except errors.NotFound:
        raise missing from None
    for seat, token in session.accounts().seats.in_game(owner, gid, game.seats):
        if token and holds(game, seat, account.username if account else None):  # kept before a seat never taken
            return jsonify({"id": gid, "game": game.meta["game"], "seat": seat, "token": token,
                            "status": game.status})
    raise missing


@accounts_bp.get("/api/me/sessions")
def my_sessions():
    current, account = session.required()
    return jsonify({"sessions": [{"id": s.public_id, "created": iso_time(s.created), "last_seen": iso_time(s.seen),
                                  "agent": s.agent, "current": s.hash == current.hash}
                                 for s in session.accounts().sessions.of_account(account.id)]})


@accounts_bp.delete("/api/me/sessions")
def sign_out_everywhere():
    """Every session of the account ends, this one too ("sign out everywhere")."""
    _, account = session.required()
    session.accounts().sessions.revoke_all(account.id)
    response = current_app.response_class(status=204)
    session.clear_cookie(response)
    return response


@accounts_bp.delete("/api/me/sessions/<sid>")
def sign_out_one(sid: str):
    current, account = session.required()
    sessions = session.accounts().sessions
    found = [s for s in sessions.of_account(account.id) if s.public_id == sid] if SESSION_ID.match(sid) else []
    if not found:
        raise errors.NotFound(Text("no session {id} of yours", id=repr(sid[:20])))
    sessions.revoke(found[0])
    response = current_app.response_class(status=204)
    if found[0].hash == current.hash:
        session.clear_cookie(response)
    return response


def holds(game, seat: int, username: str | None) -> bool:
    """Whether ``seat`` of ``game`` is the account's (``username``) or, for a guest (None), a guest's seat: a
    guest session's seats are kept once the game exists, under its own id."""
    return game.accounts[seat] == username


def seats_page(owner: str, username: str | None, own: bool) -> dict:
    """A page of the seats kept under ``owner`` (an account's id, or a guest session's) as games, newest first:
    with their tokens for the owner itself."""
    rt = runtime()
    rows, following = session.accounts().seats.page(owner, limit_arg(), request.args.get("cursor"), tokens=own)
    loaded = rt.games.load_many(list(dict.fromkeys(r["id"] for r in rows)))
    games = []
    for row in rows:
        found = loaded.get(row["id"])
        if found is None or isinstance(found, Exception):
            continue
        game, updated = found
        if not holds(game, row["seat"], username):
            continue  # kept just before a seat that was never taken
        status = game.status
        if not own and status == "setup":
            continue
        result = game.result
        entry = {"id": game.gid, "game": game.meta["game"], "seat": row["seat"], "status": status,
                 "your_turn": row["seat"] in game.to_act, "updated": iso_time(updated),
                 "players": [{"name": n, "account": a} for n, a in zip(game.names, game.accounts)],
                 "outcome": outcome_of(row["seat"], result)}
        if own:
            entry["token"] = row["token"]
        games.append(entry)
    return {"games": games, "next": following}


def outcome_of(seat: int, result: dict | None) -> str | None:
    """The seat's "win", "draw" or "loss", "aborted", or None while the game goes on."""
    if result is None:
        return None
    return "aborted" if result.get("termination") == "aborted" else outcome(seat, result["winners"])


# -- profiles and leaderboards ---------------------------------------------------------------------------------

def account_named(username: str):
    account = session.accounts().store.by_username(username) if USERNAME.match(username) else None
    if account is None:
        raise errors.NotFound(Text("no player {name}", name=repr(username[:40])))
    return account


@accounts_bp.get("/api/players/<username>")
def player(username: str):
    account = account_named(username)
    ratings, history = runtime().ratings.of_player(account.username)
    return jsonify({"username": account.username, "created": iso_time(account.created), "ratings": ratings,
                    "history": history, "vacation": account.vacation})


@accounts_bp.get("/api/players/<username>/games")
def player_games(username: str):
    account = account_named(username)
    return jsonify(seats_page(account.id, account.username, own=False))


def known_game(game: str) -> str:
    if game not in registry.GAME_NAMES:
        raise errors.NotFound(Text("no game {game} (known: {known})", game=repr(game[:40]),
                                   known=", ".join(registry.GAME_NAMES)))
    return game


@accounts_bp.get("/api/leaderboard/<game>")
def leaderboard(game: str):
    return jsonify({"game": known_game(game), "players": runtime().ratings.leaderboard(game)})


# -- pages ------------------------------------------------------------------------------------------------------

@accounts_bp.record_once
def account_language(state) -> None:
    """The language saved with the signed-in account is the page's, after the query's and the cookie's."""
    i18n.set_account_language(lambda: (found := session.signed_in()) and found[1].language or None)


@accounts_bp.app_context_processor
def signed_in_user():
    """Every page's header shows who is signed in (the account menu)."""
    try:
        return {"me": session.username()}
    except Exception:  # noqa: BLE001 - a page still renders (as a guest's) when Redis is away
        return {"me": None}


@accounts_bp.get("/signup")
def signup_page():
    return render_template("signup.html")


@accounts_bp.get("/signin")
def signin_page():
    return render_template("signin.html")


@accounts_bp.get("/account")
def account_page():
    return render_template("account.html")


@accounts_bp.get("/@/<username>")
def profile_page(username: str):
    account = session.accounts().store.by_username(username) if USERNAME.match(username) else None
    if account is None:
        return render_template("no_player.html", username=username), 404
    return render_template("profile.html", username=account.username)


@accounts_bp.get("/leaderboard")
@accounts_bp.get("/leaderboard/<game>")
def leaderboard_page(game: str | None = None):
    games = registry.catalog()
    if game is None:
        game = games[0].name
    if game not in registry.GAME_NAMES:
        return render_template("no_player.html", username=None), 404
    return render_template("leaderboard.html", game=game, games=games)
