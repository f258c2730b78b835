"""``burrow serve --web-only --processes N`` (issue #44): every setting reaches the web processes, web processes
that die at start make the command fail loudly, and a web process that dies later is replaced on the same socket
while the others serve on, untouched."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import redis

from tests.conftest import free_port
from tests.reliability.live import Burrow, Http, wait_until

pytestmark = pytest.mark.slow
START = 90  # seconds two web processes may take to start on a loaded machine


def serve(tmp_path: Path, url: str, *extra: str) -> tuple[Burrow, Http]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BURROW_PARTITIONS")}
    web = Burrow(["serve", "--web-only", "--processes", "2", "--host", "127.0.0.1", "--port", str(port),
                  "--redis", url, *extra], tmp_path / "web.log", {"BURROW_WEB_THREADS": "4"})
    web.env = {**env, "PYTHONUNBUFFERED": "1", "BURROW_WEB_THREADS": "4"}
    return web.start(), Http(port)


def answers(http: Http) -> bool:
    try:
        return http.get("/api/health")[0] == 200
    except OSError:
        return False


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sorted(int(p) for p in found)


def test_the_form_help_offers_serves_with_every_setting(redis_server, tmp_path):
    store = redis_server()
    web, http = serve(tmp_path, store.url, "--partitions", "3")
    try:
        wait_until(lambda: answers(http), START, what=f"burrow serve --processes 2\n{web.log()}")
        partitions = set()
        for _ in range(30):
            status, game = http.post("/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
            assert status == 201, game
        for key in redis.Redis.from_url(store.url).scan_iter(match="burrow:{p*}:log"):
            partitions.add(key.decode().split("{")[1].split("}")[0])
        assert partitions == {"p0", "p1", "p2"}, partitions  # --partitions 3 reached the web processes
    finally:
        web.kill()


def test_web_processes_that_die_at_start_fail_the_command_loudly(tmp_path):
    web, _ = serve(tmp_path, f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    try:
        web.proc.wait(timeout=START)
    finally:
        web.kill()
    assert web.proc.returncode not in (0, None)
    assert "died at start" in web.log(), web.log()


def test_a_killed_web_process_is_replaced_and_the_other_left_alone(redis_server, tmp_path):
    store = redis_server()
    web, http = serve(tmp_path, store.url)
    try:
        wait_until(lambda: "web processes ready" in web.log(), START, what=f"both ready\n{web.log()}")
        first = wait_until(lambda: len(children(web.proc.pid)) == 2 and children(web.proc.pid), START,
                           what="two web processes")
        victim, survivor = first
        os.kill(victim, signal.SIGKILL)
        for _ in range(20):  # the site keeps answering meanwhile, on the same port
            assert answers(http), web.log()
        now = wait_until(lambda: (c := children(web.proc.pid)) and len(c) == 2 and victim not in c and c, START,
                         what=f"a replacement\n{web.log()}")
        assert survivor in now and web.alive()
        wait_until(lambda: "ready" in web.log().split("ended")[-1], START, what="the replacement ready")
        assert answers(http)
    finally:
        web.kill()
