"""The tests' private redis-servers (``tests/conftest.py``): one that finds its port taken (a test run beside this
one, another pytest-xdist worker) moves to another port rather than sharing a stranger's server."""

from __future__ import annotations

import shutil

import pytest
import redis

from tests.conftest import RedisProcess


def test_a_private_redis_server_never_answers_with_a_strangers_keyspace():
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine")
    stranger = RedisProcess().start()
    ours = RedisProcess()
    ours.port = stranger.port  # as if the stranger took the port between our pick and our start
    try:
        ours.start()
        assert ours.port != stranger.port
        assert redis.Redis(port=ours.port).info("server")["process_id"] == ours.proc.pid
    finally:
        ours.stop()
        stranger.stop()
