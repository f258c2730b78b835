"""The API of meeting people (docs/api.md "Meeting people"): presence, chat; seeks, challenges and an account's
notifications once signed in. Thin, like ``web/api.py``, on an API blueprint of its own (the API's errors and
checks: ``api_blueprint``)."""

from __future__ import annotations

from typing import TypeVar

from flask import jsonify, request

from domain.text import Text
from services import errors
from services.bounds import is_stream_id
from services.clients import client_id
from services.people.chat import check_room
from web import schemas
from web.api import api_blueprint, bearer_token, required_seat, runtime

people_api = api_blueprint("people_api", __name__)

T = TypeVar("T")


def meeting():
    rt = runtime()
    if rt.people is None:
        raise errors.Unavailable(Text("meeting people is not set up in this process"))
    return rt, rt.people


@people_api.post("/games/<gid>/presence")
def presence(gid: str):
    """A seat's page is open (it says so every few seconds): its player counts as online."""
    rt, people = meeting()
    seat = required_seat(rt, gid)
    if people.presence.seat_beat(gid, seat):
        people.notifications.to_game(gid, "presence", seat=seat)  # the others' dots turn on now
    return "", 204


def chat_reader(rt, gid: str, room: str) -> tuple[str, str]:
    """Who may read and write ``room`` of game ``gid``: its name shown and its key for the rate limit. The
    players' room is its seats' (a seat token); the spectators' room is signed-in accounts'."""
    if rt.store.meta(gid) is None:
        raise errors.NotFound(Text("no game {gid}", gid=repr(gid)))
    if room == "players":
        if bearer_token() is None:
            raise errors.Unauthorized(Text("the players' room is for the game's players: send a player's token"))
        seat = required_seat(rt, gid)
        game = rt.games.load(gid)
        return game.names[seat] or str(Text("Player {number}", number=seat + 1)), f"seat:{gid}:{seat}"
    account = signed_in_account()
    if account is None:
        raise errors.Unauthorized(Text("the spectators' room is for signed-in players: sign in first"))
    return account, f"account:{account.lower()}"


def signed_in_account() -> str | None:
    """The username of the request's signed-in account, or None (a guest)."""
    from web import session

    return session.username()


def body_as(kind: type[T], empty_ok: bool = False) -> T:
    """The request's body as ``kind`` (``web/schemas.py``): 400 for a field it does not have, 422 naming a value
    that does not fit it."""
    return schemas.request_body(kind, empty_ok=empty_ok, refused=errors.Unprocessable, unknown=errors.BadRequest)


@people_api.get("/games/<gid>/chat")
def read_chat(gid: str):
    """``?room=players|spectators&after=<id>``: the room's messages after that one (the last 100 without)."""
    rt, people = meeting()
    room = check_room(request.args.get("room", "players"))
    chat_reader(rt, gid, room)
    after = request.args.get("after")
    if after is not None and not is_stream_id(after):
        raise errors.BadRequest(Text("{field}: not a message id of this room", field="after"), field="after")
    return jsonify({"messages": people.chat.read(gid, room, after)})


@people_api.post("/games/<gid>/chat")
def post_chat(gid: str):
    """``{"text", "room"}``: a message to the room; 201 with it."""
    rt, people = meeting()
    body = body_as(schemas.ChatMessage)
    room = check_room(body.room)
    sender, key = chat_reader(rt, gid, room)
    return jsonify(people.chat.post(gid, room, sender, key, body.text)), 201


@people_api.post("/games/<gid>/chat/report")
def report_chat(gid: str):
    """``{"room", "id"}``: tell the operators about a message (kept with the messages before it)."""
    rt, people = meeting()
    body = body_as(schemas.ChatReport)
    room = check_room(body.room)
    reporter, key = chat_reader(rt, gid, room)
    message = body.id
    if not is_stream_id(message):
        raise errors.BadRequest(Text("{field}: not a message id of this room", field="id"), field="id")
    people.chat.report(gid, room, message, reporter, key, client_id(request.remote_addr))
    return "", 204


# -- quick pairing and challenges (signed in) ---------------------------------------------------------------

def game_request(body: schemas.GameRequest, seats: int | None = None) -> tuple[str, dict, dict | None, int]:
    """The game, options, clock and seat count (the game's fewest unless ``seats``) a seek or a challenge asks
    for, checked against the catalog."""
    from domain.base import BadSetup, check_options
    from domain.registry import GAME_NAMES, game_info
    from domain.table import check_clock

    name = body.game
    if name not in GAME_NAMES:
        raise errors.Unprocessable(Text("game: unknown game {name} (known: {known})", name=repr(name[:40]),
                                        known=", ".join(GAME_NAMES)),
                                   field="game")
    info = game_info(name)
    options = body.options or {}
    try:
        check_options(options, info.options)
        clock = check_clock(body.clock)
    except BadSetup as exc:
        raise errors.Unprocessable(str(exc), field=exc.field) from exc
    seats = info.seats[0] if seats is None else seats
    if not info.seats[0] <= seats <= info.seats[1]:
        raise errors.Unprocessable(Text("seats: {game} is played by {range} players", game=name,
                                        range=info.seat_range()), field="seats")
    return name, options, clock, seats


def someone():
    """The request's account or guest (docs/api.md "The first ten minutes"); 401 for neither."""
    from web import session

    found = session.person()
    if found is None:
        raise errors.Unauthorized(Text("sign in first, or play as a guest under a name"))
    return found


def account_or_guest(name: object):
    """The request's account or guest, a guest session made under ``name`` if need be."""
    from web import session

    return session.person_or_guest(name)


@people_api.post("/seeks")
def create_seek():
    """``{"game", "options"?, "clock"?, "seats"?, "rating_range"?: [lo, hi], "rated"?, "name"? (a guest)}``: 201
    ``{"id", "status"}`` — paired at once with compatible players waiting (``"status": "paired"``, ``"game"``),
    else waiting. A guest's seek is never rated; an account's is unless ``"rated": false``."""
    rt, people = meeting()
    body = body_as(schemas.SeekRequest)
    game, options, clock, seats = game_request(body, body.seats)
    person = account_or_guest(body.name)
    span = body.rating_range if body.rating_range is not None else [0, 10_000]
    if len(span) != 2 or not all(-10_000 <= x <= 10_000 for x in span) or span[0] > span[1]:
        raise errors.Unprocessable(Text("rating_range: two numbers [lowest, highest], lowest first"),
                                   field="rating_range")
    rating = rt.ratings.rating_of(game, person.account)["rating"] if person.account else None
    answer = people.seeks.seek(person, game, options, clock, seats, rating, tuple(span), body.rated)
    return jsonify({**answer, "name": person.name}), 201


@people_api.get("/seeks")
def list_seeks():
    """``?game=``: the open seeks, oldest first."""
    _, people = meeting()
    return jsonify({"seeks": people.seeks.open(request.args.get("game"))})


@people_api.delete("/seeks/<seek_id>")
def cancel_seek(seek_id: str):
    _, people = meeting()
    people.seeks.cancel(someone(), seek_id)
    return "", 204


@people_api.post("/challenges")
def create_challenge():
    """``{"to"?, "game", "options"?, "clock"?, "side"?, "name"? (a guest's invite)}``: 201 ``{"id"}`` and the
    player named is told; without ``to``, an invite: 201 ``{"id", "url"}``, the page where anyone accepts it."""
    _, people = meeting()
    body = body_as(schemas.ChallengeRequest)
    game, options, clock, _ = game_request(body)
    person = account_or_guest(body.name) if body.to is None else someone()
    answer = people.challenges.create(person, body.to, game, options, clock, body.side)
    return jsonify(answer), 201


@people_api.get("/challenges")
def my_challenges():
    """The player's open challenges: ``{"incoming", "outgoing"}``."""
    _, people = meeting()
    return jsonify(people.challenges.of(someone()))


@people_api.get("/challenges/<challenge_id>")
def one_challenge(challenge_id: str):
    """An open challenge as its page shows it: an invite to anyone, a challenge to its two players (404 else)."""
    from web import session

    _, people = meeting()
    return jsonify(people.challenges.get(session.person(), challenge_id))


@people_api.post("/challenges/<challenge_id>/accept")
def accept_challenge(challenge_id: str):
    """The recipient accepts (an invite: anyone; a guest gives ``{"name"}`` and gets a guest session): 201
    ``{"game"}``, the challenger is told."""
    _, people = meeting()
    name = body_as(schemas.GuestName, empty_ok=True).name
    return jsonify(people.challenges.accept(account_or_guest(name), challenge_id)), 201


@people_api.post("/challenges/<challenge_id>/decline")
def decline_challenge(challenge_id: str):
    _, people = meeting()
    people.challenges.decline(someone(), challenge_id)
    return "", 204


@people_api.delete("/challenges/<challenge_id>")
def cancel_challenge(challenge_id: str):
    """The challenger cancels: 204, the recipient is told (``challenge_cancelled``)."""
    _, people = meeting()
    people.challenges.cancel(someone(), challenge_id)
    return "", 204
