"""An RQ worker ends at once: leaving its command channel never waits for the channel reader's 60 s
(``workers/worker.py`` ``Worker.unsubscribe``)."""

from __future__ import annotations

import threading
import time

import fakeredis
import pytest
import redis

from workers.worker import Worker


@pytest.fixture(params=["fakeredis", "redis"])
def connection(request):
    if request.param == "fakeredis":
        return fakeredis.FakeRedis(server=fakeredis.FakeServer())
    return redis.Redis.from_url(request.getfixturevalue("real_redis_url"))


def test_a_worker_leaves_its_channel_at_once_even_when_its_reader_saw_the_unsubscription_first(connection, prefix):
    worker = Worker([], connection=connection, name=f"{prefix}-w")
    worker.subscribe()
    pubsub, reader = worker.pubsub, worker.pubsub_thread
    deadline = time.monotonic() + 10
    while not pubsub.subscribed and time.monotonic() < deadline:
        time.sleep(0.01)
    leave = pubsub.unsubscribe

    def leave_slowly(*args):
        # A busy machine: the reader handles the unsubscription's reply and loops before the worker goes on.
        # Before the fix the reader then waited 60 s for a next subscription, and stop() waited for the reader.
        answer = leave(*args)
        while pubsub.subscribed and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        return answer

    pubsub.unsubscribe = leave_slowly
    ending = threading.Thread(target=worker.unsubscribe, daemon=True)
    ending.start()
    ending.join(10)
    assert not ending.is_alive(), "unsubscribe waited for the channel reader"
    reader.join(5)
    assert not reader.is_alive()
