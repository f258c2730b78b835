"""The embedded mode keeps games across a restart through its journal."""

from __future__ import annotations

from burrow.runtime import build
from services.config import Settings
from web.app import create_app


def embedded(tmp_path):
    return build(Settings(data_dir=str(tmp_path / "data")))


def test_games_and_tokens_survive_a_restart(tmp_path):
    first = embedded(tmp_path)
    g = first.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])
    token = g["seats"][1]["token"]
    first.service.command(g["id"], 0, "a1-a3")
    events_before = [(e.version, e.type, e.data, e.at) for e in first.store.read(g["id"])]

    second = embedded(tmp_path)  # a new process: an empty fakeredis filled from the journal
    assert second.loaded_games == 1
    assert [(e.version, e.type, e.data, e.at) for e in second.store.read(g["id"])] == events_before
    assert second.store.meta(g["id"]) == first.store.meta(g["id"])
    client = create_app(second).test_client()
    r = client.post(f"/api/games/{g['id']}/commands", json={"move": "a7-a5"},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json["version"] == 3

    third = embedded(tmp_path)
    assert third.store.version(g["id"]) == 3


def test_a_line_cut_short_by_a_crash_is_ignored(tmp_path):
    first = embedded(tmp_path)
    g = first.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])
    first.service.command(g["id"], 0, "a1-a3")
    path = tmp_path / "data" / f"{g['id']}.jsonl"
    path.write_text(path.read_text() + '{"version": 3, "type": "mo')  # the write a SIGKILL interrupted
    second = embedded(tmp_path)
    assert second.store.version(g["id"]) == 2
    second.service.command(g["id"], 1, "a7-a5")
    assert embedded(tmp_path).store.version(g["id"]) == 3
