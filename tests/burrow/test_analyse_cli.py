"""``burrow analyse``: each move's chances and blunders, with a progress bar; bad input is one line."""

from __future__ import annotations

import pytest

from burrow import cli
from tests.domain.test_ai_analysis import BLUNDER_POSITION


def test_analyse_prints_each_move_with_chances_and_the_blunder(redis_env, capsys):
    gid = redis_env.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], position=BLUNDER_POSITION)["id"]
    redis_env.service.command(gid, 0, "e2-e4")
    assert cli.main(["analyse", gid]) == 2
    assert "still running" in capsys.readouterr().err
    redis_env.service.command(gid, 1, "d3-f1")
    assert cli.main(["analyse", gid, "--budget", "0.05"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert "Ana" in lines[0] and "Bob" in lines[0] and "best" in lines[0]
    assert "e2-e4" in lines[1] and "BLUNDER" in lines[1] and "was better" in lines[1]
    assert "d3-f1" in lines[2] and "BLUNDER" not in lines[2] and "100%" in lines[2]
    assert "2 moves, 1 blunder" in lines[-1]
    assert "analysing" in captured.err and "2/2" in captured.err  # the progress bar
    assert cli.main(["analyse", gid, "--budget", "0.05"]) == 0  # done already: printed again, nothing redone
    assert capsys.readouterr().out == captured.out


@pytest.mark.parametrize("argv, message", [
    (["analyse", "nosuchgame"], "no game"),
    (["analyse", "x", "--budget", "0"], "--budget"),
])
def test_analyse_bad_input_is_one_line(redis_env, capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
