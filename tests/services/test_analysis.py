"""Post-game analysis as queued jobs (services/reads/analysis.py): requests, chunks, idempotence, crashes, the
API."""

from __future__ import annotations

import dataclasses
import json
import random
import time

import msgspec
import pytest

from domain import ai
from services.reads import analysis
from tests.conftest import run_jobs
from tests.domain.step_clock import StepClock
from tests.domain.test_ai_analysis import BLUNDER_POSITION
from web import openapi

PLAYERS = [{"name": "Ana"}, {"name": "Bo"}]


@pytest.fixture
def rt(runtime):
    runtime.settings = dataclasses.replace(runtime.settings, analysis_time=0.05)
    runtime.analyses.budget = 0.05  # built once, with the runtime: its budget is its own
    return runtime


def blunder_game(rt, finish: bool = True) -> tuple[str, dict]:
    """The constructed Murus game: the Romans move their blocking tower away (e2-e4), the Gauls break through."""
    created = rt.service.create("murus", PLAYERS, position=BLUNDER_POSITION)
    gid = created["id"]
    rt.service.command(gid, 0, "e2-e4", command_id="c1")
    if finish:
        rt.service.command(gid, 1, "d3-f1")  # no command id: found by the rules
    return gid, created


def analysis_keys(rt, gid: str) -> list[bytes]:
    return list(rt.redis.scan_iter(match=f"{rt.store.keys.analysis(gid)}*"))


def test_a_finished_game_with_a_human_seat_is_analysed_by_queued_jobs_and_the_blunder_flagged(rt):
    gid, _ = blunder_game(rt)
    version = rt.store.version(gid)
    run_jobs(rt)  # the projection job sees the game finish and queues the analysis; a burst worker runs it all
    answer = rt.analyses.read(gid)
    assert answer["status"] == "done" and answer["version"] == version
    assert [(p["version"], p["seat"], p["move"]) for p in answer["plies"]] == [(2, 0, "e2-e4"), (3, 1, "d3-f1")]
    assert [p["blunder"] for p in answer["plies"]] == [True, False]
    assert [p["class"] for p in answer["plies"]] == ["blunder", None]
    romans, gauls = answer["players"]
    assert (romans["seat"], romans["blunders"], gauls["seat"], gauls["blunders"]) == (0, 1, 1, 0)
    assert romans["accuracy"] < 50 < gauls["accuracy"] <= 100
    assert answer["plies"][0]["best"] not in ("e2-e4", "e2-c2", "e2-g2", "e2-g4")
    assert answer["plies"][1]["win"][1] >= 0.9 and answer["plies"][1]["best"] == "d3-f1"
    assert rt.store.version(gid) == version  # nothing appended to the game


def test_analysis_jobs_are_idempotent_and_append_nothing(rt):
    gid, _ = blunder_game(rt)
    version = rt.store.version(gid)
    analyses = rt.analyses
    assert analyses.request(gid) == "queued"
    run_jobs(rt)
    first = analyses.read(gid)
    stored = rt.redis.hgetall(rt.store.keys.analysis_plies(gid, version))
    assert analyses.request(gid) == "done"  # asked again: nothing queued
    assert sum(len(rt.jobs.queue(kind)) for kind in rt.jobs.queues) == 0
    assert analyses.plan(gid, version) == 1 and analyses.run_chunk(gid, version, 0) == 0  # jobs run twice
    assert rt.redis.hgetall(rt.store.keys.analysis_plies(gid, version)) == stored
    assert analyses.read(gid) == first
    assert rt.store.version(gid) == version
    assert [e.version for e in rt.store.read(gid)] == list(range(1, version + 1))


def test_a_chunk_lost_with_a_crashed_worker_is_redone_and_only_its_missing_plies(rt):
    gid, _ = blunder_game(rt)
    version = rt.store.version(gid)
    analyses = rt.analyses
    analyses.request(gid)
    analyses.plan(gid, version)
    # A worker took the chunk, stored ply 0, and died: its queued job is gone and its lease lapses.
    rt.jobs.queue("analysis").empty()
    analyses.run_chunk(gid, version, 0)
    rt.redis.hdel(rt.store.keys.analysis_plies(gid, version), "1")
    rt.redis.hset(rt.store.keys.analysis(gid), "status", "running")
    rt.redis.set(rt.store.keys.analysis_lease(gid, version, 0), "running", ex=60)
    kept = rt.redis.hget(rt.store.keys.analysis_plies(gid, version), "0")
    assert analyses.read(gid)["status"] == "running"
    assert len(rt.jobs.queue("analysis")) == 0  # its lease still runs: not taken for lost yet
    rt.redis.delete(rt.store.keys.analysis_lease(gid, version, 0))
    assert [p["version"] for p in analyses.read(gid)["plies"]] == [2]  # the read queues the chunk again
    assert len(rt.jobs.queue("analysis")) == 1
    run_jobs(rt)
    assert analyses.read(gid)["status"] == "done"
    assert rt.redis.hget(rt.store.keys.analysis_plies(gid, version), "0") == kept  # not computed again


def test_a_running_game_is_refused_and_nothing_about_it_is_written_or_revealed(rt, client):
    gid, created = blunder_game(rt, finish=False)
    token = created["seats"][0]["token"]
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        answer = client.post(f"/api/games/{gid}/analysis", headers=headers)
        assert answer.status_code == 409
        assert answer.get_json() == {"error": {"code": "not_finished", "message": answer.get_json()["error"]
                                               ["message"]}}
        text = answer.get_data(as_text=True)
        assert "win" not in text and "best" not in text and "d3" not in text
    assert client.get(f"/api/games/{gid}/analysis").status_code == 404
    assert analysis_keys(rt, gid) == []
    assert sum(len(rt.jobs.queue(kind)) for kind in ("analysis",)) == 0


def test_the_api_queues_on_request_and_answers_as_the_contract_says(rt, client):
    created = rt.service.create("murus", [{"name": "A", "ai": "easy"}, {"name": "B", "ai": "easy"}],
                                position=BLUNDER_POSITION)
    gid = created["id"]
    rt.service.command(gid, 0, "e2-e4")
    rt.service.command(gid, 1, "d3-f1")
    run_jobs(rt)  # AI seats only: no automatic analysis
    assert client.get(f"/api/games/{gid}/analysis").status_code == 404
    assert client.get("/api/games/nosuchgame/analysis").status_code == 404
    answer = client.post(f"/api/games/{gid}/analysis")
    assert answer.status_code == 202 and answer.get_json() == {"status": "queued"}
    queued = client.get(f"/api/games/{gid}/analysis").get_json()
    assert queued == {"status": "queued", "version": rt.store.version(gid), "plies": [],
                      "players": [{"seat": s, "accuracy": None, "inaccuracies": 0, "mistakes": 0, "blunders": 0}
                                  for s in (0, 1)]}
    run_jobs(rt)
    done = client.get(f"/api/games/{gid}/analysis").get_json()
    assert done["status"] == "done" and len(done["plies"]) == 2
    assert set(done["plies"][0]) == {"version", "seat", "move", "win", "best", "blunder", "class"}
    msgspec.convert(done, openapi.Analysis)  # as the OpenAPI document describes it
    msgspec.convert(answer.get_json(), openapi.AnalysisStatus)
    assert client.post(f"/api/games/{gid}/analysis").get_json() == {"status": "done"}


@pytest.mark.parametrize("game, seats, seed", [("mouseguard", 2, 3), ("squirrels", 3, None), ("commando", 2, 4),
                                              ("commando", 3, None)])
def test_the_moves_of_a_game_are_found_from_its_events(rt, game, seats, seed):
    """With and without command ids, seeded or not (then a command's dice are told from the next command's by the
    time of their append: the test waits a few milliseconds between commands): the commands sent, in order."""
    created = rt.service.create(game, [{"name": f"P{i}"} for i in range(seats)], seed=seed)
    gid = created["id"]
    rng, sent = random.Random(1), []
    for ply in range(14):
        state = rt.games.load(gid)
        if state.status == "finished":
            break
        seat = state.to_act[0]
        move = ai.choose(game, state.view(seat), seat, "easy", rng, 0.01, StepClock())
        sent.append((state.version, seat, move))
        rt.service.command(gid, seat, move, command_id=f"c{ply}" if ply % 2 else None)
        if seed is None:
            time.sleep(0.003)
    found = analysis.moves(rt.service, rt.games.load(gid))
    assert [(m.version, m.seat, m.move) for m in found] == sent


@pytest.mark.parametrize("with_ids", [True, False])
def test_a_commitment_is_found_although_legal_lists_it_as_a_range(rt, with_ids):
    """Mission commando lists a commitment as ``commit 0..N``: the analysis names the count committed."""
    position = {"turn": 0, "agents": [{"square": 50, "weapons": 3}, {"square": 52, "weapons": 2}]}
    gid = rt.service.create("commando", [{"name": "Ana"}, {"name": "Bo"}], position=position, seed=9)["id"]
    sent = []
    for i, (seat, move) in enumerate([(0, "map 2"), (1, "commit 1"), (0, "commit 3")]):
        sent.append((rt.store.version(gid), seat, move))
        rt.service.command(gid, seat, move, command_id=f"c{i}" if with_ids else None)
    found = analysis.moves(rt.games, rt.games.load(gid))
    assert [(m.version, m.seat, m.move) for m in found] == sent


def test_the_stored_entries_are_json_per_ply(rt):
    gid, _ = blunder_game(rt)
    run_jobs(rt)
    version = rt.store.version(gid)
    raw = rt.redis.hgetall(rt.store.keys.analysis_plies(gid, version))
    assert sorted(int(k) for k in raw) == [0, 1]
    assert json.loads(raw[b"0"])["move"] == "e2-e4"


@pytest.mark.parametrize("game, seats", [("commando", 2), ("squirrels", 3), ("mouseguard", 2)])
def test_naming_the_moves_logs_no_traceback_for_a_half_created_game(rt, game, seats, caplog):
    """#16 qa: between game_created and the events appended with it (Commando's deck shuffle) the rules may fail
    (Commando drew from an empty deck): that logged a "rules bug" traceback for every analysed Commando game."""
    created = rt.service.create(game, [{"name": f"P{i}"} for i in range(seats)])
    gid, rng, sent = created["id"], random.Random(2), 0
    for _ply in range(6):
        state = rt.games.load(gid)
        if not state.to_act:
            break
        seat = state.to_act[0]
        move = ai.choose(game, state.view(seat), seat, "easy", rng, 0.01, StepClock())
        rt.service.command(gid, seat, move)
        sent += 1
        time.sleep(0.003)
    with caplog.at_level("WARNING", logger="services.reads.analysis"):
        found = analysis.moves(rt.service, rt.games.load(gid))
    assert len(found) == sent > 0
    assert not [r for r in caplog.records if r.name == "services.reads.analysis"], caplog.text
