"""Shared fixtures: a private real redis-server per session, fakeredis, and runtimes over either."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid

import pytest
import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisProcess:
    """A redis-server of our own on a free loopback port, in a temp dir (never the shared server)."""

    def __init__(self, *extra: str):
        self.dir = tempfile.mkdtemp(prefix="burrow-redis-")
        self.port = free_port()
        self.extra = extra
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        """Start it; a port another process took meanwhile (a test run beside this one, another xdist worker)
        gets a new one: the server answering is checked to be this one, not a stranger on the same port."""
        for _ in range(5):
            self.proc = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
                 "--save", "", "--maxmemory-policy", "noeviction", *self.extra],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            client = redis.Redis(port=self.port)
            for _ in range(200):
                if self.proc.poll() is not None:
                    break  # it could not listen there
                try:
                    if client.info("server")["process_id"] == self.proc.pid:
                        return self
                    break  # someone else's redis-server answers on this port
                except redis.ConnectionError:
                    time.sleep(0.02)
            self.kill()
            self.port = free_port()
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes():
    """argon2id at its smallest cost in this process's tests (1 pass, 8 KiB): the same code and encoding, a
    thousandth of the work. ``test_the_hashes_are_argon2id_with_the_production_cost`` checks the production
    parameters; the servers the browser tests start hash at the full cost."""
    from argon2 import PasswordHasher

    from services.accounts import passwords

    production = passwords._hasher
    passwords._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    passwords._dummy.cache_clear()
    yield
    passwords._hasher = production
    passwords._dummy.cache_clear()


@pytest.fixture(scope="session")
def real_redis_url():
    """URL of a private real redis-server; skipped without one, but required when CI is set."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required in CI")
        pytest.skip("no redis-server on this machine")
    server = RedisProcess().start()
    yield server.url
    server.stop()


@pytest.fixture(params=["fakeredis", "redis"])
def redis_client(request):
    """A Redis client with a fresh, private keyspace: fakeredis, then a real redis-server."""
    if request.param == "fakeredis":
        import fakeredis

        yield fakeredis.FakeRedis(server=fakeredis.FakeServer())
        return
    client = redis.Redis.from_url(request.getfixturevalue("real_redis_url"))
    yield client
    client.flushdb()  # our own private server, never the shared one


@pytest.fixture
def prefix() -> str:
    return f"t{uuid.uuid4().hex[:8]}"


@pytest.fixture(params=["fakeredis", "redis"])
def runtime(request, prefix, tmp_path):
    """A full runtime (store, service, projector, queue) over fakeredis or a private real redis-server."""
    from burrow.runtime import build, install
    from services.config import Settings

    url = None if request.param == "fakeredis" else request.getfixturevalue("real_redis_url")
    rt = build(Settings(redis_url=url, prefix=prefix, data_dir=str(tmp_path / "data"),
                        queue_name=f"{prefix}-q"), journal=False)
    install(rt)
    yield rt
    if url:
        for key in rt.redis.scan_iter(match=f"{prefix}*"):
            rt.redis.delete(key)


@pytest.fixture
def client(runtime):
    from web.app import create_app

    return create_app(runtime).test_client()


def run_jobs(runtime) -> None:
    """Dispatch the new log entries, then run every queued RQ job in this thread (a burst worker)."""
    from workers.dispatcher import Dispatcher
    from workers.worker import ThreadWorker

    flush = getattr(runtime.service.jobs, "flush", None)
    if flush:  # the command path's pokes, sent now (a thread of their own sends them otherwise, racing the burst)
        flush()
    Dispatcher(runtime, consumer="tests").run_once(block_ms=1)
    queues = list(runtime.jobs.queues.values())
    ThreadWorker(queues, connection=runtime.rq_redis).measured(runtime).run(burst=True, logging_level="ERROR")


@pytest.fixture(scope="module")
def tictactoe():
    """The tests' tic-tac-toe (``tests/games/tictactoe``) registered as game "tictactoe" for a module's tests;
    it never shows in production. Registering it is the one line a new game needs beside its package."""
    from domain import registry
    from tests.games.tictactoe import GAME

    with registry.registered(GAME) as name:
        yield name
