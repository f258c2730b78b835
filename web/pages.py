"""The pages: the lobby and a game's page. Server-rendered shells; the JS reads the API."""

from __future__ import annotations

from flask import Blueprint, render_template

from domain.registry import GAME_NAMES

pages = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                  static_url_path="/static")


@pages.get("/")
def lobby():
    return render_template("lobby.html", games=GAME_NAMES)


@pages.get("/games/<gid>")
def game(gid: str):
    return render_template("game.html", gid=gid)
