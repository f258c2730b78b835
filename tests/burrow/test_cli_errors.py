"""Every ``burrow`` subcommand fed bad arguments: one line on stderr, no traceback, a non-zero exit.

Unknown games and ids, wrong seat counts, out-of-range and busy ports, missing files, bad settings, a Redis that
does not answer. ``test_every_subcommand_is_covered`` fails when a subcommand is added without a case here.
"""

from __future__ import annotations

import argparse
import socket

import pytest

from burrow import cli
from tests.conftest import free_port

CASES = [
    ([], "the following arguments are required"),
    (["fly"], "invalid choice: 'fly'"),
    (["serve", "--port", "99999"], "--port must be between 1 and 65535, not 99999"),
    (["serve", "--port", "0"], "--port must be between 1 and 65535"),
    (["serve", "--port", "eighty"], "invalid int value: 'eighty'"),
    (["serve", "--threads", "0"], "--threads, --workers and --processes must be at least 1"),
    (["serve", "--processes", "2"], "--processes needs --web-only"),
    (["worker"], "needs a real Redis"),
    (["worker", "--queue", "email"], "invalid choice: 'email'"),
    (["worker", "--redis", "redis://127.0.0.1:{dead}/0"], "cannot reach redis"),
    (["dispatch"], "needs a real Redis"),
    (["dispatch", "--redis", "nonsense"], "bad setting"),
    (["replay"], "the following arguments are required: gid"),
    (["replay", "nosuchgame"], "no game 'nosuchgame'"),
    (["replay", "nosuchgame", "--to", "last"], "invalid int value: 'last'"),
    (["rebuild", "--projection", "everything"], "invalid choice: 'everything'"),
    (["rebuild", "--partitions", "0"], "must be at least 1, not 0"),
    (["export", "nosuchgame"], "no game 'nosuchgame'"),
    (["import", "missing.jsonl"], "cannot read missing.jsonl"),
    (["import", "."], "cannot read ."),
    (["backup"], "the following arguments are required: -o/--output"),
    (["backup", "-o", "b.backup"], "needs a real Redis"),
    (["backup", "-o", "b.backup", "--redis", "redis://127.0.0.1:{dead}/0"], "cannot reach redis"),
    (["restore", "missing.backup", "--redis", "redis://127.0.0.1:{dead}/0"], "cannot read missing.backup"),
    (["restore", "missing.backup"], "needs a real Redis"),
    (["doctor"], "needs a real Redis"),
    (["doctor", "--redis", "redis://127.0.0.1:{dead}/0"], "cannot reach redis"),
    (["doctor", "--dead", "all"], "invalid int value: 'all'"),
    (["reports", "--count", "0"], "must be at least 1, not 0"),
    (["reports", "--redis", "redis://127.0.0.1:{dead}/0"], "cannot reach redis"),
    (["analyse", "nosuchgame"], "no game 'nosuchgame'"),
    (["analyse", "nosuchgame", "--budget", "0"], "--budget must be between 0 and 60"),
    (["selfplay", "chess"], "unknown game 'chess'"),
    (["selfplay", "murus", "--games", "2", "--ai", "easy"], "--ai: murus needs 2 AI levels, one per seat, not 1"),
    (["selfplay", "squirrels", "--ai", "easy,easy,easy,easy,easy"], "squirrels needs 2 to 4 AI levels"),
    (["selfplay", "murus", "--ai", "easy,genius"], "unknown AI level 'genius'"),
    (["selfplay", "murus", "--games", "0"], "--games and --jobs must be at least 1"),
    (["selfplay", "murus", "--ai-time", "-1"], "--ai-time must be between 0 and 60"),
    (["selfplay", "murus", "--options", '{"variant": "giant"}'], "--options: options.variant"),
    (["selfplay", "murus", "--options", "[1"], "invalid JSON"),
    (["perft", "chess"], "perft is available for murus"),
    (["perft", "murus", "--depth", "99"], "--depth must be between 0 and 8"),
    (["perft", "murus", "--variant", "giant"], "invalid choice: 'giant'"),
]


@pytest.fixture
def embedded(monkeypatch, tmp_path):
    """No Redis URL: the commands that take a store use an embedded one, journaled in a temporary directory."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("BURROW_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("argv, message", CASES, ids=[" ".join(a) or "(nothing)" for a, _ in CASES])
def test_bad_arguments_are_one_line_and_a_non_zero_exit(embedded, capsys, argv, message):
    dead = free_port()  # nothing listens there
    argv = [a.replace("{dead}", str(dead)) for a in argv]
    assert cli.main(argv) != 0
    out, err = capsys.readouterr()
    assert message in err and "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1, err


def test_serve_on_a_busy_port_is_one_line(embedded, capsys):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"burrow: cannot listen on 127.0.0.1:{port}: it is already in use"


def test_every_subcommand_is_covered():
    [sub] = [a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) <= {argv[0] for argv, _ in CASES if argv}
