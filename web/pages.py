"""The pages: the lobby and a game's page. Server-rendered shells; the JS in ``static/`` reads the API.

Nothing secret is ever rendered here: seat tokens live in the browser only (URL fragment, then sessionStorage).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from flask import Blueprint, current_app, render_template

from domain.registry import GAME_NAMES, game_module

pages = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                  static_url_path="/static")

BOARDS = Path(__file__).parent / "static" / "boards"
TITLES = {"murus": "Murus Gallicus", "mouseguard": "Mouse Guard: Swords & Strongholds",
          "squirrels": "Foraging Squirrels", "commando": "Mission commando"}


def game_choices() -> list[dict]:
    """The games for the lobby's form: whether their rules have landed, their seat range, whether an AI exists."""
    choices = []
    for name in GAME_NAMES:
        try:
            module = game_module(name)
            low, high = module.SEATS
            ready = hasattr(module, "decide")
        except (ImportError, AttributeError):
            low, high, ready = 2, 2, False
        has_ai = ready and importlib.util.find_spec(f"domain.ai.{name}") is not None
        choices.append({"name": name, "title": TITLES.get(name, name), "ready": ready,
                        "min_seats": low, "max_seats": high, "ai": has_ai})
    return choices


@pages.get("/")
def lobby():
    return render_template("lobby.html", games=game_choices())


@pages.get("/games/<gid>")
def game(gid: str):
    meta = current_app.config["RUNTIME"].store.meta(gid)
    if meta is None:
        return render_template("missing.html", gid=gid), 404
    name = meta["game"]
    board = name if (BOARDS / f"{name}.js").is_file() else None
    return render_template("game.html", gid=gid, game=name, title=TITLES.get(name, name), board=board)
