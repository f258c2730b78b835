"""Every ``burrow`` command against a game with a corrupt event (issue #31): one line naming the game and the
version, exit 1, never a traceback; the other games are not concerned."""

from __future__ import annotations

import pytest

from burrow import cli
from tests.burrow.test_cli import a_game


def poison(rt, gid: str, data: bytes = b"\xc1 not msgpack", type_: str = "moved") -> int:
    """Append an event that cannot be read (not msgpack; or msgpack the game refuses) to the game."""
    return rt.store.append(gid, [(type_, data)], expected_version=None).version


def damaged(rt) -> tuple[str, int]:
    gid = a_game(rt)
    return gid, poison(rt, gid)


@pytest.mark.parametrize("argv", [
    ["replay", "{gid}"],
    ["replay", "{gid}", "--verify"],
    ["replay", "{gid}", "--to", "2", "--verify"],
    ["export", "{gid}"],
    ["export", "{gid}", "-o", "out.jsonl"],
])
def test_a_corrupt_event_is_one_line_naming_its_version(redis_env, capsys, argv):
    gid, version = damaged(redis_env)
    assert cli.main([a.replace("{gid}", gid) for a in argv]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1, err
    assert f"game {gid}" in err and f"version {version}" in err and "damaged" in err


def test_analyse_of_a_corrupt_game_is_one_line(redis_env, capsys):
    gid, version = damaged(redis_env)
    assert cli.main(["analyse", gid]) == 1  # a damaged game, as replay and export say it
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and len(err.strip().splitlines()) == 1 and f"version {version}" in err


def test_export_writes_nothing_for_a_corrupt_game(redis_env, tmp_path):
    gid, _ = damaged(redis_env)
    assert cli.main(["export", gid, "-o", str(tmp_path / "g.jsonl")]) == 1
    assert not (tmp_path / "g.jsonl").exists()


def test_a_refused_event_is_named_as_well(redis_env, capsys):
    """msgpack that decodes but that the rules refuse (a move of a seat that is not to move)."""
    import msgspec

    gid = a_game(redis_env)
    version = poison(redis_env, gid, msgspec.msgpack.encode({"type": "moved", "seat": 7}))
    assert cli.main(["replay", gid, "--verify"]) == 1
    err = capsys.readouterr().err
    assert f"version {version}" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_replay_before_the_corrupt_event_still_works(redis_env, capsys):
    gid, version = damaged(redis_env)
    assert cli.main(["replay", gid, "--to", str(version - 1)]) == 0
    assert f"at version {version - 1} of {version}" in capsys.readouterr().out


def test_the_other_commands_are_not_stopped_by_a_corrupt_game(redis_env, capsys):
    gid, _ = damaged(redis_env)
    good = a_game(redis_env)
    assert cli.main(["rebuild"]) == 1  # the damaged game skipped and named, the others rebuilt
    out, err = capsys.readouterr()
    assert f"skipped game {gid}" in err and good not in err and "Traceback" not in out + err
    assert cli.main(["replay", good, "--verify"]) == 0
    assert cli.main(["doctor"]) in (0, 1)
    assert "Traceback" not in "".join(capsys.readouterr())
