"""Monotonic reads: a GET never answers an older version than the client has seen — with ``min_version`` from any
process, and without it from the process that applied the client's command (the projection may lag behind)."""

from __future__ import annotations

from tests.conftest import run_jobs

BODY = {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}


def started(client, runtime):
    created = client.post("/api/games", json=BODY).get_json()
    run_jobs(runtime)  # the projection is at version 1 from now on: nobody runs the jobs again here
    gid, token = created["id"], created["seats"][0]["token"]
    assert runtime.projector.checkpoint(gid) == created["version"] == 1
    return gid, {"Authorization": f"Bearer {token}"}


def test_a_get_without_min_version_never_goes_below_this_process_s_own_command(client, runtime):
    gid, auth = started(client, runtime)
    answer = client.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers=auth).get_json()
    assert answer["version"] == 2 and runtime.projector.checkpoint(gid) == 1  # the projection lags
    for headers in (auth, {}):  # the seat, and a spectator in the same process
        assert client.get(f"/api/games/{gid}", headers=headers).get_json()["version"] == 2


def test_min_version_is_read_your_writes_from_any_process(client, runtime):
    gid, auth = started(client, runtime)
    client.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers=auth)
    runtime.games._cache.clear()  # another web process: it has not seen version 2
    assert client.get(f"/api/games/{gid}", headers=auth).get_json()["version"] == 1  # the lagging projection
    assert client.get(f"/api/games/{gid}?min_version=2", headers=auth).get_json()["version"] == 2
