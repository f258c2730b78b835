"""Fair queues: projections, AI turns and analyses on queues of their own; AI turns capped per client."""

from __future__ import annotations

from services.jobs.queues import AI_TURN, KINDS, RQJobs
from tests.conftest import run_jobs
from workers.dispatcher import Dispatcher


def ai_jobs(jobs: RQJobs) -> list[tuple]:
    return [tuple(job.args) for job in jobs.queue("ai").jobs]


def test_each_kind_has_its_own_queue_under_the_prefix(runtime):
    names = {kind: runtime.jobs.queue(kind).name for kind in KINDS}
    assert names == {kind: f"{runtime.settings.queue_name}:{kind}" for kind in KINDS}
    runtime.jobs.project("g1")
    runtime.jobs.ai_turn("g1", 0, 3)
    runtime.jobs.enqueue("analysis", "workers.jobs.project", "g1")
    runtime.jobs.enqueue("mail", "workers.jobs.project", "g1")
    assert [len(runtime.jobs.queue(kind)) for kind in KINDS] == [1, 1, 1, 0, 1]
    assert runtime.jobs.queue("ai").jobs[0].func_name == AI_TURN


def test_a_client_has_one_ai_turn_queued_the_others_wait_their_turn(runtime):
    jobs = runtime.jobs
    assert jobs.ai_turn("g1", 0, 1, "flood") is True
    assert jobs.ai_turn("g2", 0, 1, "flood") is False  # waits: the client's slot is taken
    assert jobs.ai_turn("g3", 1, 4, "flood") is False
    assert jobs.ai_turn("v1", 0, 1, "victim") is True  # another client is not held up by it
    assert ai_jobs(jobs) == [("g1", 0, 1, "flood"), ("v1", 0, 1, "victim")]
    assert jobs.ai_waiting("flood") == 2
    assert jobs.ai_done("g1", 0, 1, "flood") == 1  # its turn done: the next one enters the queue
    assert ai_jobs(jobs)[-1] == ("g2", 0, 1, "flood")
    assert jobs.ai_done("g2", 0, 1, "flood") == 1
    assert jobs.ai_done("g3", 1, 4, "flood") == 0
    assert jobs.ai_waiting("flood") == 0


def test_a_turn_queued_or_waiting_is_not_queued_twice(runtime):
    jobs = runtime.jobs
    assert jobs.ai_turn("g1", 0, 1, "c") is True
    assert jobs.ai_turn("g1", 0, 1, "c") is False  # the dispatcher pokes again: already queued
    assert jobs.ai_turn("g2", 0, 1, "c") is False
    assert jobs.ai_turn("g2", 0, 1, "c") is False
    assert jobs.ai_waiting("c") == 1 and len(jobs.queue("ai")) == 1


def test_a_lost_turn_is_queued_again_once_its_slot_is_stale(runtime):
    jobs = RQJobs(runtime.rq_redis, runtime.settings.queue_name, stale_ms=0)
    assert jobs.ai_turn("g1", 0, 1, "c") is True
    assert jobs.ai_turn("g1", 0, 1, "c") is True  # its worker died: the dispatcher's claim queues it again


def test_games_without_a_client_are_not_capped(runtime):
    assert all(runtime.jobs.ai_turn(f"g{i}", 0, 1) for i in range(3))


def test_the_dispatcher_queues_ai_turns_per_creator_and_they_run(runtime):
    bots = [{"name": "A", "ai": "easy"}, {"name": "B", "ai": "easy"}]
    gids = [runtime.service.create("murus", bots, {"max_plies": 2}, seed=i, client="10.0.0.1")["id"]
            for i in range(3)]
    Dispatcher(runtime, consumer="d").run_once(block_ms=10)
    assert len(runtime.jobs.queue("ai")) == 1  # one of the client's three games at a time
    for _ in range(12):
        run_jobs(runtime)
    assert all(runtime.games.load(gid).status == "finished"
               for gid in gids)
