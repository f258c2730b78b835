"""The tournaments' API at its edges (docs/api.md "Tournaments"): who may do what, bounds with clear errors that
append nothing, a withdrawal, a start at ``starts_at`` by the dispatcher's timer, the live stream through the
front, the embedded journal. fakeredis and a real Redis."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random

import pytest

from burrow.runtime import build
from services.config import Settings
from services.tournaments.service import LIMITS
from tests.web.signin import signed_in
from tests.web.site import Site
from tests.web.test_tournaments import Players, play, run_jobs
from web.app import create_app

SWISS = {"game": "murus", "system": "swiss", "rounds": 2, "clock": {"initial": 300}}


@pytest.fixture
def app(runtime):
    return create_app(runtime)


@pytest.mark.parametrize("body, status, field", [
    ({**SWISS, "game": "chess"}, 422, "game"),
    ({**SWISS, "system": "knockout"}, 422, "system"),
    ({**SWISS, "rounds": 0}, 422, "rounds"),
    ({**SWISS, "rounds": LIMITS["rounds"] + 1}, 422, "rounds"),
    ({k: v for k, v in SWISS.items() if k != "rounds"}, 422, "rounds"),
    ({**SWISS, "minutes": 5}, 422, "minutes"),
    ({**SWISS, "system": "arena", "rounds": None, "minutes": LIMITS["minutes"] + 1}, 422, "minutes"),
    ({**SWISS, "clock": None}, 422, "clock"),
    ({**SWISS, "clock": {"initial": -1}}, 422, "clock.initial"),
    ({**SWISS, "max_players": LIMITS["players"] + 1}, 422, "max_players"),
    ({**SWISS, "max_players": 1}, 422, "max_players"),
    ({**SWISS, "table_size": 3}, 422, "table_size"),  # Murus has two seats
    ({**SWISS, "game": "squirrels", "system": "round_robin", "rounds": None, "table_size": 3}, 422, "table_size"),
    ({**SWISS, "options": {"variant": "x"}}, 422, "options.variant"),
    ({**SWISS, "title": "x" * (LIMITS["title"] + 1)}, 422, "title"),
    ({**SWISS, "starts_at": "tomorrow"}, 422, "starts_at"),
    ({**SWISS, "starts_at": "2030-01-01T10:00:00"}, 422, "starts_at"),
    ({**SWISS, "starts_at": "1999-01-01T10:00:00Z"}, 422, "starts_at"),
    ({**SWISS, "colour": "white"}, 400, "colour"),
])
def test_bad_tournaments_name_the_field_and_make_nothing(app, runtime, body, status, field):
    ann = signed_in(app, runtime, "Ann")
    r = ann.post("/api/tournaments", json=body)
    assert r.status_code == status and r.json["error"].get("field") == field, r.json
    assert ann.get("/api/tournaments").json["tournaments"] == []
    assert runtime.tournaments.store.ids() == []


def test_only_accounts_and_bounded_counts(app, runtime):
    guest = app.test_client()
    assert guest.post("/api/tournaments", json=SWISS).status_code == 401
    ann, ben = signed_in(app, runtime, "Ann"), signed_in(app, runtime, "Ben")
    made = [ann.post("/api/tournaments", json=SWISS) for _ in range(LIMITS["open_per_creator"] + 1)]
    assert [r.status_code for r in made] == [201] * LIMITS["open_per_creator"] + [429]
    tid = made[0].json["id"]
    assert guest.post(f"/api/tournaments/{tid}/join").status_code == 401
    assert ben.post(f"/api/tournaments/{tid}/join").status_code == 204
    assert ben.post(f"/api/tournaments/{tid}/join").json["error"]["code"] == "conflict"
    assert ben.post(f"/api/tournaments/{tid}/start").status_code == 403  # the creator starts it
    assert ann.post(f"/api/tournaments/{tid}/start").json["error"]["code"] == "conflict"  # one player
    assert ann.post("/api/tournaments/nope/join").status_code == 404
    assert ann.get("/api/tournaments/nope").status_code == 404
    assert ann.get("/api/tournaments?status=someday").status_code == 400
    assert guest.get(f"/api/tournaments/{tid}").json["players"] == ["Ben"]
    r = ben.post(f"/api/tournaments/{tid}/join", headers={"Accept-Language": "fr"})
    assert r.json["error"]["message"] == "vous êtes déjà inscrit à ce tournoi"


def test_a_withdrawn_player_is_not_paired_again(app, runtime):
    names = ["Wa", "Wb", "Wc", "Wd"]
    players = Players(app, runtime, names)
    tid = players["Wa"].post("/api/tournaments", json=SWISS).json["id"]
    for name in names:
        players[name].post(f"/api/tournaments/{tid}/join")
    players["Wa"].post(f"/api/tournaments/{tid}/start")
    run_jobs(runtime)
    first = players.doc(tid)["pairings"][0]["tables"]
    assert players["Wd"].post(f"/api/tournaments/{tid}/withdraw").status_code == 204
    for t in first:
        play(players, t["game"], random.Random(1), 2, winner=0)
    run_jobs(runtime)
    doc = players.doc(tid)
    second = doc["pairings"][1]["tables"]
    assert sorted(p for t in second for p in t["players"]) == ["Wa", "Wb", "Wc"]  # Wd's games: none
    assert [t for t in second if t["game"] is None][0]["result"]["points"] == [1]  # three left: a bye
    assert {s["username"]: s["withdrawn"] for s in doc["standings"]}["Wd"] is True
    assert players["Wd"].post(f"/api/tournaments/{tid}/join").json["error"]["code"] == "conflict"


def test_a_tournament_starts_at_its_time_by_the_dispatchers_timer(app, runtime):
    ann, ben = signed_in(app, runtime, "Ann"), signed_in(app, runtime, "Ben")
    soon = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)
    tid = ann.post("/api/tournaments", json={**SWISS, "starts_at": soon.isoformat()}).json["id"]
    for client in (ann, ben):
        client.post(f"/api/tournaments/{tid}/join")
    run_jobs(runtime)
    assert ann.get(f"/api/tournaments/{tid}").json["status"] == "upcoming"
    later = runtime.tournaments.clock() + 6 * 60_000
    runtime.tournaments.clock = lambda: later
    run_jobs(runtime)  # the dispatcher finds the timer due and queues the job
    doc = ann.get(f"/api/tournaments/{tid}").json
    assert doc["status"] == "running" and len(doc["pairings"][0]["tables"]) == 1
    assert [t["id"] for t in ann.get("/api/tournaments?status=running").json["tournaments"]] == [tid]


def test_the_live_stream_sends_the_document_on_each_change(runtime):
    site = Site(runtime, stream_seconds=1.0)
    try:
        app = site.flask
        ann, ben = signed_in(app, runtime, "Ann"), signed_in(app, runtime, "Ben")
        tid = ann.post("/api/tournaments", json=SWISS).json["id"]
        assert site.get("/api/tournaments/zzz/stream").status_code == 404
        sent = []

        async def main():
            stream = site.open_stream(f"/api/tournaments/{tid}/stream", address="10.1.1.2")
            for _ in range(200):
                if b"event: tournament" in stream.body():
                    break
                await asyncio.sleep(0.02)
            await asyncio.to_thread(ben.post, f"/api/tournaments/{tid}/join")
            for _ in range(500):
                if b'"players":["Ben"]' in stream.body():
                    break
                await asyncio.sleep(0.02)
            await stream.hang_up()
            sent.extend(stream.sent)

        asyncio.run(main())
        assert sent[0]["status"] == 200
        text = b"".join(m.get("body", b"") for m in sent).decode()
        blocks = [b for b in text.split("\n\n") if "event: tournament" in b]
        docs = [json.loads(b.split("data: ", 1)[1]) for b in blocks]
        assert [d["players"] for d in docs] == [[], ["Ben"]]
        assert [b.split("\n")[0] for b in blocks] == [f"id: {d['version']}" for d in docs]
    finally:
        site.close()


def test_the_embedded_journal_keeps_tournaments(tmp_path, prefix):
    settings = Settings(prefix=prefix, data_dir=str(tmp_path), queue_name=f"{prefix}-q")
    first = build(settings, journal=True)
    tid = first.tournaments.create("Ann", SWISS)
    first.tournaments.join(tid, "Ann")
    again = build(settings, journal=True)  # a new process: a fresh in-process Redis, the journal read
    assert again.tournaments.load(tid).players == ("Ann",)
    assert again.tournaments.document(tid)["players"] == ["Ann"]


def test_a_player_absent_at_the_start_of_their_game_loses_it(app, runtime):
    """Nobody moves in the first game: the first seat's 30 s for a first move run out, the game is aborted (not
    rated) and the tournament scores it as lost by the absent seat, won by the other."""
    from services.games.tables import Tables

    ann, ben = signed_in(app, runtime, "Ann"), signed_in(app, runtime, "Ben")
    tid = ann.post("/api/tournaments", json={**SWISS, "rounds": 1}).json["id"]
    for client in (ann, ben):
        client.post(f"/api/tournaments/{tid}/join")
    ann.post(f"/api/tournaments/{tid}/start")
    run_jobs(runtime)
    table = ann.get(f"/api/tournaments/{tid}").json["pairings"][0]["tables"][0]
    later = runtime.tournaments.clock() + 31_000
    assert Tables(runtime.service).flag(table["game"], now=later) == "timeout"
    game = ann.get(f"/api/games/{table['game']}").json
    assert game["result"]["winners"] == []  # aborted: the game itself names no winner
    run_jobs(runtime)
    doc = ann.get(f"/api/tournaments/{tid}").json
    assert doc["pairings"][0]["tables"][0]["result"]["points"] == [0, 1]
    assert doc["status"] == "finished" and [s["username"] for s in doc["standings"]][0] == table["players"][1]


def test_tournaments_nobody_starts_lapse_and_free_their_places(app, runtime):
    from domain.tournaments.state import LAPSE_MS

    ann = signed_in(app, runtime, "Ann")
    made = [ann.post("/api/tournaments", json=SWISS).json["id"] for _ in range(LIMITS["open_per_creator"])]
    assert ann.post("/api/tournaments", json=SWISS).status_code == 429
    later = runtime.tournaments.clock() + LAPSE_MS + 1
    runtime.tournaments.clock = lambda: later
    run_jobs(runtime)  # the dispatchers find their timers due; the job ends them
    assert [ann.get(f"/api/tournaments/{t}").json["end_reason"] for t in made] == ["lapsed"] * len(made)
    assert ann.post("/api/tournaments", json=SWISS).status_code == 201
