"""The benchmark scripts still run: each in ``--quick`` mode (tiny sizes), prints a table and exits 0; a script
that checks itself (replay's "same states", the engines' perft counts, the cluster drill's acknowledged commands)
exits non-zero when its check fails, and that fails its test here.

Timings are never asserted here (they live in ``bench/`` and ``docs/benchmarks.md``); this only keeps the scripts
from rotting as the code they measure changes. All of it is ``slow``: ``pytest -m "not slow"`` leaves it out.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = ["command_path.py", "replay.py", "projection_lag.py", "engines.py", "storage.py", "watchers.py",
           "fair_queues.py", "lobby_scale.py", "cluster.py", "clock_precision.py", "old_versions.py",
           "fair_analysis.py", "http_servers.py", "away_check.py"]


@pytest.fixture(scope="module", autouse=True)
def needs_redis_server():
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required in CI")
        pytest.skip("no redis-server on this machine")


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=BENCH.parent, capture_output=True, text=True, timeout=240,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def tables(text: str) -> list[str]:
    """The separator lines of the Markdown tables in ``text``."""
    return [line for line in text.splitlines() if line.startswith(("|-", "|:"))]


@pytest.mark.parametrize("script", SCRIPTS)
def test_bench_script_runs_quick_and_prints_a_table(script):
    out = run(str(BENCH / script), "--quick")
    assert out.startswith("## ") and "machine: " in out and f"python bench/{script} --quick" in out
    assert tables(out), out


@pytest.mark.parametrize("script", ["ai_speed.py", "ai_latency.py", "analysis.py", "calibrate.py",
                                    "murus_reference.py", "murus_http.py", "murus_speed.py"])
def test_ai_bench_script_runs_quick_and_prints_a_table(script):
    assert tables(run(str(BENCH / script), "--quick"))


def test_run_all_runs_a_chosen_script():
    out = run(str(BENCH / "run_all.py"), "--quick", "--only", "storage")
    assert "## Storage" in out and tables(out)


@pytest.fixture
def bench(monkeypatch):
    """A bench script imported as a module (``bench("replay")``), to run its ``main`` in this process."""
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module


def test_replay_exits_1_when_a_replayed_state_differs(bench, monkeypatch, capsys):
    replay = bench("replay")
    fold = replay.fold
    monkeypatch.setattr(replay, "fold", lambda module, encoded: ("another state", fold(module, encoded)))
    assert replay.main(["--quick", "--rebuild", "0"]) == 1
    out, err = capsys.readouterr()
    assert "| NO " in out and "the replayed states differ from the reference fold for murus" in err


def test_engines_exit_1_when_a_games_perft_disagrees_with_its_decider(bench, monkeypatch, capsys):
    engines = bench("engines")
    from domain import registry

    def game_type(name):
        wrong = replace(registry.game_type(name), perft=lambda state, depth: 7)
        return wrong if name == "murus" else registry.game_type(name)

    monkeypatch.setattr(engines, "game_type", game_type)
    assert engines.main(["--quick"]) == 1
    assert "differ for murus at depth 1, murus at depth 2" in capsys.readouterr().err


def test_the_cluster_drill_fails_on_an_acknowledged_command_lost_with_wait(bench):
    cluster = bench("cluster")
    row = ["ACK_REPLICAS=0", 3.0, 2.0, 2.5, "–", 1.0, 4, 1.2, 300, 2]  # without WAIT a failover may lose some
    assert cluster.drill_failures([row]) == []
    assert cluster.drill_failures([row, ["ACK_REPLICAS=1", *row[1:-1], 1]]) == [
        "1 acknowledged commands lost with BURROW_ACK_REPLICAS=1"]
    assert cluster.drill_failures([row, ["ACK_REPLICAS=1", *row[1:-1], 0]]) == []
