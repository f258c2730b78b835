"""Hostile imports and rebuilds: ids that are paths, taken or malformed; a poisoned game in a rebuild."""

from __future__ import annotations

import json

import pytest

from burrow import cli
from burrow.runtime import build
from services.bounds import is_game_id
from services.config import Settings
from services.store.journal import JournaledEventStore
from services.store.streams import Keys
from services.store.transfer import export_lines


@pytest.fixture
def embedded(monkeypatch, tmp_path):
    """``burrow`` commands on an embedded store journaled to ``tmp_path/data`` (each command a fresh process)."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"

    def run(*args: str) -> int:
        return cli.main([args[0], "--data", str(data), *args[1:]])

    def runtime():
        return build(Settings(data_dir=str(data)))

    return run, runtime, data


def exported(runtime, path, gid_in_header) -> str:
    """Export a played game of ``runtime`` to ``path`` with its header's id replaced."""
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])
    runtime.service.command(g["id"], 0, "a1-a3")
    lines = list(export_lines(runtime.store, g["id"]))
    header = json.loads(lines[0])
    header["id"] = gid_in_header
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return g["id"]


@pytest.mark.parametrize("hostile", ["../escaped", "./{existing}", "a:b", "{existing}", "*"])
def test_an_import_never_writes_outside_the_data_directory_nor_into_a_game(embedded, tmp_path, capsys, hostile):
    run, runtime, data = embedded
    rt = runtime()
    existing = exported(rt, tmp_path / "g.jsonl", "x")
    before = (data / f"{existing}.jsonl").read_text()
    exported(rt, tmp_path / "hostile.jsonl", hostile.format(existing=existing))
    capsys.readouterr()
    assert run("import", str(tmp_path / "hostile.jsonl")) == 0
    out = capsys.readouterr()
    gid = out.out.split()[2]
    assert is_game_id(gid) and gid != existing and "importing as" in out.err
    assert (data / f"{existing}.jsonl").read_text() == before  # the existing game untouched
    assert not (tmp_path / "escaped.jsonl").exists()
    assert {p.parent for p in tmp_path.rglob("*.jsonl")} == {tmp_path, data}  # the two exports, the journal
    assert run("replay", existing) == 0 and run("replay", gid) == 0  # and the server still starts


def test_an_integer_id_is_one_line_not_a_traceback(embedded, tmp_path, capsys):
    run, runtime, _ = embedded
    exported(runtime(), tmp_path / "int.jsonl", 12345)
    capsys.readouterr()
    assert run("import", str(tmp_path / "int.jsonl")) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_journal_refuses_file_names_that_are_not_ids_and_skips_foreign_files(tmp_path, capsys):
    import fakeredis

    store = JournaledEventStore(fakeredis.FakeRedis(), Keys("j"), tmp_path)
    with pytest.raises(ValueError, match="not a game id"):
        store.append("../escaped", [("e", b"\x80")], expected_version=0, meta=b"{}")
    assert not (tmp_path.parent / "escaped.jsonl").exists()
    (tmp_path / "abc.jsonl").write_text(json.dumps({"burrow": 1, "id": "../x", "meta": {}}) + "\n"
                                        + json.dumps({"version": 1, "type": "t", "data": {}}) + "\n")
    fresh = JournaledEventStore(fakeredis.FakeRedis(), Keys("j"), tmp_path)
    assert fresh.load() == 0 and fresh.skipped[0][0] == "abc.jsonl"


def test_a_game_in_a_url_has_the_services_form(client):
    for path in ("/api/games/..%2F..%2Fetc", "/api/games/*", "/api/games/a:b/events", "/api/games/ABCDEF012345"):
        r = client.get(path)
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found", path


def test_rebuild_switches_only_when_done_and_reports_a_poisoned_game(embedded, capsys):
    run, runtime, _ = embedded
    rt = runtime()
    good = [rt.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])["id"] for _ in range(3)]
    for gid in good:
        rt.projector.project_game(gid)
        rt.projector.project_lobby(gid)
    poisoned = good[1]
    rt.redis.xadd(rt.store.keys.game(poisoned), {"type": b"moved", "data": b"\xc1 garbage"}, id="0-99")
    fresh = rt.games.__class__(rt.store)  # no cached state: the poisoned stream is read again
    rt.projector.games = fresh
    rt.ratings.games = fresh
    assert rt.projector.rebuild() == 2
    assert [gid for gid, _ in rt.projector.failures] == [poisoned]
    lobby = {line["id"] for line in rt.projector.lobby()}
    assert lobby == set(good) - {poisoned}  # switched over after every game was tried; the others are all there
    assert rt.projector.read(poisoned, None) is not None  # its old view stays
    assert not list(rt.redis.scan_iter(match="*:rebuilding*"))
