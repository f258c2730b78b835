"""AI-vs-AI games run to the end unattended: the dispatcher enqueues AI turns, a worker thread plays them."""

from __future__ import annotations

import threading
import time

import pytest

from burrow.runtime import build, install
from services.config import Settings
from workers.dispatcher import Dispatcher
from workers.worker import ThreadWorker

GAMES = [("murus", 2, {"max_plies": 40}), ("mouseguard", 2, {"max_plies": 20}), ("squirrels", 2, {}),
         ("commando", 3, {"max_plies": 30})]


@pytest.fixture
def live(tmp_path):
    runtime = build(Settings(data_dir=str(tmp_path), ai_time=0.02), journal=False)
    install(runtime)
    dispatcher = Dispatcher(runtime, consumer="test")
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            queues = list(runtime.jobs.queues.values())
            ThreadWorker(queues, connection=runtime.rq_redis).run(burst=True, logging_level="ERROR")
            stop.wait(0.02)

    threads = [threading.Thread(target=dispatcher.run, kwargs={"block_ms": 50}, daemon=True),
               threading.Thread(target=work, daemon=True)]
    for thread in threads:
        thread.start()
    yield runtime
    dispatcher.stop()
    stop.set()
    for thread in threads:
        thread.join(10)


@pytest.mark.slow  # whole AI-vs-AI games: a soak
@pytest.mark.parametrize("game, seats, options", GAMES, ids=[g for g, _, _ in GAMES])
def test_ai_versus_ai_runs_to_the_end(live, game, seats, options):
    g = live.service.create(game, [{"name": f"Bot{i}", "ai": "easy" if i % 2 else "normal"} for i in range(seats)],
                            options=options, seed=4)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        doc = live.projector.read(g["id"], None)
        if doc and doc["status"] == "finished":
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"{game}: not finished; at version {live.store.version(g['id'])}")
    assert doc["result"]["reason"]
    assert doc["version"] == live.store.version(g["id"])
