"""Learn's routes (README "Learn"): the tutorials (``GET /api/learn``, ``GET /api/learn/<game>``, ``POST
/api/learn/<game>/progress``, the pages ``/learn`` and ``/learn/<game>``) and the deck (``GET /api/me/deck``,
``POST /api/me/deck/<id>/answer``, the page ``/train``). Thin: ``services/learn/`` does the work."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, url_for

from domain.text import Text
from services.learn import deck, tutorials
from web import i18n, schemas, session
from web.accounts import body_as
from web.api import api_blueprint
from web.pages import board_script, title

learn_api = api_blueprint("learn_api", __name__)
learn_pages = Blueprint("learn_pages", __name__)  # its templates and static files are the pages' (web/pages.py)


def runtime():
    return current_app.config["RUNTIME"]


def said(value: Any, lang: str) -> Any:
    """``value`` with every ``Text`` in it said in ``lang`` (JSON-ready containers walked through)."""
    if isinstance(value, Text):
        return i18n.say(value, lang)
    if isinstance(value, dict):
        return {k: said(v, lang) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [said(v, lang) for v in value]
    return value


def _learner() -> str | None:
    """Whose progress this request's is: its account's id, its guest session's (docs/api.md "The first ten
    minutes"), or None (a guest without a session: its page keeps its progress in the browser)."""
    found = session.signed_in()
    if found is not None:
        return found[1].id
    guest = session.guest_session()
    return guest.account if guest is not None else None


def _done() -> dict[str, int]:
    learner = _learner()
    if learner is None:
        return dict.fromkeys(tutorials.names(), 0)
    return tutorials.progress_of(runtime()).done(learner)


@learn_api.get("/learn")
def list_tutorials():
    """Every game's tutorial: its title, number of steps and the steps this account has completed."""
    lang = i18n.request_language()
    done = _done()
    return jsonify({"tutorials": [{"game": game, "title": i18n.say(tutorials.tutorial(game).title, lang),
                                   "steps": len(tutorials.tutorial(game).steps), "done": done[game]}
                                  for game in tutorials.names()]})


@learn_api.get("/learn/<game>")
def tutorial_steps(game: str):
    """A tutorial's steps in the reader's language (404 for a game without one)."""
    steps = tutorials.steps(tutorials.tutorial(game).game)
    return jsonify({"game": game, "steps": said(list(steps), i18n.request_language())})


@learn_api.post("/learn/<game>/progress")
def tutorial_progress(game: str):
    """``{"step"}``: that step is done (kept for an account or a guest session; without either, the page keeps
    its own)."""
    tutorial = tutorials.tutorial(game)
    step = body_as(schemas.TutorialProgress).step
    learner = _learner()
    progress = tutorials.progress_of(runtime())
    if learner is None:
        progress.check(tutorial.game, step)
    else:
        progress.record(learner, tutorial.game, step)
    return "", 204


@learn_pages.get("/learn")
def learn_page():
    return render_template("learn.html", game=None, board=None, title=None,
                           games=[{"name": g, "title": title(g)} for g in tutorials.names()])


@learn_pages.get("/learn/<game>")
def tutorial_page(game: str):
    if game not in tutorials.names():
        abort(404)
    name = game
    return render_template("learn.html", game=name, board=board_script(name), title=title(name),
                           games=[{"name": g, "title": title(g)} for g in tutorials.names()])


# -- the deck (signed in) ------------------------------------------------------------------------------------

@learn_api.get("/me/deck")
def my_deck():
    """The due cards of the signed-in account's deck, oldest first, with how many are due and in all."""
    _, account = session.required()
    return jsonify(deck.of(runtime()).due(account.id))


@learn_api.post("/me/deck/<card_id>/answer")
def answer_card(card_id: str):
    """``{"move"}``: a review answered at once — whether the move solves the card, its solutions, next due."""
    _, account = session.required()
    move = body_as(schemas.DeckAnswer).move
    return jsonify(deck.of(runtime()).answer(account.id, card_id, move))


@learn_pages.get("/train")
def train_page():
    boards = {g: url_for("pages.static", filename="boards/" + board_script(g)) for g in tutorials.names()
              if board_script(g)}
    return render_template("train.html", boards_json=json.dumps(boards))
