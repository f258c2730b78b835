"""``redis+sentinel://`` URLs (docs/api.md, "Operations"): parsed into Sentinels, service, database and password,
refused with a sentence when malformed, shown without their password. The failover itself:
``tests/reliability/test_sentinel.py``."""

from __future__ import annotations

import pytest

from services.config import public_url
from services.store.connection import plain, sentinel_parts


def test_parts():
    assert sentinel_parts("redis+sentinel://:s3cret@h1:26379,h2:26380/queues/1") == \
        ([("h1", 26379), ("h2", 26380)], "queues", 1, "s3cret")
    assert sentinel_parts("redis+sentinel://10.0.0.1:26379/mymaster") == \
        ([("10.0.0.1", 26379)], "mymaster", 0, None)


@pytest.mark.parametrize("url", ["redis+sentinel://h1:26379", "redis+sentinel://h1/queues/0",
                                 "redis+sentinel://h1:x/queues", "redis+sentinel://h1:26379/queues/zero"])
def test_malformed(url):
    with pytest.raises(ValueError):
        sentinel_parts(url)


def test_a_client_asks_the_sentinels_for_the_master():
    client = plain("redis+sentinel://127.0.0.1:1,127.0.0.1:2/queues/3", socket_timeout=0.1)
    pool = client.connection_pool
    assert pool.service_name == "queues" and pool.connection_kwargs["db"] == 3
    assert [(s.connection_pool.connection_kwargs["host"], s.connection_pool.connection_kwargs["port"])
            for s in pool.sentinel_manager.sentinels] == [("127.0.0.1", 1), ("127.0.0.1", 2)]


def test_shown_without_the_password():
    assert public_url("redis+sentinel://:s3cret@h1:26379,h2:26380/queues/1") == \
        "redis+sentinel://***@h1:26379,h2:26380/queues/1"
    assert "s3cret" not in public_url("redis+sentinel://:s3cret/x@h1:26379/queues")
