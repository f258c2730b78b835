"""Projection pokes are coalesced (#14): a poke puts its game among the games waiting (once) and queues a job only
when none waits; a job takes a batch of them. So the backlog is bounded by the games being played, not by the
commands, and RQ's cost per job is paid once per batch. Fakeredis and a real redis-server."""

from __future__ import annotations

import time
import types

from tests.conftest import run_jobs
from workers.dispatcher import Dispatcher

PLAYERS = [{"name": "Ana"}, {"name": "Bob"}]


def queued(runtime) -> list[tuple]:
    return [tuple(job.args) for job in runtime.jobs.queue("project").jobs]


def play_one(runtime, gid: str) -> int:
    game = runtime.games.load(gid)
    seat = game.to_act[0]
    return runtime.service.command(gid, seat, game.legal(seat)[0])["version"]


def test_pokes_while_a_projection_job_waits_queue_nothing_more(runtime):
    jobs = runtime.jobs
    assert jobs.project("g1") is True
    assert [jobs.project("g1") for _ in range(5)] == [False] * 5
    assert jobs.project("g2") is False  # the waiting job will take it too
    assert queued(runtime) == [()]
    assert jobs.pending() == 2
    jobs.started()  # the job starts
    assert jobs.take_pending() == ["g1", "g2"]  # oldest first, and the list is empty again
    assert jobs.pending() == 0
    assert jobs.project("g1") is True  # a later poke may carry a newer version: it queues again
    assert queued(runtime) == [(), ()]
    assert [jobs.project(gid) for gid in ("g1", "g2", "g3")] == [False] * 3  # once the running job takes more,
    jobs.take_pending()  # the one queued still waits: nothing more is queued
    assert [jobs.project(gid) for gid in ("g1", "g2")] == [False] * 2
    assert queued(runtime) == [(), ()]


def test_a_game_keeps_its_place_and_a_long_list_is_drained_in_batches(runtime):
    jobs = runtime.jobs
    jobs.batch = 2
    for gid in ("g1", "g2", "g3", "g1", "g4", "g5"):
        jobs.project(gid)
    assert queued(runtime) == [()]
    jobs.started()
    assert jobs.take_pending() == ["g1", "g2"]
    assert queued(runtime) == [(), ()]  # three more wait: the next job is queued at once (for another worker)
    assert jobs.take_pending() == ["g3", "g4"]
    assert jobs.take_pending() == ["g5"]
    assert jobs.take_pending() == []
    assert len(queued(runtime)) == 2  # at most one job waits


def test_a_game_that_fails_does_not_hold_back_its_batch(runtime):
    from rq.job import JobStatus

    gids = [runtime.service.create("murus", PLAYERS)["id"] for _ in range(2)]
    runtime.service.jobs.flush()  # the creations' pokes, sent (by a thread of their own otherwise: a race here)
    for gid in (gids[0], "no-such-game", gids[1]):
        runtime.jobs.project(gid)
    job = runtime.jobs.queue("project").jobs[0]
    run_jobs(runtime)
    for gid in gids:
        assert runtime.projector.checkpoint(gid) == 1
    job.refresh()
    assert job.get_status() == JobStatus.FAILED
    assert "no-such-game" in job.latest_result().exc_string


def test_the_dispatcher_queues_one_job_however_many_games_and_commands_and_projections_catch_up(runtime):
    gids = [runtime.service.create("murus", PLAYERS)["id"] for _ in range(3)]
    dispatcher = Dispatcher(runtime, consumer="d")
    last = {}
    for _ in range(6):  # six commands per game, the dispatcher poking after each, no worker running
        for gid in gids:
            last[gid] = play_one(runtime, gid)
        dispatcher.run_once(block_ms=1)
    runtime.service.jobs.flush()  # the command path's pokes: a send in progress ends before the queue is read
    assert queued(runtime) == [()]
    assert runtime.jobs.pending() == 3
    run_jobs(runtime)
    for gid in gids:
        assert runtime.projector.checkpoint(gid) == last[gid]
    assert queued(runtime) == []
    assert runtime.jobs.pending() == 0
    play_one(runtime, gids[0])  # after the job ran, the next command is projected again
    dispatcher.run_once(block_ms=1)
    runtime.service.jobs.flush()
    assert queued(runtime) == [()]
    runtime.jobs.started()
    assert runtime.jobs.take_pending() == [gids[0]]


def test_a_projection_job_takes_the_games_poked_while_it_runs(runtime, monkeypatch):
    import workers.jobs

    gids = [runtime.service.create("murus", PLAYERS)["id"] for _ in range(3)]
    runtime.service.jobs.flush()
    runtime.jobs.started()
    runtime.jobs.take_pending()  # the creations' own pokes (the command path's)
    runtime.jobs.project(gids[0])
    project_many = runtime.projector.project_many

    clock = types.SimpleNamespace(now=0.0)  # the job's time stands still until the pokes are taken:
    # however slow a loaded machine is, its ``DRAIN_SECONDS`` do not run out between the two batches

    def project_and_poke(batch):  # while the job projects the first game, the other two are poked
        if gids[0] in batch:
            for other in gids[1:]:
                runtime.jobs.project(other)
        else:
            clock.now += 3600  # then its time is up: no wait for more
        return project_many(batch)

    monkeypatch.setattr(runtime.projector, "project_many", project_and_poke)
    monkeypatch.setattr(workers.jobs, "time", types.SimpleNamespace(monotonic=lambda: clock.now, time=time.time))
    waiting = len(queued(runtime))
    assert workers.jobs.project_pending() == 3  # the job queued by the first poke, run here as its worker would
    assert runtime.jobs.pending() == 0
    assert len(queued(runtime)) == waiting + 1  # the pokes while it ran queued one job, not one per take
    for gid in gids:
        assert runtime.projector.checkpoint(gid) == 1


def test_the_command_paths_pokes_are_sent_by_a_thread_of_their_own(runtime):
    import time

    for _ in range(3):
        runtime.service.create("murus", PLAYERS)
    deadline = time.monotonic() + 10
    # The thread notes the games waiting, then queues the job (two steps): wait for both.
    while (runtime.jobs.pending() < 3 or not queued(runtime)) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert runtime.jobs.pending() == 3 and len(queued(runtime)) == 1  # sent without a flush; one job for all


def test_a_projection_job_waits_for_games_poked_after_it_found_none(runtime, monkeypatch):
    """Without a game waiting, the job waits (a blocking pop, ``DRAIN_SECONDS`` at most) instead of ending: a
    game poked meanwhile is taken at once, not after RQ has ended this job and started another."""
    import time

    import workers.jobs

    # The poke comes as the job starts to wait, whenever that is (a timer thread, late on a busy machine, missed
    # the 0.1 s window now and then); a second's window leaves the job time to reach its wait.
    monkeypatch.setattr(workers.jobs, "DRAIN_SECONDS", 1.0)
    gid = runtime.service.create("murus", PLAYERS)["id"]
    runtime.service.jobs.flush()
    runtime.jobs.started()
    runtime.jobs.take_pending()  # the creation's own poke: nothing waits now
    waits, wait = [], runtime.jobs.wait_pending_since

    def poked_while_waiting(seconds):
        if not waits:
            runtime.jobs.project(gid)
        waits.append(seconds)
        return wait(seconds)

    monkeypatch.setattr(runtime.jobs, "wait_pending_since", poked_while_waiting)
    started = time.monotonic()
    assert workers.jobs.project_pending() == 1  # the game poked while the job waited
    assert waits and runtime.projector.checkpoint(gid) == 1
    assert time.monotonic() - started >= workers.jobs.DRAIN_SECONDS  # and it waited on for more, then ended
    assert runtime.jobs.wait_pending(0.01) == []  # nothing waits: the wait ends empty
