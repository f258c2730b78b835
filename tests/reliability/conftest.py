"""Fixtures of the reliability tests: every test talks to a redis-server of its own (``RedisProcess``)."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.conftest import RedisProcess


def require_redis_server() -> None:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required in CI")
        pytest.skip("no redis-server on this machine")


@pytest.fixture(scope="session")
def private_redis():
    """One private redis-server for the in-process tests of this package (keys under a per-test prefix)."""
    require_redis_server()
    server = RedisProcess().start()
    yield server
    server.stop()


@pytest.fixture
def redis_server():
    """A fresh private redis-server for one test (crash tests kill and restart it)."""
    require_redis_server()
    servers: list[RedisProcess] = []

    def start(*extra: str) -> RedisProcess:
        server = RedisProcess(*extra).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def rt(private_redis, prefix, tmp_path):
    """A runtime (store, service, projector, RQ queue) on the private redis-server, under a fresh prefix."""
    from burrow.runtime import build, install
    from services.config import Settings

    runtime = build(Settings(redis_url=private_redis.url, prefix=prefix, data_dir=str(tmp_path / "data"),
                             queue_name=f"{prefix}-q"), journal=False)
    install(runtime)
    yield runtime
    for key in runtime.redis.scan_iter(match=f"*{prefix}*"):
        runtime.redis.delete(key)


@pytest.fixture
def api(rt):
    """The whole site over ``rt`` (``tests/web/site.py``: the front, its streams, Flask behind), answering as
    Flask's test client does; a stream is read for 0.05 s."""
    from tests.web.site import Site

    site = Site(rt, stream_seconds=0.05)
    yield site
    site.close()
