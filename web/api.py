"""The JSON API of CONTRACT.md. Thin: parse the request, call the service layer, shape the answer."""

from __future__ import annotations

import json
import time

import redis
from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from services import errors
from services.config import public_url
from services.views import document
from web import schemas

api = Blueprint("api", __name__, url_prefix="/api")

SSE_SECONDS = 55  # a stream closes after this; EventSource reconnects with Last-Event-ID
MAX_VERSION = 2**63 - 1  # stream IDs are 64-bit: a larger number is no version of any game (and Redis refuses it)


def runtime():
    return current_app.config["RUNTIME"]


def error(status: int, code: str, message: str, **details):
    body = {"error": {"code": code, "message": message, **details}}
    return jsonify(body), status


@api.errorhandler(errors.ServiceError)
def service_error(exc: errors.ServiceError):
    return error(exc.status, exc.code, exc.message, **exc.details)


@api.errorhandler(redis.ConnectionError)
@api.errorhandler(redis.TimeoutError)
def redis_down(exc):
    return error(503, "unavailable", "the event store is unreachable; try again in a moment")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise errors.Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def int_arg(name: str, minimum: int = 0) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise errors.BadRequest(f"{name}: must be an integer, not {raw!r}") from None
    if value < minimum:
        raise errors.BadRequest(f"{name}: must be at least {minimum}")
    if value > MAX_VERSION:
        raise errors.BadRequest(f"{name}: must be at most {MAX_VERSION}")
    return value


@api.get("/openapi.json")
def openapi():
    from web.openapi import document

    return jsonify(document())


@api.get("/health")
def health():
    rt = runtime()
    try:
        rt.redis.ping()
    except redis.RedisError:
        return error(503, "unavailable", "redis is unreachable")
    return jsonify({"ok": True, "redis": public_url(rt.settings.redis_url)})


@api.post("/games")
def create_game():
    try:
        body = schemas.decode(request.get_data(), schemas.CreateGame)
    except ValueError as exc:
        raise errors.BadRequest(str(exc)) from None
    players = [{"name": p.name, **({"ai": p.ai} if p.ai else {})} for p in body.players]
    created = runtime().service.create(body.game, players, body.options, body.seed, body.position,
                                       client=request.remote_addr)
    return jsonify(created), 201


@api.get("/games")
def lobby():
    status = request.args.get("status")
    if status not in (None, "setup", "playing", "finished"):
        raise errors.BadRequest("status: must be setup, playing or finished")
    return jsonify({"games": runtime().projector.lobby(status)})


@api.get("/stats")
def stats():
    """Per game: finished games, draws, wins by seat, mean length; Elo ratings by player name."""
    return jsonify(runtime().ratings.read())


@api.get("/games/<gid>")
def get_game(gid: str):
    rt = runtime()
    seat = rt.service.seat_for(gid, bearer_token())
    version = int_arg("version", minimum=1)
    if version is not None:
        latest = rt.service.load(gid)
        finished = latest.module.status(latest.state) == "finished"
        return jsonify(document(rt.service.at_version(gid, version), seat, reveal=finished))
    min_version = int_arg("min_version") or 0
    doc = rt.projector.read(gid, seat)
    if doc is not None and doc["version"] >= min_version:
        return jsonify(doc)
    # The projection is missing or behind what the client has seen: read the stream directly (cached state +
    # tail), so that a player always sees their own move.
    return jsonify(document(rt.service.load(gid), seat))


@api.post("/games/<gid>/commands")
def post_command(gid: str):
    rt = runtime()
    try:
        body = schemas.decode(request.get_data(), schemas.Command)
    except ValueError as exc:
        raise errors.BadRequest(str(exc)) from None
    token = bearer_token()
    if rt.store.meta(gid) is None:
        raise errors.NotFound(f"no game {gid!r}")
    if token is None:
        raise errors.Unauthorized("a seat token is required: Authorization: Bearer <token>")
    seat = rt.service.seat_for(gid, token)
    return jsonify(rt.service.command(gid, seat, body.move, body.expected_version, body.command_id))


@api.get("/games/<gid>/events")
def get_events(gid: str):
    rt = runtime()
    seat = rt.service.seat_for(gid, bearer_token())
    after = int_arg("after") or 0
    return jsonify({"events": rt.service.events(gid, seat, after)})


@api.get("/games/<gid>/stream")
def stream(gid: str):
    """Server-Sent Events: one message per new version, ``id`` = version, data = the event as a spectator sees it.

    Players fetch their own document on each message; the stream itself carries nothing secret.
    """
    rt = runtime()
    rt.service.load(gid)  # 404 before the stream starts
    last = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    try:
        last_version = int(last)
    except ValueError:
        last_version = -1
    if not 0 <= last_version <= MAX_VERSION:
        raise errors.BadRequest("Last-Event-ID: must be a version number")

    def messages():
        nonlocal last_version
        yield "retry: 1000\n\n"
        end = time.monotonic() + SSE_SECONDS
        while time.monotonic() < end:
            try:
                events = rt.service.events(gid, None, after=last_version, limit=100)
            except errors.ServiceError:
                return
            for event in events:
                last_version = event["version"]
                yield f"id: {last_version}\nevent: version\ndata: {json.dumps(event)}\n\n"
            if not events:
                yield ": keep-alive\n\n"
                _wait_for_change(rt, gid, last_version, timeout=min(10.0, max(0.0, end - time.monotonic())))

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(messages()), mimetype="text/event-stream", headers=headers)


def _wait_for_change(rt, gid: str, version: int, timeout: float) -> None:
    """Block until the game passes ``version`` or ``timeout`` elapses (XREAD BLOCK on real Redis)."""
    key = rt.store.keys.game(gid)
    if rt.embedded:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and rt.store.version(gid) <= version:
            time.sleep(0.1)
        return
    rt.redis.xread({key: f"0-{version}"}, count=1, block=max(1, int(timeout * 1000)))
