"""The tutorials over HTTP (docs/api.md "Learn"): the list, a tutorial's steps in the reader's language, progress
per account (a guest's stays in the browser), hostile bodies refused."""

from __future__ import annotations

import pytest

from services.learn import tutorials
from tests.web.signin import signed_in
from web.app import create_app


@pytest.fixture
def app(runtime):
    return create_app(runtime)


def test_every_game_is_listed_with_its_steps_and_nothing_done_yet(client):
    answer = client.get("/api/learn").get_json()
    assert [t["game"] for t in answer["tutorials"]] == ["murus", "mouseguard", "squirrels", "commando"]
    for entry in answer["tutorials"]:
        assert set(entry) == {"game", "title", "steps", "done"}
        assert entry["steps"] == len(tutorials.tutorial(entry["game"]).steps) >= 5 and entry["done"] == 0


@pytest.mark.parametrize("game", ["murus", "mouseguard", "squirrels", "commando"])
def test_a_tutorial_has_positions_texts_and_legal_moves_for_the_seat_to_act(client, game):
    answer = client.get(f"/api/learn/{game}").get_json()
    assert answer["game"] == game
    for step in answer["steps"]:
        assert {"position", "text", "moves"} <= set(step)
        assert step["text"] and step["moves"] and step["why"]
        assert step["seat"] in step["board"]["to_act"]
        assert set(step["moves"]) <= set(step["board"]["legal"]) or game == "commando"
    # the step's position starts a real game through the API, its moves legal there
    first = answer["steps"][0]
    players = [{"name": "A"}, {"name": "B"}]
    created = client.post("/api/games", json={"game": game, "players": players, "position": first["position"],
                                              "seed": 1})
    assert created.status_code == 201, created.get_json()


def test_texts_follow_the_reader_language(client):
    english = client.get("/api/learn/murus?lang=en").get_json()["steps"][0]
    french = client.get("/api/learn/murus?lang=fr").get_json()["steps"][0]
    chinese = client.get("/api/learn/murus?lang=zh").get_json()["steps"][0]
    assert english["text"].startswith("You play the Romans")
    assert french["text"] != english["text"] and chinese["text"] != english["text"]
    assert french["moves"] == english["moves"] == ["d1-d3"]
    titles = client.get("/api/learn?lang=fr").get_json()["tutorials"]
    assert titles[0]["title"] != client.get("/api/learn?lang=en").get_json()["tutorials"][0]["title"]


def test_progress_is_kept_per_account(app, runtime):
    ana = signed_in(app, runtime, "ana")
    bo = signed_in(app, runtime, "bo")
    assert ana.post("/api/learn/murus/progress", json={"step": 0}).status_code == 204
    assert ana.post("/api/learn/murus/progress", json={"step": 0}).status_code == 204  # twice: once
    assert ana.post("/api/learn/murus/progress", json={"step": 2}).status_code == 204
    assert ana.post("/api/learn/commando/progress", json={"step": 5}).status_code == 204
    done = {t["game"]: t["done"] for t in ana.get("/api/learn").get_json()["tutorials"]}
    assert done == {"murus": 2, "mouseguard": 0, "squirrels": 0, "commando": 1}
    assert all(t["done"] == 0 for t in bo.get("/api/learn").get_json()["tutorials"])


def test_a_guest_session_progress_is_kept_for_that_session(app, runtime):
    from web.session import COOKIE

    session_id, _ = runtime.accounts.sessions.open_guest("Guest Ana", "pytest")
    guest = app.test_client()
    guest.set_cookie(COOKIE, session_id)
    assert guest.post("/api/learn/squirrels/progress", json={"step": 3}).status_code == 204
    assert {t["game"]: t["done"] for t in guest.get("/api/learn").get_json()["tutorials"]}["squirrels"] == 1
    assert all(t["done"] == 0 for t in app.test_client().get("/api/learn").get_json()["tutorials"])


def test_a_guest_progress_is_checked_but_not_kept(client):
    assert client.post("/api/learn/murus/progress", json={"step": 1}).status_code == 204
    assert all(t["done"] == 0 for t in client.get("/api/learn").get_json()["tutorials"])
    assert client.post("/api/learn/murus/progress", json={"step": 99}).status_code == 422


@pytest.mark.parametrize("body", [{"step": -1}, {"step": 5}, {"step": "0"}, {"step": True}, {"step": 1.5}, {},
                                  {"step": 0, "extra": 1}, [0], "x"])
def test_hostile_progress_is_refused_and_records_nothing(app, runtime, body):
    ana = signed_in(app, runtime, "ana")
    answer = ana.post("/api/learn/murus/progress", json=body)
    assert 400 <= answer.status_code < 500 and answer.get_json()["error"]["code"]
    assert all(t["done"] == 0 for t in ana.get("/api/learn").get_json()["tutorials"])


def test_unknown_games_are_404(client):
    assert client.get("/api/learn/chess").status_code == 404
    assert client.post("/api/learn/chess/progress", json={"step": 0}).status_code == 404
    assert client.get("/learn/chess").status_code == 404
    assert client.get("/learn/murus").status_code == 200 and client.get("/learn").status_code == 200


# -- the deck over HTTP ----------------------------------------------------------------------------------------

def test_the_deck_needs_an_account_and_answers_as_the_contract_says(app, runtime):
    import dataclasses

    from tests.conftest import run_jobs
    from tests.services.test_deck import account_game

    runtime.settings = dataclasses.replace(runtime.settings, analysis_time=0.05)
    runtime.analyses.budget = 0.05
    gid, _, _ = account_game(runtime)
    run_jobs(runtime)
    guest = app.test_client()
    assert guest.get("/api/me/deck").status_code == 401
    assert guest.post(f"/api/me/deck/{gid}-1/answer", json={"move": "a1-a3"}).status_code == 401
    ana, bo = signed_in(app, runtime, "ana"), signed_in(app, runtime, "bo")
    mine = ana.get("/api/me/deck").get_json()
    assert mine["due"] == 1 and mine["total"] == 1
    card = mine["cards"][0]
    assert {"id", "game", "from", "seat", "view", "played", "due"} <= set(card)
    assert bo.post(f"/api/me/deck/{card['id']}/answer", json={"move": "a1-a3"}).status_code == 404
    assert ana.post(f"/api/me/deck/{card['id']}/answer", json={"move": 5}).status_code == 422
    assert ana.post(f"/api/me/deck/{card['id']}/answer", json={"move": "a1-a3", "x": 1}).status_code == 422
    answer = ana.post(f"/api/me/deck/{card['id']}/answer", json={"move": "e2-e4"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert set(body) == {"correct", "best", "next_due"} and body["correct"] is False and body["best"]
    right = ana.post(f"/api/me/deck/{card['id']}/answer", json={"move": body["best"][0]}).get_json()
    assert right["correct"] is True and right["next_due"] > body["next_due"]
    assert ana.get("/api/me/deck").get_json()["due"] == 0
    assert ana.get("/train").status_code == 200
