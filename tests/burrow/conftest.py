"""Fixtures of the CLI tests."""

from __future__ import annotations

import pytest

from burrow.runtime import build
from services.config import Settings


@pytest.fixture
def redis_env(monkeypatch, real_redis_url, prefix, tmp_path):
    """A runtime on the real test Redis under this test's key prefix; ``REDIS_URL`` and ``BURROW_PREFIX`` are set
    for the ``burrow`` commands the test runs in-process, from an empty directory. Its keys are deleted after."""
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    monkeypatch.setenv("BURROW_PREFIX", prefix)
    monkeypatch.chdir(tmp_path)
    rt = build(Settings(redis_url=real_redis_url, prefix=prefix), journal=False)
    yield rt
    for key in rt.redis.scan_iter(match=f"{prefix}*"):
        rt.redis.delete(key)
