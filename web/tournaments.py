"""The tournaments' API (docs/api.md "Tournaments"): create, join, withdraw, start (signed in), the lists and a
tournament's document. Thin: ``services/tournaments/`` decides; the live stream is the front's
(``web/front.py``)."""

from __future__ import annotations

from flask import jsonify, request

from domain.text import Text
from services import errors
from web import schemas, session
from web.api import api_blueprint, runtime

tournaments_api = api_blueprint("tournaments_api", __name__)

STATUSES = ("upcoming", "running", "finished")


def signed_in_user() -> str:
    """The signed-in account's username (401 for a guest: only accounts create, join and play tournaments)."""
    return session.required()[1].username


def tournaments():
    found = runtime().tournaments
    if found is None:
        raise errors.Unavailable(Text("tournaments are not set up in this process"))
    return found


@tournaments_api.post("/tournaments")
def create_tournament():
    """``{"game", "system", "clock", "options"?, "rounds"?, "minutes"?, "table_size"?, "starts_at"?,
    "max_players"?, "title"?}`` → 201 ``{"id"}``."""
    username = signed_in_user()
    body = schemas.request_body()
    return jsonify({"id": tournaments().create(username, body)}), 201


@tournaments_api.post("/tournaments/<tid>/join")
def join_tournament(tid: str):
    tournaments().join(tid, signed_in_user())
    return "", 204


@tournaments_api.post("/tournaments/<tid>/withdraw")
def withdraw_from_tournament(tid: str):
    tournaments().withdraw(tid, signed_in_user())
    return "", 204


@tournaments_api.post("/tournaments/<tid>/start")
def start_tournament(tid: str):
    tournaments().start(tid, signed_in_user())
    return "", 204


@tournaments_api.get("/tournaments")
def list_tournaments():
    """``?status=upcoming|running|finished`` (all three without): ``{"tournaments": [...]}``."""
    status = request.args.get("status")
    if status is not None and status not in STATUSES:
        raise errors.BadRequest(Text("status: one of {known}", known=", ".join(STATUSES)), field="status")
    return jsonify({"tournaments": tournaments().listed(status)})


@tournaments_api.get("/tournaments/<tid>")
def get_tournament(tid: str):
    return jsonify(tournaments().document(tid))
