"""Killed workers and dispatchers: the log's consumer group and idempotent jobs bring every projection back.

Each test SIGKILLs a real ``burrow worker`` / ``burrow dispatch`` process at a chosen point (``hooks.py`` makes it
hang there first), starts healthy ones, and requires every game to converge: view and lobby line at the game's
version, and ``burrow replay --verify`` satisfied. Games are written without the command path's fast-path poke, as
when the web process dies right after an append: the dispatcher alone must then see every event through.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from burrow.cli import main as burrow
from burrow.runtime import build, install
from services.config import Settings
from services.store.log import LOG_GROUP as GROUP
from tests.reliability.live import Burrow, wait_until

PREFIX = "crash"
CLAIM_IDLE_MS = "300"
CONVERGE_SECONDS = 30


@pytest.fixture
def setup(redis_server, tmp_path, monkeypatch):
    """A private Redis, an in-process runtime on it that never pokes the workers, and a process launcher."""
    server = redis_server()
    monkeypatch.setenv("BURROW_PREFIX", PREFIX)
    runtime = build(Settings(redis_url=server.url, prefix=PREFIX), journal=False)
    runtime.service.jobs = None  # no fast path: only the dispatcher enqueues projections
    install(runtime)
    processes: list[Burrow] = []

    def launch(command: str, hang_at: str | None = None) -> Burrow:
        args = [command, "--redis", server.url]
        log = tmp_path / f"{command}-{len(processes)}.log"
        env = {"BURROW_PREFIX": PREFIX, "BURROW_CLAIM_IDLE_MS": CLAIM_IDLE_MS}
        if hang_at:
            proc = Burrow([hang_at, str(tmp_path / f"{hang_at}.reached"), *args], log, env,
                          module="tests.reliability.hooks")
        else:
            proc = Burrow(args, log, env)
        processes.append(proc.start())
        return proc

    yield server, runtime, launch, tmp_path
    for proc in processes:
        proc.kill()


def play_games(runtime, count: int, plies: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    gids = []
    for _ in range(count):
        gid = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])["id"]
        for _ in range(plies):
            game = runtime.games.load(gid)
            seat = game.to_act[0]
            runtime.service.command(gid, seat, rng.choice(game.legal(seat)))
        gids.append(gid)
    return gids


def converged(runtime, gids: list[str]) -> bool:
    keys, client = runtime.store.keys, runtime.redis
    for gid in gids:
        version = runtime.store.version(gid)
        line = client.hget(keys.lobby_versions(keys.partition(gid)), gid)
        if runtime.projector.checkpoint(gid) != version or line is None or int(line) != version:
            return False
    return True


def assert_replay_verifies(server, gids: list[str], capsys) -> None:
    for gid in gids:
        assert burrow(["replay", gid, "--verify", "--redis", server.url]) == 0, capsys.readouterr().out
    assert "verify: OK" in capsys.readouterr().out


def test_worker_killed_mid_projection_converges(setup, capsys):
    server, runtime, launch, tmp = setup
    stuck = launch("worker", hang_at="projection")
    gids = play_games(runtime, count=3, plies=2, seed=1)
    launch("dispatch")
    wait_until(lambda: (tmp / "projection.reached").exists(), 30, what="the worker to start a projection")
    stuck.kill()  # mid-projection: read the game, wrote nothing
    launch("worker")
    wait_until(lambda: converged(runtime, gids), CONVERGE_SECONDS, what="projections to converge")
    assert_replay_verifies(server, gids, capsys)


def test_dispatcher_killed_mid_batch_converges(setup, capsys):
    server, runtime, launch, tmp = setup
    gids = play_games(runtime, count=3, plies=2, seed=2)
    stuck = launch("dispatch", hang_at="dispatch")
    wait_until(lambda: (tmp / "dispatch.reached").exists(), 30, what="the dispatcher to read a batch")
    stuck.kill()  # mid-batch: entries read, nothing enqueued, nothing acknowledged
    log = runtime.store.keys.log(0)
    assert runtime.redis.xpending(log, GROUP)["pending"] == runtime.redis.xlen(log)
    assert not converged(runtime, gids)
    launch("dispatch")
    launch("worker")
    wait_until(lambda: converged(runtime, gids), CONVERGE_SECONDS, what="projections to converge")
    wait_until(lambda: runtime.redis.xpending(log, GROUP)["pending"] == 0, CONVERGE_SECONDS,
               what="every log entry to be acknowledged")
    assert_replay_verifies(server, gids, capsys)


@pytest.mark.slow  # waits out the 30 s
def test_a_killed_worker_leaves_no_process_behind_and_doctor_sees_it_dead_within_30_s(setup):
    """``burrow worker`` forks nothing (no scheduler process: clocks are the dispatchers'), so a SIGKILL leaves no
    orphan; and ``burrow doctor`` stops counting it within 30 s of its last word (#31)."""
    import services.jobs.doctor as doctor

    server, runtime, launch, _ = setup
    worker = launch("worker")
    wait_until(lambda: doctor.live_workers(runtime.rq_redis, doctor.now_ms()), 30, what="the worker to start")
    assert Path(f"/proc/{worker.proc.pid}/task/{worker.proc.pid}/children").read_text().split() == []
    worker.kill()
    killed = time.monotonic()
    wait_until(lambda: not doctor.live_workers(runtime.rq_redis, doctor.now_ms()), 40,
               what="doctor to see the worker dead")
    assert time.monotonic() - killed <= 31
