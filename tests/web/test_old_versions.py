"""Reads of a game at an old version (``?version=N``) are bounded per client (issue #31: 40 at once from one
address made another client's plain read wait 11 s): at most ``old_reads_per_client`` under way at once, 429
beyond, over every web process; each folds at most a snapshot interval (``tests/services/test_snapshots.py``)."""

from __future__ import annotations

import contextlib
import time

from services.clients import client_id
from services.reads import limits
from services.reads.limits import ExpensiveReads

ANA = "198.51.100.20"


def a_game(client) -> str:
    g = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    gid, token = g.get_json()["id"], g.get_json()["seats"][0]["token"]
    client.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers={"Authorization": f"Bearer {token}"})
    return gid


def read(client, gid: str, address: str, version: int = 1):
    return client.get(f"/api/games/{gid}?version={version}", environ_base={"REMOTE_ADDR": address})


def test_a_client_at_its_cap_of_old_reads_gets_429_and_the_others_do_not(client, runtime):
    gid = a_game(client)
    assert runtime.settings.old_reads_per_client == 2
    held = ExpensiveReads(runtime.store, runtime.settings.old_reads_per_client)  # another process's reads
    with contextlib.ExitStack() as stack:
        stack.enter_context(held.one(ANA))
        assert read(client, gid, ANA).status_code == 200  # one place left
        stack.enter_context(held.one(ANA))
        refused = read(client, gid, ANA)
        assert refused.status_code == 429
        error = refused.get_json()["error"]
        assert error["code"] == "too_many" and "old versions" in error["message"] and error["retry_after"] == 1
        assert read(client, gid, "198.51.100.21").status_code == 200  # another client
        assert client.get(f"/api/games/{gid}", environ_base={"REMOTE_ADDR": ANA}).status_code == 200  # not old
    assert read(client, gid, ANA).status_code == 200  # the places are given back
    assert runtime.redis.zcard(runtime.store.keys.client_reads(client_id(ANA))) == 0


def test_the_leases_of_a_dead_process_lapse(client, runtime, monkeypatch):
    gid = a_game(client)
    monkeypatch.setattr(limits, "LEASE_MS", 1)
    held = ExpensiveReads(runtime.store, 2)
    for _ in range(2):  # taken and never given back: the process died mid-read
        held.one(ANA).__enter__()
    time.sleep(0.01)
    monkeypatch.setattr(limits, "LEASE_MS", 30_000)
    assert read(client, gid, ANA).status_code == 200
