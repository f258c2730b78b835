"""``burrow doctor`` and the ``doctor`` key of ``GET /api/stats``: exit 1 when something is wrong, and what."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
import rq

from burrow import cli
from burrow.runtime import build
from services.config import Settings
from tests.conftest import run_jobs
from tests.reliability.live import wait_until
from workers.dispatcher import Dispatcher

PLAYERS = [{"name": "Ana"}, {"name": "Bob"}]


@pytest.fixture
def env(monkeypatch, real_redis_url, prefix):
    for name, value in {"REDIS_URL": real_redis_url, "BURROW_PREFIX": prefix, "BURROW_QUEUES": prefix}.items():
        monkeypatch.setenv(name, value)
    rt = build(Settings.from_env(dead_letter_after=1), journal=False)
    yield rt
    for key in rt.redis.scan_iter(match=f"{prefix}*"):
        rt.redis.delete(key)


@contextmanager
def workers_alive(rt):
    """An RQ worker registered on every queue, as a running ``burrow worker`` is."""
    worker = rq.Worker(list(rt.jobs.queues.values()), connection=rt.rq_redis, name=f"{rt.settings.prefix}-w")
    worker.register_birth()
    try:
        yield
    finally:
        worker.register_death()


def test_doctor_says_what_is_wrong_and_exits_1(env, capsys):
    gid = env.service.create("murus", PLAYERS)["id"]
    assert cli.main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "no dispatcher has read the logs" in out and "no RQ worker serves the queue" in out
    with workers_alive(env):
        Dispatcher(env, consumer="d").run_once(block_ms=1)
        run_jobs(env)
        Dispatcher(env, consumer="d", claim_idle_ms=0).run_once(block_ms=1)
        assert cli.main(["doctor"]) == 0
        out = capsys.readouterr().out
        assert out.strip().endswith("OK") and "dispatchers alive: 2" in out  # "d" and run_jobs' "tests"
        # A poison event: its entry goes to the dead letters (after one failure here), and doctor says so.
        env.store.append(gid, [("moved", b"\xc1")], expected_version=None)
        Dispatcher(env, consumer="d", claim_idle_ms=0).run_once(block_ms=1)
        assert cli.main(["doctor", "--dead"]) == 1
        out = capsys.readouterr().out
        assert "partition 0: 1 dead letter(s)" in out
        assert f"game {gid} version 2 (moved), 1 failures: DecodeError" in out


def test_doctor_needs_a_real_redis(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["doctor"]) == 2
    assert "needs a real Redis" in capsys.readouterr().err


def test_stats_carry_the_doctor_summary(runtime, client):
    runtime.service.create("murus", PLAYERS)
    doctor = client.get("/api/stats").get_json()["doctor"]
    assert doctor["ok"] is False and any("no dispatcher" in p for p in doctor["problems"])
    [partition] = doctor["partitions"]
    assert partition["log"] == 1 and partition["undelivered"] == 1 and partition["dead_letters"] == 0
    assert {q["name"].rsplit(":", 1)[1] for q in doctor["queues"]} == {"project", "ai", "analysis", "push", "mail"}
    runtime.service.jobs.flush()  # the command path's pokes, sent
    assert client.get("/api/stats").get_json()["doctor"]["games_waiting"] == 1  # the creation's (no worker here)
    runtime.jobs.project("g1")
    runtime.jobs.project("g1")
    assert client.get("/api/stats").get_json()["doctor"]["games_waiting"] == 2


def test_a_worker_silent_for_30_seconds_counts_as_dead(env, capsys, monkeypatch):
    """A SIGKILLed worker says nothing more: doctor stops counting it 30 s after its last heartbeat, long before
    RQ's own registry forgets it (#31)."""
    import services.jobs.doctor as doctor

    real_now = doctor.now_ms
    with workers_alive(env):
        Dispatcher(env, consumer="d").run_once(block_ms=1)
        assert cli.main(["doctor"]) == 0
        monkeypatch.setattr(doctor, "now_ms", lambda: real_now() + 31_000)
        Dispatcher(env, consumer="d").heartbeats.beat("d", real_now() + 31_000)
        assert cli.main(["doctor"]) == 1
        assert "no RQ worker serves the queue" in capsys.readouterr().out


def healthy(env) -> None:
    """Every dispatcher and worker seen, nothing pending: doctor's other checks pass."""
    Dispatcher(env, consumer="d").run_once(block_ms=1)
    run_jobs(env)
    Dispatcher(env, consumer="d", claim_idle_ms=0).run_once(block_ms=1)


def test_doctor_watches_redis_memory_against_maxmemory(env, capsys):
    """Issue #31: Redis ran without maxmemory alerts. Above 80% of maxmemory doctor fails (with noeviction a full
    Redis refuses every write); without maxmemory it warns; /api/stats carries the same figures."""
    from services.jobs import doctor

    old = env.redis.config_get("maxmemory")["maxmemory"]
    try:
        with workers_alive(env):
            healthy(env)
            env.redis.config_set("maxmemory", 0)
            assert cli.main(["doctor"]) == 0
            out = capsys.readouterr().out
            assert "redis events:" in out and "no maxmemory" in out
            assert "WARNING: redis (events) has no maxmemory" in out
            used = env.redis.info("memory")["used_memory"]
            env.redis.config_set("maxmemory", int(used / 0.9))
            assert cli.main(["doctor"]) == 1
            out = capsys.readouterr().out
            assert re.search(r"PROBLEM: redis \(events\) uses (8[1-9]|9\d)% of its maxmemory", out)
            [events] = doctor.summary(env)["memory"]
            assert events["redis"] == "events" and events["share"] > 0.8 and events["maxmemory"] == int(used / 0.9)
            env.redis.config_set("maxmemory", used * 4)
            assert cli.main(["doctor"]) == 0
            out = capsys.readouterr().out
            assert "maxmemory, 2" in out and "WARNING" not in out and out.strip().endswith("OK")
    finally:
        env.redis.config_set("maxmemory", old)


def test_doctor_notices_a_dead_dispatcher_and_a_dead_worker_within_10_s(env, capsys, monkeypatch):
    """SIGKILLed, they say nothing more: 10 s after their last word doctor says so, and exits 1 (#44)."""
    import services.jobs.doctor as doctor

    real_now = doctor.now_ms
    with workers_alive(env):
        Dispatcher(env, consumer="d").run_once(block_ms=1)
        assert cli.main(["doctor"]) == 0
        capsys.readouterr()
        monkeypatch.setattr(doctor, "now_ms", lambda: real_now() + 10_000)
        assert cli.main(["doctor"]) == 1
        out = capsys.readouterr().out
        assert "no dispatcher has read the logs" in out and "no RQ worker serves the queue" in out


def test_a_worker_beats_while_a_job_runs(env):
    """Its own thread beats every ``BEAT_SECONDS`` whatever the worker does (here: nothing, as in a long job)."""
    from workers.worker import Worker

    worker = Worker(list(env.jobs.queues.values()), connection=env.rq_redis, name=f"{env.settings.prefix}-b")
    worker.register_birth()
    try:
        first = rq.Worker.find_by_key(worker.key, connection=env.rq_redis).last_heartbeat
        with worker.beating(every=0.05):
            wait_until(lambda: rq.Worker.find_by_key(worker.key, connection=env.rq_redis).last_heartbeat != first,
                       10, what="a heartbeat")
    finally:
        worker.register_death()
