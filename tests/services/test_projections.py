"""Projections, the dispatcher and AI jobs: idempotent, order-free, crash-safe; on fakeredis and a real Redis."""

from __future__ import annotations

import json

import pytest

from services.reads.views import all_documents
from tests.conftest import run_jobs
from workers import jobs
from workers.dispatcher import Dispatcher
from workers.worker import ThreadWorker

PLAYERS = [{"name": "Ana"}, {"name": "Bob"}]


def play(runtime, gid, tokens_by_seat, moves):
    service = runtime.service
    for move in moves:
        game = runtime.games.load(gid)
        seat = game.to_act[0]
        service.command(gid, seat, move)


def projected(runtime, gid):
    return json.loads(runtime.redis.get(runtime.store.keys.view(gid)))


def fresh(runtime, gid):
    return json.loads(json.dumps(all_documents(runtime.games.load(gid))))


def test_project_twice_changes_nothing(runtime):
    g = runtime.service.create("murus", PLAYERS)
    play(runtime, g["id"], None, ["a1-a3", "a7-a5"])
    assert jobs.project(g["id"]) == 3
    first = runtime.redis.get(runtime.store.keys.view(g["id"]))
    assert jobs.project(g["id"]) == 3
    assert runtime.redis.get(runtime.store.keys.view(g["id"])) == first
    assert projected(runtime, g["id"])["docs"] == fresh(runtime, g["id"])


def test_out_of_order_job_never_goes_back(runtime):
    """A slow job that computed an older version cannot overwrite a newer projection."""
    g = runtime.service.create("murus", PLAYERS)
    gid = g["id"]
    old_game = runtime.games.load(gid)
    play(runtime, gid, None, ["a1-a3"])
    jobs.project(gid)
    projector = runtime.projector
    written = projector._write_view(keys=[runtime.store.keys.view(gid), runtime.store.keys.ckpt(gid)],
                                    args=[old_game.version, json.dumps({"version": 1, "docs": {}})])
    assert written == 0
    assert projector.checkpoint(gid) == 2
    assert projected(runtime, gid)["docs"] == fresh(runtime, gid)


def test_crash_between_reading_and_writing_converges(runtime, monkeypatch):
    """A worker killed mid-job (after reading, before writing) leaves the old projection; a rerun converges."""
    g = runtime.service.create("murus", PLAYERS)
    gid = g["id"]
    jobs.project(gid)
    play(runtime, gid, None, ["a1-a3", "a7-a5"])

    def crash(*args, **kwargs):
        raise SystemExit("killed")

    monkeypatch.setattr(runtime.projector, "_write_view", crash)
    with pytest.raises(SystemExit):
        jobs.project(gid)
    assert runtime.projector.checkpoint(gid) == 1
    monkeypatch.undo()
    jobs.project(gid)
    assert runtime.projector.checkpoint(gid) == 3
    assert projected(runtime, gid)["docs"] == fresh(runtime, gid)


def test_without_the_fast_path_the_command_path_pokes_nothing(runtime):
    runtime.service.jobs = None  # BURROW_FAST_PATH=0
    runtime.service.create("murus", PLAYERS)
    assert runtime.queue.count == 0 and runtime.jobs.pending() == 0  # the dispatcher, reading the log, pokes


def test_the_command_path_pokes_the_projection_of_each_command(runtime):
    pokes = runtime.service.jobs  # BURROW_FAST_PATH, on by default: noted, sent by a thread of their own
    g = runtime.service.create("murus", PLAYERS)
    pokes.flush()  # (what that thread does at once; here, to look at the queue without a race)
    assert runtime.jobs.pending() == 1 and runtime.queue.count == 1
    play(runtime, g["id"], None, ["a1-a3"])
    pokes.flush()
    assert runtime.jobs.pending() == 1 and runtime.queue.count == 1  # coalesced: the game waits once
    queues = list(runtime.jobs.queues.values())
    ThreadWorker(queues, connection=runtime.rq_redis).run(burst=True, logging_level="ERROR")  # no dispatcher
    assert runtime.projector.checkpoint(g["id"]) == 2
    assert [e["id"] for e in runtime.projector.lobby()] == [g["id"]]


def test_dispatcher_enqueues_projections_and_acks(runtime):
    runtime.service.jobs = None  # no fast path: the dispatcher alone pokes the workers
    g = runtime.service.create("murus", PLAYERS)
    dispatcher = Dispatcher(runtime, consumer="d1")
    assert dispatcher.run_once(block_ms=10) == 1
    assert dispatcher.run_once(block_ms=10) == 0  # pending until projected, not delivered again before the claim
    run_jobs(runtime)
    assert runtime.projector.checkpoint(g["id"]) == 1


def test_dead_dispatchers_entries_are_claimed(runtime):
    runtime.service.jobs = None  # no fast path: the dispatcher alone pokes the workers
    g = runtime.service.create("murus", PLAYERS)
    log = runtime.store.keys.log_of(g["id"])
    Dispatcher(runtime, consumer="dead")  # creates the group
    runtime.redis.xreadgroup("dispatch", "dead", {log: ">"}, count=10)  # read, then "crash" before XACK
    survivor = Dispatcher(runtime, consumer="alive", claim_idle_ms=0)
    assert survivor.run_once(block_ms=10) == 1
    run_jobs(runtime)
    assert runtime.projector.checkpoint(g["id"]) == 1
    assert survivor.run_once(block_ms=10) == 1  # claimed once more, now projected: acknowledged
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 0


class StepTime:
    """``time`` for the dispatcher: its ``monotonic`` moves only when told."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def burst(runtime) -> None:
    """Run the queued RQ jobs (no dispatcher)."""
    ThreadWorker(list(runtime.jobs.queues.values()), connection=runtime.rq_redis).run(burst=True,
                                                                                      logging_level="ERROR")


def test_the_dispatcher_looks_again_at_its_entries_left_pending_without_waiting_for_the_claim(runtime,
                                                                                               monkeypatch):
    """An entry read before its projection stays pending; the dispatcher acknowledges it ``settle_ms`` later,
    not after ``claim_idle_ms`` (the log's pending list stays short: XAUTOCLAIM scans it), and it does not run
    XAUTOCLAIM at every pass."""
    import workers.dispatcher

    clock = StepTime()
    monkeypatch.setattr(workers.dispatcher, "time", clock)
    runtime.service.jobs = None  # no fast path: the dispatcher alone pokes the workers
    g = runtime.service.create("murus", PLAYERS)
    log = runtime.store.keys.log_of(g["id"])
    dispatcher = Dispatcher(runtime, consumer="d1", claim_idle_ms=60_000)
    claims = []
    autoclaim = dispatcher.group.autoclaim
    monkeypatch.setattr(dispatcher.group, "autoclaim", lambda *a: claims.append(a) or autoclaim(*a))
    assert dispatcher.run_once(block_ms=10) == 1
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 1  # not projected yet
    burst(runtime)
    assert runtime.projector.checkpoint(g["id"]) == 1
    dispatcher.run_once(block_ms=10)
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 1, "not due yet"
    clock.now += dispatcher.settle_ms / 1000
    dispatcher.run_once(block_ms=10)
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 0
    assert len(claims) == runtime.store.keys.partitions, "one XAUTOCLAIM per partition, not one per pass"
    clock.now += 60_000 / 4000
    dispatcher.run_once(block_ms=10)
    assert len(claims) == 2 * runtime.store.keys.partitions


def test_a_lost_projection_job_is_poked_again_with_a_doubling_wait(runtime, monkeypatch):
    import workers.dispatcher

    clock = StepTime()
    monkeypatch.setattr(workers.dispatcher, "time", clock)
    runtime.service.jobs = None
    g = runtime.service.create("murus", PLAYERS)
    dispatcher = Dispatcher(runtime, consumer="d1", claim_idle_ms=60_000)
    dispatcher.settle_ms = 125  # waits of 1/8, 1/4 and 1/2 s: exact in binary, as is the clock's step below
    pending = runtime.jobs.keys.pending("project")
    dispatcher.run_once(block_ms=1)  # reads the entry, pokes the projection
    looks = [runtime.jobs.pending()]
    for wait in (0.125, 0.25, 0.5):
        runtime.rq_redis.delete(pending)  # the poke is lost (a worker took it, and died)
        clock.now += wait - 2**-10
        dispatcher.run_once(block_ms=1)
        looks.append(runtime.jobs.pending())  # not due yet: not poked
        clock.now += 2**-10
        dispatcher.run_once(block_ms=1)
        looks.append(runtime.jobs.pending())  # due: poked again
    assert looks == [1, 0, 1, 0, 1, 0, 1]
    burst(runtime)
    assert runtime.projector.checkpoint(g["id"]) == 1


def test_an_entry_an_ai_must_answer_stays_pending_until_it_has_played(runtime, monkeypatch):
    """Looking again at an entry where an AI is to act loads the game again (not only its projection): it stays
    pending while the AI thinks, its turn is not queued twice, and it is acknowledged once the AI has played."""
    import workers.dispatcher

    clock = StepTime()
    monkeypatch.setattr(workers.dispatcher, "time", clock)
    runtime.service.jobs = None
    g = runtime.service.create("murus", [{"name": "Bot", "ai": "easy"}, {"name": "Ana"}], seed=3)
    log = runtime.store.keys.log_of(g["id"])
    dispatcher = Dispatcher(runtime, consumer="d1", claim_idle_ms=60_000)
    dispatcher.run_once(block_ms=1)  # the AI's turn queued, the projection poked
    ai, project = runtime.jobs.queue("ai"), runtime.jobs.queue("project")
    assert len(ai) == 1
    ThreadWorker([project], connection=runtime.rq_redis).run(burst=True, logging_level="ERROR")
    assert runtime.projector.checkpoint(g["id"]) == 1  # projected, but the AI has not played
    clock.now += dispatcher.settle_ms / 1000
    dispatcher.run_once(block_ms=1)
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 1 and len(ai) == 1  # not queued twice
    ThreadWorker([ai], connection=runtime.rq_redis).run(burst=True, logging_level="ERROR")
    assert runtime.games.load(g["id"]).version == 2
    clock.now += 2 * dispatcher.settle_ms / 1000
    dispatcher.run_once(block_ms=1)  # the creation's entry acknowledged; the AI's move read, its projection poked
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 1
    burst(runtime)
    clock.now += dispatcher.settle_ms / 1000
    dispatcher.run_once(block_ms=1)
    assert runtime.redis.xpending(log, "dispatch")["pending"] == 0


def test_ai_seat_is_played_by_a_job(runtime):
    runtime.service.jobs = None  # no fast path: the dispatcher alone pokes the workers
    g = runtime.service.create("murus", [{"name": "Bot", "ai": "easy"}, {"name": "Ana"}], seed=3)
    gid = g["id"]
    runtime.queue.empty()
    Dispatcher(runtime, consumer="d").run_once(block_ms=10)
    run_jobs(runtime)
    game = runtime.games.load(gid)
    assert game.version == 2 and game.to_act == [1]


def test_stale_or_repeated_ai_job_appends_nothing(runtime):
    g = runtime.service.create("murus", [{"name": "Bot", "ai": "easy"}, {"name": "Ana"}], seed=3)
    gid = g["id"]
    assert jobs.ai_turn(gid, 0, 1) == "played"
    assert jobs.ai_turn(gid, 0, 1) == "stale"  # retried: the game moved on
    assert jobs.ai_turn(gid, 1, 2) == "stale"  # not an AI seat
    assert runtime.store.version(gid) == 2


def test_rebuild_restores_dropped_projections(runtime):
    ids = [runtime.service.create("murus", PLAYERS)["id"] for _ in range(3)]
    seen = []
    assert runtime.projector.rebuild(progress=lambda done, total: seen.append((done, total))) == 3
    assert seen[-1] == (3, 3)
    for gid in ids:
        assert projected(runtime, gid)["docs"] == fresh(runtime, gid)
    assert len(runtime.projector.lobby()) == 3


def test_projecting_a_batch_writes_what_one_game_at_a_time_writes(runtime):
    """``project_many`` (a batch's tails in one round trip, its writes in one more) against ``project_game`` and
    ``project_lobby``: the same documents and lobby lines, for games cached or not, with or without new events."""
    from services.games.states import States
    from services.reads.projections import Projector

    gids = [runtime.service.create("murus", PLAYERS)["id"] for _ in range(3)]
    play(runtime, gids[0], None, ["a1-a3", "a7-a5"])
    play(runtime, gids[1], None, ["a1-a3"])
    batch = Projector(States(runtime.store))  # its own cache: gids[2] is loaded cold
    batch.games.load(gids[0])
    batch.games.load(gids[1])
    play(runtime, gids[0], None, ["b1-b3"])  # a tail to read for a cached game; gids[1] has none
    done = batch.project_many([*gids, "no-such-game"])
    assert {gid: game.version for gid, game in done.items() if gid in gids} == {gids[0]: 4, gids[1]: 2, gids[2]: 1}
    assert type(done["no-such-game"]).__name__ == "NotFound"
    keys = runtime.store.keys
    for gid in gids:
        assert projected(runtime, gid) == {"version": done[gid].version, "docs": fresh(runtime, gid)}
        Projector(States(runtime.store)).project_lobby(gid, suffix=":one")  # one game at a time, cold
        partition = keys.partition(gid)
        line, alone = (runtime.redis.hget(keys.lobby(partition, suffix), gid) for suffix in ("", ":one"))
        assert line is not None and json.loads(line) == json.loads(alone)
