"""The ``burrow`` command line: replay, verify, rebuild, export/import, perft, selfplay, errors."""

from __future__ import annotations

import json

import pytest

from burrow import cli


def a_game(rt, moves=("a1-a3", "a7-a5", "b1-b3")):
    g = rt.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}])
    for i, move in enumerate(moves):
        rt.service.command(g["id"], i % 2, move)
    return g["id"]


def test_replay_prints_board_and_verify_detects_drift(redis_env, capsys):
    gid = a_game(redis_env)
    assert cli.main(["replay", gid, "--verify"]) == 1  # nothing projected yet
    assert cli.main(["rebuild"]) == 0
    capsys.readouterr()
    assert cli.main(["replay", gid, "--verify"]) == 0
    out = capsys.readouterr().out
    assert "version 4 of 4" in out and "verify: OK" in out
    assert cli.main(["replay", gid, "--to", "2"]) == 0
    assert "version 2 of 4" in capsys.readouterr().out
    redis_env.service.command(gid, 1, "h7-h5")  # the projection is now behind
    assert cli.main(["replay", gid, "--verify"]) == 1
    assert "DIFFERENT" in capsys.readouterr().out


def test_export_import_round_trip(redis_env, tmp_path, capsys):
    gid = a_game(redis_env)
    assert cli.main(["export", gid, "-o", str(tmp_path / "g.jsonl")]) == 0
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["id"] == gid and len(lines) == 5
    assert cli.main(["import", str(tmp_path / "g.jsonl")]) == 0
    out = capsys.readouterr().out
    new_gid = out.split()[2]
    assert new_gid != gid and "token" in out
    assert [e.data for e in redis_env.store.read(new_gid)] == [e.data for e in redis_env.store.read(gid)]


@pytest.mark.parametrize("argv, message", [
    (["replay", "nosuchgame"], "no game"),
    (["export", "nosuchgame"], "no game"),
    (["import", "missing.jsonl"], "cannot read"),
    (["selfplay", "chess"], "unknown game"),
    (["selfplay", "murus", "--ai", "easy,genius"], "unknown AI level"),
    (["perft", "chess"], "perft is available for murus"),
])
def test_user_mistakes_are_one_line_errors(redis_env, capsys, argv, message):
    assert cli.main(argv) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_import_rejects_a_bad_file(redis_env, tmp_path, capsys):
    (tmp_path / "bad.jsonl").write_text('{"burrow": 1, "meta": {}}\n{"version": 2}\n')
    assert cli.main(["import", str(tmp_path / "bad.jsonl")]) == 1
    assert "line 2" in capsys.readouterr().err


def test_perft_counts(capsys):
    assert cli.main(["perft", "murus", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "6,960" in out and "400" in out


def test_selfplay_prints_a_results_table(capsys):
    assert cli.main(["selfplay", "murus", "--games", "2", "--ai", "easy,easy", "--ai-time", "0.01",
                     "--options", '{"max_plies": 40}']) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "easy" in out


def test_reports_lists_the_reported_chat_messages_with_their_context(tmp_path, capsys, monkeypatch):
    from burrow.runtime import build
    from services.config import Settings

    monkeypatch.setenv("BURROW_DATA", str(tmp_path))
    rt = build(Settings(data_dir=str(tmp_path)), journal=False)
    gid = rt.service.create("murus", [{"name": "Ann"}, {"name": "Ben"}])["id"]
    rt.people.chat.post(gid, "players", "Ann", "a", "hello")
    bad = rt.people.chat.post(gid, "players", "Ben", "b", "something rude")
    rt.people.chat.report(gid, "players", bad["id"], "Ann", "a")
    import burrow.cli

    monkeypatch.setattr(burrow.cli, "_runtime", lambda args, journal=None: rt)
    assert burrow.cli.main(["reports"]) == 0
    out = capsys.readouterr().out
    assert "reported by Ann" in out and "    Ann: hello" in out and "  > Ben: something rude" in out
    assert burrow.cli.main(["reports"]) == 0  # read once: the next run lists only new ones
    assert "0 report(s)" in capsys.readouterr().out
