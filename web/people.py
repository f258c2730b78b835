"""The API of meeting people (CONTRACT "Meeting people"): presence, chat; seeks, challenges and an account's
notifications once signed in. Thin, like ``web/api.py``, on the same blueprint (its errors, its checks)."""

from __future__ import annotations

from flask import jsonify, request

from services import errors
from services.people.chat import check_room
from web.api import api, bearer_token, required_seat, runtime


def meeting():
    rt = runtime()
    if rt.people is None:
        raise errors.Unavailable("meeting people is not set up in this process")
    return rt, rt.people


@api.post("/games/<gid>/presence")
def presence(gid: str):
    """A seat's page is open (it says so every few seconds): its player counts as online."""
    rt, people = meeting()
    seat = required_seat(rt, gid)
    people.presence.seat_seen(gid, seat)
    return "", 204


def chat_reader(rt, gid: str, room: str) -> tuple[str, str]:
    """Who may read and write ``room`` of game ``gid``: its name shown and its key for the rate limit. The
    players' room is its seats' (a seat token); the spectators' room is signed-in accounts'."""
    if rt.store.meta(gid) is None:
        raise errors.NotFound(f"no game {gid!r}")
    if room == "players":
        if bearer_token() is None:
            raise errors.Unauthorized("the players' room is for the game's seats: send the seat's token")
        seat = required_seat(rt, gid)
        game = rt.games.load(gid)
        return game.names[seat] or f"Player {seat + 1}", f"seat:{gid}:{seat}"
    account = signed_in_account()
    if account is None:
        raise errors.Unauthorized("the spectators' room is for signed-in players: sign in first")
    return account, f"account:{account.lower()}"


def signed_in_account() -> str | None:
    """The username of the request's signed-in account, or None (a guest)."""
    finder = getattr(runtime(), "account_of_request", None)
    return finder(request) if finder is not None else None


def body_of(*names: str) -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise errors.BadRequest("the body must be a JSON object")
    unknown = set(body) - set(names)
    if unknown:
        raise errors.BadRequest(f"{min(unknown)}: unknown field (known: {', '.join(names)})", field=min(unknown))
    return body


@api.get("/games/<gid>/chat")
def read_chat(gid: str):
    """``?room=players|spectators&after=<id>``: the room's messages after that one (the last 100 without)."""
    rt, people = meeting()
    room = check_room(request.args.get("room", "players"))
    chat_reader(rt, gid, room)
    after = request.args.get("after")
    if after is not None and not _is_message_id(after):
        raise errors.BadRequest("after: not a message id of this room")
    return jsonify({"messages": people.chat.read(gid, room, after)})


@api.post("/games/<gid>/chat")
def post_chat(gid: str):
    """``{"text", "room"}``: a message to the room; 201 with it."""
    rt, people = meeting()
    body = body_of("text", "room")
    room = check_room(body.get("room", "players"))
    sender, key = chat_reader(rt, gid, room)
    return jsonify(people.chat.post(gid, room, sender, key, body.get("text"))), 201


@api.post("/games/<gid>/chat/report")
def report_chat(gid: str):
    """``{"room", "id"}``: tell the operators about a message (kept with the messages before it)."""
    rt, people = meeting()
    body = body_of("room", "id")
    room = check_room(body.get("room"))
    reporter, _ = chat_reader(rt, gid, room)
    message = body.get("id")
    if not _is_message_id(message):
        raise errors.BadRequest("id: not a message id of this room", field="id")
    people.chat.report(gid, room, message, reporter)
    return "", 204


def _is_message_id(value: object) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    ms, _, seq = value.partition("-")
    return ms.isdigit() and seq.isdigit()
