"""Analyses are fair between clients and their backlog is bounded (issue #31: 20 long games queued by one client
delayed another's 2-ply analysis to 68 s, and nothing bounded the backlog)."""

from __future__ import annotations

import dataclasses

import pytest
from rq.job import Job

from services.clients import client_id
from tests.services.test_analysis import blunder_game

ANA, BEN, CY = "198.51.100.31", "198.51.100.32", "198.51.100.33"


@pytest.fixture
def rt(runtime):
    runtime.settings = dataclasses.replace(runtime.settings, analysis_time=0.02)  # the decks' jobs' budget
    runtime.analyses.budget, runtime.analyses.per_client, runtime.analyses.waiting = 0.02, 5, 500
    return runtime


def queued(rt) -> list[str]:
    """The games of the jobs in the ``analysis`` queue, in order."""
    return [Job.fetch(i, connection=rt.rq_redis).args[0] for i in rt.jobs.queue("analysis").job_ids]


def run_next(rt) -> str:
    """Run the first job of the ``analysis`` queue, as a worker would; the game it was for."""
    queue = rt.jobs.queue("analysis")
    job = Job.fetch(queue.job_ids[0], connection=rt.rq_redis)
    queue.remove(job)
    job.perform()
    return job.args[0]


def test_one_clients_analyses_wait_their_turn_and_another_clients_go_by(rt):
    flood = [blunder_game(rt)[0] for _ in range(4)]
    mine = blunder_game(rt)[0]
    analyses = rt.analyses
    for gid in flood:
        assert analyses.request(gid, address=ANA) == "queued"
    analyses.request(mine, address=BEN)
    # Ana holds one slot: her first plan is queued, the three others wait in her list; Ben's plan is next.
    assert queued(rt) == [flood[0], mine]
    assert rt.jobs.analysis_waiting(client_id(ANA)) == 3
    ran = []
    while rt.jobs.queue("analysis").job_ids:
        assert queued(rt).count(mine) <= 1 and sum(g in flood for g in queued(rt)) <= 1  # one job each at most
        ran.append(run_next(rt))
        if analyses.read(mine)["status"] == "done":
            break
    # Ben's analysis (a plan and a chunk) waited behind one job of Ana's each time, never behind her backlog.
    assert ran == [flood[0], mine, flood[1], mine]
    while rt.jobs.queue("analysis").job_ids:
        run_next(rt)
    assert all(analyses.read(gid)["status"] == "done" for gid in flood)
    assert rt.jobs.analysis_waiting(client_id(ANA)) == 0


def test_the_backlog_is_bounded_per_client_and_in_all(rt, client):
    rt.analyses.per_client, rt.analyses.waiting = 2, 3
    games = [blunder_game(rt)[0] for _ in range(5)]
    asked = [client.post(f"/api/games/{gid}/analysis", environ_base={"REMOTE_ADDR": ANA}) for gid in games[:3]]
    assert [a.status_code for a in asked] == [202, 202, 429]
    error = asked[2].get_json()["error"]
    assert error["code"] == "too_many" and "at most 2" in error["message"] and error["retry_after"] == 60
    assert client.get(f"/api/games/{games[2]}/analysis").status_code == 404  # the refused one left nothing
    assert client.post(f"/api/games/{games[2]}/analysis", environ_base={"REMOTE_ADDR": BEN}).status_code == 202
    full = client.post(f"/api/games/{games[3]}/analysis", environ_base={"REMOTE_ADDR": CY})
    assert full.status_code == 429
    assert "too many analyses are waiting (at most 3)" in full.get_json()["error"]["message"]
    again = client.post(f"/api/games/{games[0]}/analysis", environ_base={"REMOTE_ADDR": ANA})
    assert again.status_code == 202  # asked already: counted once
    while rt.jobs.queue("analysis").job_ids:  # once done, an analysis leaves the backlogs
        run_next(rt)
    assert client.post(f"/api/games/{games[4]}/analysis", environ_base={"REMOTE_ADDR": ANA}).status_code == 202


def test_an_automatic_analysis_is_skipped_when_its_creators_backlog_is_full(rt):
    rt.analyses.per_client = 1
    analyses = rt.analyses
    first, second = (rt.service.create("murus", [{"name": "Ana"}, {"name": "Bo"}], client=ANA)["id"]
                     for _ in range(2))
    for gid in (first, second):
        rt.service.command(gid, 0, "abort")
    assert analyses.auto(first) is True and analyses.auto(second) is False
    assert analyses.meta(second) is None
