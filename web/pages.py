"""The pages: the lobby and a game's page. Server-rendered shells; the JS in ``static/`` reads the API.

Nothing secret is ever rendered here: seat tokens live in the browser only (URL fragment, then sessionStorage).
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from domain import registry
from web import i18n

pages = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                  static_url_path="/static")


def title(name: str) -> str:
    """The game's title in the catalog, in the reader's language (its name if it has none)."""
    try:
        return i18n.words(registry.game_info(name).title, i18n.request_language())
    except (KeyError, ImportError, AttributeError):
        return name


def board_script(name: str) -> str | None:
    """The file under ``static/boards/`` that draws game ``name``'s board (its registration's ``board``), or None
    for the generic board (the legal commands as buttons), also for a game no longer registered."""
    try:
        return registry.game_type(name).board
    except KeyError:
        return None


def game_choices() -> list[dict]:
    """The games for the lobby's form, from the catalog: title, seat range, whether an AI plays it."""
    lang = i18n.request_language()
    return [{"name": info.name, "title": i18n.words(info.title, lang), "min_seats": info.seats[0],
             "max_seats": info.seats[1], "ai": bool(info.levels)} for info in registry.catalog()]


@pages.get("/")
def lobby():
    return render_template("lobby.html", games=game_choices())


@pages.get("/challenge/<cid>")
def challenge(cid: str):
    """An invite link's page: whoever opens it accepts the invite (docs/api.md "The first ten minutes")."""
    if not 1 <= len(cid) <= 40 or not cid.isalnum():
        return render_template("missing.html", gid=cid[:40]), 404
    return render_template("challenge.html", cid=cid)


@pages.get("/games/<gid>")
def game(gid: str):
    meta = current_app.config["RUNTIME"].store.meta(gid)
    if meta is None:
        return render_template("missing.html", gid=gid), 404
    name = meta["game"]
    board = board_script(name)
    return render_template("game.html", gid=gid, game=name, title=title(name), board=board)


@pages.get("/tournaments")
def tournaments():
    """The tournaments: upcoming, running, finished, and the form that makes one (``static/tournaments.js``)."""
    games = game_choices()
    return render_template("tournaments.html", games=games, titles={g["name"]: g["title"] for g in games})


@pages.get("/tournaments/<tid>")
def tournament(tid: str):
    """A tournament's page: live standings and pairings (``static/tournament.js``, its stream)."""
    found = current_app.config["RUNTIME"].tournaments
    stored = found.stored(tid) if found is not None else None
    if stored is None:
        return render_template("no_tournament.html", tid=tid[:40]), 404
    titles = {g["name"]: g["title"] for g in game_choices()}
    return render_template("tournament.html", tid=tid, titles=titles)
