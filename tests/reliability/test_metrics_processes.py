"""``GET /metrics`` of a deployment of several processes (docs/api.md, "Operations"): two web processes sharing a
port (``burrow serve --web-only --processes 2``) and a worker process of its own, all on one metrics directory.
Whichever web process answers the scrape, it counts every process's commands, exactly, and the worker's jobs."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import free_port
from tests.reliability.live import Burrow, Http, wait_until

pytestmark = pytest.mark.slow
BURST = 40


def scrape(http: Http) -> dict[tuple[str, tuple], float]:
    status, text, _ = http.request("GET", "/metrics")
    assert status == 200, text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_every_process_counted_once(redis_server, tmp_path):
    store = redis_server()
    port = free_port()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), "BURROW_WEB_THREADS": "4"}
    web = Burrow(["serve", "--web-only", "--processes", "2", "--host", "127.0.0.1", "--port", str(port),
                  "--redis", store.url], tmp_path / "web.log", env).start()
    try:
        http = Http(port)
        wait_until(lambda: _answers(http), 60, what="burrow serve --processes 2")
        status, game = http.post("/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]})
        assert status == 201, game
        before = scrape(http)
        for _ in range(BURST):  # one connection each: the two processes share them
            status, answer = http.post(f"/api/games/{game['id']}/commands", {"move": "a1-a2"},
                                       game["seats"][0]["token"])
            assert status == 422, answer
        after = scrape(http)
        key = ("burrow_commands_total", (("game", "murus"), ("outcome", "illegal_move")))
        assert after.get(key, 0) - before.get(key, 0) == BURST
        key = ("burrow_command_seconds_count", (("game", "murus"),))
        assert after.get(key, 0) - before.get(key, 0) == BURST
        writers = {p.name.rsplit("_", 1)[1] for p in (tmp_path / "metrics").glob("counter_*.db")}
        worker = Burrow(["worker", "--burst", "--queue", "project", "--redis", store.url], tmp_path / "worker.log",
                        env).start()
        worker.proc.wait(timeout=120)
        jobs = scrape(http).get(("burrow_job_seconds_count", (("queue", "project"),)), 0)
        assert jobs >= 1, worker.log()  # the worker's job, read from its file by a web process
        assert len({p.name.rsplit("_", 1)[1] for p in (tmp_path / "metrics").glob("counter_*.db")}) > len(writers)
    finally:
        web.kill()


def _answers(http: Http) -> bool:
    try:
        return http.get("/api/health")[0] == 200
    except OSError:
        return False
