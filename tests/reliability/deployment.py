"""A whole deployment started by a test: a Redis Cluster with replicas, RQ on a plain redis-server, web processes
(``burrow serve --web-only``), workers and dispatchers, each a process of its own on loopback ports.

Every process is in its own process group and is killed by whoever started it (``Deployment.stop``,
``Cluster.stop``); Redis data lives in private temp dirs. ``bench/cluster.py`` uses the same pieces.
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

import redis

from tests.conftest import RedisProcess, free_port
from tests.reliability.live import START_SECONDS, Burrow, Http


def cluster_ports(count: int) -> list[int]:
    """Free loopback ports whose cluster bus port (port + 10000) is free too."""
    rng = random.Random()
    ports: list[int] = []
    for _ in range(1000):
        port = rng.randrange(20000, 40000)
        if port in ports or port + 10000 in ports or port - 10000 in ports:
            continue
        try:
            for candidate in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        ports.append(port)
        if len(ports) == count:
            return ports
    raise RuntimeError("no free ports for a cluster")


class Cluster:
    """``masters`` cluster-enabled redis-servers and ``replicas`` replicas of each, joined with
    ``redis-cli --cluster create``. No persistence: a master's copy is its replica."""

    def __init__(self, masters: int = 3, replicas: int = 1, node_timeout_ms: int = 2000):
        self.masters_wanted = masters
        self.replicas = replicas
        self.nodes = [RedisProcess("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                                   "--cluster-node-timeout", str(node_timeout_ms), "--appendonly", "no",
                                   # a shard failing over stops only its own slots, not the whole cluster
                                   "--cluster-require-full-coverage", "no")
                      for _ in range(masters * (1 + replicas))]
        for node, port in zip(self.nodes, cluster_ports(len(self.nodes))):
            node.port = port

    def start(self) -> Cluster:
        try:
            for node in self.nodes:
                node.start()
            addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
            subprocess.run(["redis-cli", "--cluster", "create", *addresses, "--cluster-replicas",
                            str(self.replicas), "--cluster-yes"], check=True, capture_output=True, timeout=60)
            self.wait_healthy()
        except BaseException:
            self.stop()
            raise
        return self

    def wait_healthy(self, seconds: float = 60) -> None:
        """Every live node sees the cluster ok, every slot has a master, every master its replicas in sync."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self._healthy():
                return
            time.sleep(0.1)
        raise RuntimeError("the cluster did not become healthy")

    def _healthy(self) -> bool:
        try:
            for node in self.alive():
                client = redis.Redis(port=node.port)
                if b"cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                    return False
                info = client.info("replication")
                if info["role"] == "slave" and info.get("master_link_status") != "up":
                    return False
                if info["role"] == "master" and info["connected_slaves"] < self.replicas:
                    return False
            return len(self.masters()) == self.masters_wanted
        except redis.RedisError:
            return False

    def alive(self) -> list[RedisProcess]:
        return [n for n in self.nodes if n.proc is not None and n.proc.poll() is None]

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.alive()[0].port}/0"

    def masters(self) -> dict[int, RedisProcess]:
        """Port → node of every live node that is a master with slots."""
        by_port = {n.port: n for n in self.alive()}
        raw = redis.Redis(port=self.alive()[0].port).execute_command("CLUSTER", "NODES")
        text = raw.decode() if isinstance(raw, bytes) else raw
        masters = {}
        for line in text.splitlines():
            fields = line.split()
            port = int(fields[1].split("@")[0].rsplit(":", 1)[1])
            if "master" in fields[2] and "fail" not in fields[2] and len(fields) > 8 and port in by_port:
                masters[port] = by_port[port]
        return masters

    def node_of(self, key: str) -> RedisProcess:
        """The node that is master of ``key``'s slot now."""
        client = redis.Redis(port=self.alive()[0].port)
        slot = client.execute_command("CLUSTER", "KEYSLOT", key)
        for start, end, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
            if start <= slot <= end:
                return next(n for n in self.nodes if n.port == int(master[1]))
        raise RuntimeError(f"no master for slot {slot}")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class Web(Burrow):
    """One production web process: ``burrow serve --web-only`` on a free loopback port."""

    def __init__(self, log_path: Path, env: dict[str, str]):
        self.port = free_port()
        super().__init__(["serve", "--web-only", "--host", "127.0.0.1", "--port", str(self.port)], log_path, env)

    def http(self) -> Http:
        return Http(self.port)

    def start(self) -> Web:
        super().start()
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"the web process exited early:\n{self.log()}")
            try:
                if Http(self.port, timeout=5).get("/api/health")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the web process did not answer within {START_SECONDS}s:\n{self.log()}")


class Deployment:
    """Web processes, workers and dispatchers against ``cluster`` (the store) and a plain redis-server (RQ)."""

    def __init__(self, directory: Path, cluster: Cluster, partitions: int = 8, env: dict[str, str] | None = None):
        self.directory = directory
        self.cluster = cluster
        self.queues = RedisProcess().start()
        self.prefix = f"d{uuid.uuid4().hex[:8]}"
        self.partitions = partitions
        self.env = {"REDIS_URL": cluster.url, "RQ_URL": self.queues.url, "BURROW_PREFIX": self.prefix,
                    "BURROW_QUEUES": self.prefix, "BURROW_PARTITIONS": str(partitions), "BURROW_AI_TIME": "0.05",
                    "BURROW_AI_PER_CLIENT": "0", "BURROW_CREATE_RATE": "0", "BURROW_OPEN_GAMES": "0",
                    "BURROW_CLAIM_IDLE_MS": "500", "BURROW_RETRY_MS": "200", **(env or {})}
        self.webs: list[Web] = []
        self.workers: list[Burrow] = []
        self.dispatchers: list[Burrow] = []
        self._count = 0

    def _log(self, name: str) -> Path:
        self._count += 1
        return self.directory / f"{self._count:02d}-{name}.log"

    def start(self, webs: int = 2, workers: int = 2, dispatchers: int = 2) -> Deployment:
        try:
            for _ in range(workers):
                self.add_worker()
            for _ in range(dispatchers):
                self.add_dispatcher()
            for _ in range(webs):
                self.add_web()
        except BaseException:
            self.stop()
            raise
        return self

    def add_web(self, **env: str) -> Web:
        web = Web(self._log("web"), {**self.env, **env}).start()
        self.webs.append(web)
        return web

    def add_worker(self) -> Burrow:
        worker = Burrow(["worker"], self._log("worker"), self.env).start()  # every queue: project, ai, analysis
        self.workers.append(worker)
        return worker

    def add_dispatcher(self) -> Burrow:
        dispatcher = Burrow(["dispatch"], self._log("dispatch"), self.env).start()
        self.dispatchers.append(dispatcher)
        return dispatcher

    def logs(self) -> str:
        return "\n".join(f"== {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                         for p in sorted(self.directory.glob("*.log")))

    def stop(self) -> None:
        for process in [*self.webs, *self.workers, *self.dispatchers]:
            process.kill()
        self.queues.stop()


def lost_acknowledged(http: Http, acked: list[tuple[str, str, dict]]) -> list[tuple[str, int]]:
    """(gid, version) of every acknowledged event not in its game: each answered version must be there with the
    same type and commit time. (Not the whole event: a game finished since shows its events unredacted, so an
    answer given while it ran may differ from the feed now in what it hid.)"""
    feeds: dict[tuple[str, str], dict[int, tuple]] = {}
    lost = []
    for gid, token, answer in acked:
        if (gid, token) not in feeds:
            feed: dict[int, tuple] = {}
            while True:  # the feed comes in pages (1,000 events)
                status, body = http.get(f"/api/games/{gid}/events?after={max(feed, default=0)}", token)
                assert status == 200, body
                feed.update((e["version"], (e["type"], e["at"])) for e in body["events"])
                if not body["events"]:
                    break
            feeds[gid, token] = feed
        for event in answer["events"]:
            if feeds[gid, token].get(event["version"]) != (event["type"], event["at"]):
                lost.append((gid, event["version"]))
    return lost


def have_cluster_tools() -> bool:
    return shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None
