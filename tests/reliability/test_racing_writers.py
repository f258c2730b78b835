"""Racing writers through HTTP on a live ``burrow serve`` over a private redis-server.

32 clients send a command for the same version of one game: exactly one wins (200), every other gets 409 with the
current version; 16 clients re-send one ``command_id``: one append, and every client gets the first result.
"""

from __future__ import annotations

import threading
import uuid

import pytest
import redis

from services.store.streams import Keys
from tests.reliability.live import Server

CLIENTS = 32
RETRIERS = 16


@pytest.fixture
def live(private_redis, tmp_path):
    prefix = f"race{uuid.uuid4().hex[:6]}"
    server = Server(tmp_path / "serve.log", redis_url=private_redis.url, env={"BURROW_PREFIX": prefix}).start()
    yield server, redis.Redis.from_url(private_redis.url), Keys(prefix)
    server.kill()


def all_at_once(count: int, work) -> list:
    """Run ``work(i)`` in ``count`` threads released together; the answers in thread order."""
    barrier = threading.Barrier(count)
    answers: list = [None] * count

    def run(i: int) -> None:
        barrier.wait(timeout=30)
        answers[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    return answers


def new_game(http) -> dict:
    status, game = http.post("/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]})
    assert status == 201, game
    return game


def test_32_writers_on_one_version_one_wins_the_rest_get_409(live):
    server, client, keys = live
    http = server.http()
    game = new_game(http)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    version = game["version"]
    for _ in range(3):  # three versions in a row, each raced by the clients of the seat to act
        _, doc = http.get(f"/api/games/{gid}?min_version={version}", tokens[0])
        version = doc["version"]
        seat = doc["to_act"][0]
        _, mine = http.get(f"/api/games/{gid}?min_version={version}", tokens[seat])
        legal = mine["legal"]
        assert len(legal) > 1
        bodies = [{"move": legal[i % len(legal)], "expected_version": version} for i in range(CLIENTS)]
        answers = all_at_once(CLIENTS, lambda i, b=bodies, t=tokens[seat]: http.post(
            f"/api/games/{gid}/commands", b[i], t))
        won = [body for status, body in answers if status == 200]
        lost = [body for status, body in answers if status != 200]
        assert len(won) == 1, answers
        assert {status for status, _ in answers} == {200, 409}
        current = won[0]["version"]
        assert current == version + 1
        assert all(body["error"]["code"] == "conflict" and body["error"]["version"] == current for body in lost)
        assert client.xlen(keys.game(gid)) == current  # one append, no gap
        log = [int(f[b"v"]) for _, f in client.xrange(keys.log_of(gid)) if f[b"gid"].decode() == gid]
        assert log == list(range(1, current + 1))
        version = current


def test_16_retries_of_one_command_id_append_once(live):
    server, client, keys = live
    http = server.http()
    game = new_game(http)
    gid, token = game["id"], game["seats"][0]["token"]
    before = client.xlen(keys.game(gid))
    command_id = f"c-{uuid.uuid4().hex}"

    def retry(i: int):
        return http.post(f"/api/games/{gid}/commands", {"move": "a1-a3", "command_id": command_id}, token)

    answers = all_at_once(RETRIERS, retry)
    assert [status for status, _ in answers] == [200] * RETRIERS, [b for s, b in answers if s != 200]
    assert all(body == answers[0][1] for _, body in answers)
    assert client.xlen(keys.game(gid)) == before + 1
    assert answers[0][1]["version"] == before + 1
    # and once more, later, with a stale expected_version: still the first result (command id is judged first)
    status, again = http.post(f"/api/games/{gid}/commands",
                              {"move": "a1-a3", "command_id": command_id, "expected_version": before}, token)
    assert status == 200 and again == answers[0][1]
    assert client.xlen(keys.game(gid)) == before + 1
