"""#16 item 13: an AI turn's job id enqueued again while its first run is ending.

The dispatcher reads a game at version v and pokes its AI seat; if that seat's job for v has just played and
released its slot in between, the poke used to enqueue the same job id again while RQ was still finishing the first
run, and RQ then failed with ``InvalidJobOperation: Failed to retrieve status for job``. Seen in Mission commando
games with three AI seats, where AI turns follow each other fast enough to meet the dispatcher's reads.
"""

from __future__ import annotations

import logging

from services.jobs.queues import RQJobs
from workers.worker import ThreadWorker


def test_a_turn_just_played_is_not_queued_again(runtime):
    jobs = runtime.jobs
    assert jobs.ai_turn("g1", 0, 5, "c") is True
    jobs.ai_done("g1", 0, 5, "c")
    assert jobs.ai_turn("g1", 0, 5, "c") is False  # the dispatcher's late poke, from a read before the move
    assert jobs.ai_turn("g1", 0, 6, "c") is True   # the next turn is queued as usual
    stale = RQJobs(runtime.rq_redis, runtime.settings.queue_name, stale_ms=0)
    assert stale.ai_turn("g1", 0, 5, "c") is True  # long after: a lost turn may be queued again


def test_three_ai_commando_seats_with_late_pokes_play_without_an_rq_error(runtime, monkeypatch, caplog):
    bots = [{"name": name, "ai": "easy"} for name in ("A", "B", "C")]
    gid = runtime.service.create("commando", bots, {"max_plies": 12}, seed=4, client="10.0.0.9")["id"]
    done = runtime.jobs.ai_done
    pokes = []

    def done_then_late_poke(g, seat, version, client=None):
        # The worst moment for the dispatcher's poke: inside the job, after the move, before RQ closes the job.
        payloads = done(g, seat, version, client)
        pokes.append(runtime.jobs.ai_turn(g, seat, version, client))
        return payloads

    monkeypatch.setattr(runtime.jobs, "ai_done", done_then_late_poke)
    caplog.set_level(logging.ERROR)
    for _ in range(40):
        game = runtime.games.load(gid)
        if game.status == "finished":
            break
        for seat in game.to_act:
            runtime.jobs.ai_turn(gid, seat, game.version, "10.0.0.9")
        ThreadWorker([runtime.jobs.queue("ai")], connection=runtime.rq_redis).run(burst=True,
                                                                                  logging_level="ERROR")
    game = runtime.games.load(gid)
    assert game.status == "finished"
    assert pokes and not any(pokes), "a late poke queued a turn that had just been played"
    assert "InvalidJobOperation" not in caplog.text
    assert runtime.jobs.queue("ai").failed_job_registry.count == 0


def test_a_turn_waiting_behind_a_lost_slot_takes_it(runtime):
    """The job holding a client's slot was lost (its worker killed, the queue Redis failing over before the job's
    end was written): the turn waiting behind it is queued on the dispatcher's next poke once the slot is stale,
    never left waiting for an end that never comes (#43's Sentinel drill)."""
    jobs = RQJobs(runtime.rq_redis, runtime.settings.queue_name, ai_per_client=1)
    assert jobs.ai_turn("g1", 0, 5, "c") is True  # its job is lost: ai_done never comes
    assert jobs.ai_turn("g2", 0, 3, "c") is False and jobs.ai_waiting("c") == 1  # waits its turn
    assert jobs.ai_turn("g2", 0, 3, "c") is False  # the slot is fresh: it goes on waiting
    later = RQJobs(runtime.rq_redis, runtime.settings.queue_name, ai_per_client=1, stale_ms=0)
    assert later.ai_turn("g2", 0, 3, "c") is True  # the lost slot is stale now: the waiting turn takes it
    assert later.ai_waiting("c") == 0
