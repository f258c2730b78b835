"""The JSON API of docs/api.md. Thin: parse the request, call the service layer, shape the answer."""

from __future__ import annotations

import re
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, request

from domain import registry
from domain.text import Text
from services import bounds, errors
from services.bounds import is_game_id
from services.games.tables import Tables
from services.jobs import doctor
from services.metrics import game_label
from services.people.presence import now_ms
from services.reads.views import document
from services.store.codec import iso_time
from services.store.connection import REDIS_DOWN
from web import i18n, schemas, session
from web.errors import flask_response

LOBBY_PAGE, LOBBY_MAX = 50, 200  # lobby lines per page: default, most
LOBBY_CURSOR = re.compile(r"\d{1,15}\.[0-9a-z-]{1,40}")


def runtime():
    return current_app.config["RUNTIME"]


error = flask_response


def service_error(exc: errors.ServiceError):
    return error(exc.status, exc.code, exc.text, **exc.details)


STORE_UNAVAILABLE = errors.Unavailable.code


def redis_down(exc):
    """Redis did not answer within ``BURROW_REDIS_TIMEOUT`` (or refused the connection, or refuses writes at its
    memory limit): 503 with ``Retry-After`` (``web/errors.py``)."""
    return service_error(errors.unreachable())


def game_ids_of_our_form(endpoint, values):
    """A game id in a path has the form the service makes, or names no game (never a key pattern or a path)."""
    gid = (values or {}).get("gid")
    if gid is not None and not is_game_id(gid):
        raise errors.NotFound(Text("no game {gid}", gid=repr(gid[:40])))


def only_json_from_this_origin():
    """``POST`` takes only ``application/json`` (a cross-site form or ``text/plain`` fetch cannot send that without
    the browser asking first, and we never answer that question), and a browser's ``Origin``, when sent, must be
    this site's own. (Its scheme is not compared: behind a TLS proxy the app itself sees plain HTTP.)"""
    environ = request.environ
    if environ["REQUEST_METHOD"] != "POST":
        return None
    has_body = environ.get("CONTENT_LENGTH", "0") not in ("", "0") \
        or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "")
    content_type = environ.get("CONTENT_TYPE", "")
    if (has_body or content_type) and content_type.partition(";")[0].strip().lower() != "application/json":
        return error(415, "unsupported_media_type",
                     "the body must be JSON, sent with Content-Type: application/json")
    origin = environ.get("HTTP_ORIGIN")
    if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
        return error(403, "forbidden_origin", f"requests from {origin[:100]} are not accepted here")
    return None


def api_blueprint(name: str, import_name: str) -> Blueprint:
    """A blueprint of JSON API routes under ``/api``, with the API's rules: errors as JSON (a service's, Redis
    down), game ids of our form, JSON bodies from this origin only (answers that depend on who asks are never
    cached: ``web/headers.py``, for every route under ``/api``). Each module of routes makes its own;
    ``web/app.py`` registers each."""
    blueprint = Blueprint(name, import_name, url_prefix="/api")
    blueprint.register_error_handler(errors.ServiceError, service_error)
    for down in REDIS_DOWN:
        blueprint.register_error_handler(down, redis_down)
    blueprint.url_value_preprocessor(game_ids_of_our_form)
    blueprint.before_request(only_json_from_this_origin)
    return blueprint


api = api_blueprint("api", __name__)


def bearer_token() -> str | None:
    header = request.environ.get("HTTP_AUTHORIZATION")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise errors.Unauthorized(Text("the Authorization header must be 'Bearer <token>'"))
    return token.strip()


def int_arg(name: str, minimum: int = 0) -> int | None:
    """The query argument ``name`` as an integer (``bounds.parse_int``)."""
    return bounds.parse_int(request.args.get(name), name, minimum)


@api.get("/catalog")
def catalog():
    """Every game as its catalog entry describes it (``domain/catalog.py``)."""
    lang = i18n.request_language()  # titles, labels, help and rules in the reader's language
    return jsonify({"games": [i18n.catalog_entry(info, lang) for info in registry.catalog()]})


@api.get("/openapi.json")
def openapi():
    from web.openapi import document

    return jsonify(document())


@api.get("/health")
def health():
    """``{"ok", "problems", "redis"}``, 503 when a Redis is unreachable, too slow or nearly full; within 1 s
    (``services/health.py``). The front answers it itself, off Flask's threads (``web/front.py``)."""
    status, document = health_answer(current_app.extensions["burrow.health"])
    return jsonify(document), status


def health_answer(checker) -> tuple[int, dict]:
    """The health check's status and document."""
    found = checker.check()
    return (200 if found["ok"] else 503), {"ok": found["ok"], "problems": found["problems"],
                                           "redis": found["redis"]["events"]}


@api.post("/games")
def create_game():
    body = schemas.request_body(schemas.CreateGame)
    created = runtime().service.create(body.game, body.players, body.options, body.seed, body.position,
                                       client=request.remote_addr, clock=body.clock, account=session.username())
    return jsonify(created), 201


@api.post("/games/<gid>/seats/<int:seat>")
def take_seat(gid: str, seat: int):
    """Take an open seat: one of racing claims wins, the others get 409 ``seat_taken``. With no name, a signed-in
    client sits as its account."""
    body = schemas.request_body(schemas.TakeSeat)
    if runtime().store.meta(gid) is None:
        raise errors.NotFound(Text("no game {gid}", gid=repr(gid)))
    return jsonify(Tables(runtime().service).claim(gid, seat, body.name, account=session.username()))


@api.post("/games/<gid>/rematch")
def rematch(gid: str):
    """The finished game's rematch: created by the first seat that asks, joined by the others."""
    rt = runtime()
    seat = required_seat(rt, gid)
    return jsonify(Tables(rt.service).rematch(gid, seat, client=request.remote_addr)), 201


def required_seat(rt, gid: str) -> int:
    """The seat of the request's bearer token: 404 for no such game, then 401 for no or an unknown token."""
    token = bearer_token()
    if rt.store.meta(gid) is None:
        raise errors.NotFound(Text("no game {gid}", gid=repr(gid)))
    if token is None:
        raise errors.Unauthorized(Text("a seat token is required: Authorization: Bearer <token>"))
    return rt.seats.seat_for(gid, token)


@api.get("/games")
def lobby():
    status = request.args.get("status")
    if status not in (None, "open", "setup", "playing", "finished"):
        raise errors.BadRequest(Text("status: must be open, setup, playing or finished"))
    limit = int_arg("limit", minimum=1)
    if limit is not None and limit > LOBBY_MAX:
        raise errors.BadRequest(Text("limit: at most {lobby_max}", lobby_max=LOBBY_MAX))
    cursor = request.args.get("cursor")
    if cursor is not None and not LOBBY_CURSOR.fullmatch(cursor):
        raise errors.BadRequest(Text("cursor: not a cursor of this lobby (use the 'next' of a page)"))
    rt = runtime()
    games, following = rt.projector.page(status, limit or LOBBY_PAGE, cursor)
    if status == "open" and rt.people is not None:  # waiting for a player who left: not worth joining
        games = rt.people.presence.creators_here(games)
    lang = i18n.request_language()
    return jsonify({"games": [i18n.localize_document(g, lang) for g in games], "next": following})


@api.get("/stats")
def stats():
    """Per game: finished games, draws, wins by seat, mean length; Elo ratings by player name; and ``doctor``, the
    pipeline's health as ``burrow doctor`` prints it."""
    rt = runtime()
    return jsonify({**rt.ratings.read(), "doctor": doctor.summary(rt)})


@api.get("/games/<gid>")
def get_game(gid: str):
    rt = runtime()
    seat = rt.seats.seat_for(gid, bearer_token())
    version = int_arg("version", minimum=1)
    if version is not None:
        return jsonify(i18n.localize_document(old_version(rt, gid, seat, version), i18n.request_language()))
    # Never older than what the client says it has seen (``min_version``), nor than what this process has seen
    # (its own commands and reads): a client that stays with one process reads monotonically even without it.
    floor = max(int_arg("min_version") or 0, rt.games.seen_version(gid))
    doc = rt.projector.read(gid, seat)
    if doc is None or doc["version"] < floor:
        # The projection is missing or behind: read the stream directly (cached state + tail), so that a player
        # always sees their own move.
        doc = document(rt.games.load(gid), seat)
    return jsonify(i18n.localize_document(with_rating_changes(rt, with_presence(rt, doc, seat)),
                                          i18n.request_language()))


def with_rating_changes(rt, doc: dict) -> dict:
    """A finished rated game's document with each seat's rating change in its result (``rating_changes``): the
    ratings are their own read model, which follows the game's end by a job."""
    result = doc.get("result")
    if result is None or doc["status"] != "finished" or not all(p.get("account") for p in doc["players"]):
        return doc
    changes = rt.ratings.changes(doc["game"], doc["id"])
    return doc if changes is None else {**doc, "result": {**result, "rating_changes": changes}}


def old_version(rt, gid: str, seat: int | None, version: int) -> dict:
    """The document of the game at ``version`` (time travel): at most ``old_reads_per_client`` such reads of one
    client at once (429 beyond), each folding at most a snapshot interval of events."""
    with rt.old_reads.one(request.remote_addr):
        latest = rt.games.load(gid)
        finished = latest.status == "finished"
        return document(rt.games.at_version(gid, version), seat, reveal=finished)


def with_presence(rt, doc: dict, seat: int | None) -> dict:
    """The document with what is true only now: ``online`` per seat and, for a seat whose opponent is away on
    their turn, the claims in ``table``. A seat reading its own document has its page open: it is seen (and
    nothing is published: the page's beat, ``POST /api/games/<gid>/presence``, tells the others)."""
    people = rt.people
    if people is None:
        return doc
    gid = doc["id"]
    if seat is not None:
        people.presence.seat_seen(gid, seat)
    doc = {**doc, "online": people.presence.online(gid, [p.get("account") for p in doc["players"]]), "away": None}
    if doc["clock"] is not None and doc["status"] == "playing" and len(doc["players"]) == 2:
        game = rt.games.load(gid)
        times = rt.service.claim_times(game)
        offline = [s for s in times if not doc["online"][s]]
        if len(times) == 1 and offline:  # one seat to act and its player away: pages count down to the claim
            doc["away"] = {"seat": offline[0], "claim_at": iso_time(times[offline[0]])}
        if seat is not None:
            now = now_ms()
            away = frozenset(s for s, at in times.items() if at <= now)
            claims = [c for c in game.table_commands(seat, away) if c not in doc["table"]]
            doc["table"] = [*doc["table"], *claims]
    return doc


@api.post("/games/<gid>/commands")
def post_command(gid: str):
    rt = runtime()
    body = schemas.request_body(schemas.Command)
    with command_measured(rt, gid):
        seat = required_seat(rt, gid)
        answer = rt.service.command(gid, seat, body.move, body.expected_version, body.command_id)
    return jsonify({**answer, "events": i18n.localize_events(answer["events"], i18n.request_language())})


@contextmanager
def command_measured(rt, gid: str):
    """Count the command (``burrow_commands_total{game,outcome}``: ``ok`` or its error's code) and time it."""
    metrics = rt.metrics
    if metrics is None:
        yield
        return
    started, outcome = time.perf_counter(), "ok"
    try:
        yield
    except errors.ServiceError as exc:
        outcome = exc.code
        raise
    except REDIS_DOWN:
        outcome = STORE_UNAVAILABLE
        raise
    except Exception:
        outcome = "internal"
        raise
    finally:
        meta = rt.store.known_meta(gid)
        game = game_label(meta.get("game") if meta else None)
        metrics.commands.labels(game, outcome).inc()
        metrics.command_seconds.labels(game).observe(time.perf_counter() - started)


@api.get("/games/<gid>/events")
def get_events(gid: str):
    rt = runtime()
    seat = rt.seats.seat_for(gid, bearer_token())
    after = int_arg("after") or 0
    return jsonify({"events": i18n.localize_events(rt.games.events(gid, seat, after), i18n.request_language())})


@api.post("/games/<gid>/analysis")
def request_analysis(gid: str):
    """Queue the analysis of a finished game (409 ``not_finished`` while it runs, 429 when this client's analyses
    not done yet or everybody's are at their cap); 202 with its status."""
    return jsonify({"status": runtime().analyses.request(gid, address=request.remote_addr)}), 202


@api.get("/games/<gid>/analysis")
def get_analysis(gid: str):
    """The analysis so far: status, analysed version, one entry per move analysed (404 if never requested)."""
    rt = runtime()
    rt.games.load(gid)  # 404 for no such game first
    return jsonify(rt.analyses.read(gid))
