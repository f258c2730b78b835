"""The queue Redis behind Redis Sentinel (docs/api.md, "Operations"; docs/operations.md): its master is SIGKILLed
while people play against AI seats, and the AI turns resume after the failover, none lost, none played twice.

A master and a replica (AOF) carry RQ's queues; three Sentinels (quorum 2) watch them; ``burrow serve`` (web,
dispatcher and workers) reaches them as ``RQ_URL=redis+sentinel://…/queues/0`` and its event store on a Redis of
its own. After the kill the Sentinels promote the replica; every client of the process (the web's pokes, the
dispatcher's enqueues, the RQ workers' dequeues) asks them again and follows. An AI turn queued on the old master
and not yet replicated is not lost either: the dispatcher acknowledges a log entry only once its effect is visible,
so it enqueues the turn again on the new master.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
import redis

from services.store.connection import sentinel_parts
from services.store.streams import Keys
from tests.conftest import free_port
from tests.reliability.live import Players, Server, assert_acknowledged_present, wait_until, whole_feed
from tests.reliability.test_process_crashes import AOF, ENV, assert_converges

pytestmark = pytest.mark.slow
SERVICE = "queues"
GAMES = [[{"name": f"P{i}"}, {"name": f"Bot{i}", "ai": "easy"}] for i in range(4)]
RESUME_SECONDS = 30  # the bound: AI turns play again within this after the master dies


class SentinelProcess:
    """``redis-server --sentinel`` on a free loopback port, watching ``master_port`` as ``SERVICE``."""

    def __init__(self, master_port: int, quorum: int):
        self.dir = Path(tempfile.mkdtemp(prefix="burrow-sentinel-"))
        self.port = free_port()
        (self.dir / "sentinel.conf").write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {self.dir}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {master_port} {quorum}\n"
            f"sentinel down-after-milliseconds {SERVICE} 1000\n"
            f"sentinel failover-timeout {SERVICE} 5000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n")
        self.proc = subprocess.Popen(["redis-server", str(self.dir / "sentinel.conf"), "--sentinel"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def master_port(sentinel: SentinelProcess) -> int | None:
    try:
        return int(sentinel.client().sentinel_get_master_addr_by_name(SERVICE)[1])
    except (redis.RedisError, TypeError):
        return None


def test_ai_turns_follow_a_failover_of_the_queue_redis(redis_server, tmp_path, monkeypatch, capsys):
    store = redis_server(*AOF)
    master = redis_server(*AOF)
    replica = redis_server(*AOF, "--replicaof", "127.0.0.1", str(master.port))
    sentinels = [SentinelProcess(master.port, quorum=2) for _ in range(3)]
    server = players = None
    try:
        def watched() -> bool:
            try:
                info = sentinels[0].client().sentinel_master(SERVICE)
                return info["num-slaves"] >= 1 and info["num-other-sentinels"] >= 2
            except redis.RedisError:
                return False

        wait_until(watched, 30, what="the sentinels to see the replica and each other")
        rq_url = f"redis+sentinel://{','.join(f'127.0.0.1:{s.port}' for s in sentinels)}/{SERVICE}/0"
        assert sentinel_parts(rq_url)[1:3] == (SERVICE, 0)
        server = Server(tmp_path / "serve.log", redis_url=store.url, env={**ENV, "RQ_URL": rq_url}).start()
        http = server.http()
        games = []
        for players_of in GAMES:
            status, game = http.post("/api/games", {"game": "murus", "players": players_of})
            assert status == 201, game
            games.append(game)
        players = Players(server.port, games, seed=5).start()
        wait_until(lambda: players.count() >= 16, 60, what="play against the AI seats before the failover")
        assert redis.Redis(port=master.port).dbsize() > 0  # the queues live there

        master.kill()
        acked = players.count()
        wait_until(lambda: players.count() >= acked + 12, RESUME_SECONDS,
                   what="AI turns to resume after the queue Redis's master died")
        assert master_port(sentinels[0]) == replica.port, server.log()  # the replica is the master now
        players.finish()
        assert_acknowledged_present(http, players.acked)
        assert_converges(store.url, Keys(), [g["id"] for g in games], monkeypatch, capsys)  # no AI turn lost
        for game in games:  # and none played twice: the human and the AI seat alternate, move after move
            feed = whole_feed(http, game["id"], game["seats"][0]["token"])
            seats = [e["data"]["seat"] for _, e in sorted(feed.items()) if e["type"] == "moved"]
            assert seats and all(a != b for a, b in zip(seats, seats[1:])), (game["id"], seats)
    finally:
        if players is not None:
            players.stop.set()
        if server is not None:
            server.kill()
        for s in sentinels:
            s.kill()
