"""The benchmark scripts still run: each in ``--quick`` mode (tiny sizes), and each prints a table.

Timings are never asserted here (they live in ``bench/`` and ``docs/benchmarks.md``); this only keeps the scripts
from rotting as the code they measure changes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = ["command_path.py", "replay.py", "projection_lag.py", "engines.py", "storage.py", "watchers.py",
           "fair_queues.py", "lobby_scale.py", "cluster.py", "clock_precision.py"]


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
                                    "murus_reference.py"])
def test_ai_bench_script_runs_quick_and_prints_a_table(script):
    assert tables(run(str(BENCH / script), "--quick"))


def test_run_all_runs_a_chosen_script():
    out = run(str(BENCH / "run_all.py"), "--quick", "--only", "storage")
    assert "## Storage" in out and tables(out)
