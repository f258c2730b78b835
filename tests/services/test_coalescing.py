"""Projection pokes are coalesced (#14): a game whose projection job still waits in its queue is not queued again,
so the backlog is bounded by the games being played, not by the commands. Fakeredis and a real redis-server."""

from __future__ import annotations

from tests.conftest import run_jobs
from workers.dispatcher import Dispatcher

PLAYERS = [{"name": "Ana"}, {"name": "Bob"}]


def queued(runtime) -> list[tuple]:
    return [tuple(job.args) for job in runtime.jobs.queue("project").jobs]


def play_one(runtime, gid: str) -> int:
    game = runtime.service.load(gid)
    seat = game.module.to_act(game.state)[0]
    return runtime.service.command(gid, seat, game.module.legal(game.state, seat)[0])["version"]


def test_pokes_while_a_projection_job_waits_queue_nothing_more(runtime):
    jobs = runtime.jobs
    assert jobs.project("g1") is True
    assert [jobs.project("g1") for _ in range(5)] == [False] * 5
    assert jobs.project("g2") is True  # per game
    assert queued(runtime) == [("g1",), ("g2",)]
    jobs.started("project", "g1")  # the job starts: a later poke may carry a newer version, so it queues again
    assert jobs.project("g1") is True
    assert queued(runtime) == [("g1",), ("g2",), ("g1",)]


def test_the_dispatcher_queues_one_job_per_game_however_many_commands_and_projections_catch_up(runtime):
    gids = [runtime.service.create("murus", PLAYERS)["id"] for _ in range(3)]
    dispatcher = Dispatcher(runtime, consumer="d")
    last = {}
    for _ in range(6):  # six commands per game, the dispatcher poking after each, no worker running
        for gid in gids:
            last[gid] = play_one(runtime, gid)
        dispatcher.run_once(block_ms=1)
    assert sorted(queued(runtime)) == sorted((gid,) for gid in gids)
    run_jobs(runtime)
    for gid in gids:
        assert runtime.projector.checkpoint(gid) == last[gid]
    assert queued(runtime) == []
    play_one(runtime, gids[0])  # after the job ran, the next command is projected again
    dispatcher.run_once(block_ms=1)
    assert queued(runtime) == [(gids[0],)]
