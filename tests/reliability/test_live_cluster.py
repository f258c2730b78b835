"""The live-update hub on a three-node Redis Cluster with 8 partitions: one reader per partition log, every
partition's games reach their watchers (the logs live on different nodes)."""

from __future__ import annotations

import pytest

from services.live import hub as live
from tests.reliability.test_cluster import cluster, cluster_runtime  # noqa: F401 - fixtures
from tests.services.test_live import Reader, new_game, play

pytestmark = pytest.mark.slow  # a Redis Cluster started here: the full run's


def test_every_partition_reaches_its_watchers_on_a_cluster(cluster_runtime):  # noqa: F811
    rt = cluster_runtime
    hub = live.Hub(rt.games, rt.store.keys, rt.redis, per_client=None)
    try:
        games = [new_game(rt)[0] for _ in range(12)]
        while len({rt.store.keys.partition(gid) for gid in games}) < 4:  # ids are random: no counting on luck
            games.append(new_game(rt)[0])
        readers = {gid: Reader(hub, gid, after=rt.store.version(gid)) for gid in games}
        assert hub.running() == 8  # one reader per partition log
        for gid, reader in readers.items():
            start = rt.store.version(gid)
            last = play(rt, gid, 2)
            assert reader.until(last) == list(range(start + 1, last + 1))
    finally:
        hub.stop()
