"""The pipeline's metrics (``services/metrics.py``): every job timed by queue, each projection's lag, each AI
turn, measured where they happen (the workers), counted exactly once each."""

from __future__ import annotations

from tests.conftest import run_jobs


def value(runtime, name: str, **labels) -> float:
    return runtime.metrics.registry.get_sample_value(name, labels) or 0.0


def test_jobs_projections_and_ai_turns_are_measured(runtime):
    before = {kind: value(runtime, "burrow_job_seconds_count", queue=kind) for kind in ("project", "ai")}
    lag_before = value(runtime, "burrow_projection_lag_seconds_count")
    turns_before = value(runtime, "burrow_ai_turn_seconds_count", outcome="played")
    created = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bot", "ai": "easy"}], {},
                                     client="10.0.0.1")
    gid, token = created["id"], created["seats"][0]["token"]
    seat = runtime.seats.seat_for(gid, token)
    runtime.service.command(gid, seat, "a1-a3", None, None)
    for _ in range(3):
        run_jobs(runtime)
    game = runtime.games.load(gid)
    assert game.version == created["version"] + 2  # Ana's move and the AI's answer
    played = value(runtime, "burrow_ai_turn_seconds_count", outcome="played") - turns_before
    assert played == 1
    ai_jobs = value(runtime, "burrow_job_seconds_count", queue="ai") - before["ai"]
    assert ai_jobs == value(runtime, "burrow_jobs_total", queue="ai", outcome="ok") >= 1
    assert value(runtime, "burrow_job_seconds_count", queue="project") - before["project"] >= 1
    # One lag per game taken by a projection job: the creation's, the move's and the AI's (pokes coalesce).
    assert value(runtime, "burrow_projection_lag_seconds_count") - lag_before >= 1
    assert value(runtime, "burrow_projection_lag_seconds_sum") >= 0
