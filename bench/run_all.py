"""The whole benchmark suite, one script after another, each in a process of its own (under 10 minutes; --quick:
a smoke run of about 15 seconds).

    python bench/run_all.py [--quick] [--only command_path,replay] [-o results.md]

Every script prints Markdown tables headed by the command that produced them and the machine they ran on;
``-o`` also writes everything to a file. ``docs/benchmarks.md`` holds the results of a full run with commentary.
The machine is small and shared: run the full suite when nothing else is running, and read ratios (measured in
one run, side by side) rather than absolute figures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import harness

HERE = Path(__file__).resolve().parent

SUITE = [
    # (script, arguments of a full run, arguments of a quick run)
    ("command_path.py", [], ["--quick"]),
    ("replay.py", [], ["--quick"]),
    ("projection_lag.py", [], ["--quick"]),
    ("engines.py", [], ["--quick"]),
    ("storage.py", [], ["--quick"]),
    ("perft_murus.py", ["--depth", "5"], ["--depth", "3"]),
    ("ai_speed.py", [], ["--quick"]),
    ("ai_latency.py", ["--ai-time", "0.25"], ["--quick"]),
    ("analysis.py", [], ["--quick"]),
    ("fair_queues.py", [], ["--quick"]),
    ("lobby_scale.py", [], ["--quick"]),
    ("watchers.py", [], ["--quick"]),
    ("cluster.py", [], ["--quick"]),
    ("clock_precision.py", [], ["--quick"]),
    ("http_servers.py", [], ["--quick"]),
]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run")
    p.add_argument("--only", help="comma-separated script names (without .py) to run")
    p.add_argument("-o", "--output", help="also write the tables to this file")
    args = p.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else None
    out = []
    failed = []
    started = time.monotonic()
    for script, full, quick in SUITE:
        if wanted is not None and script.removesuffix(".py") not in wanted:
            continue
        command = [sys.executable, str(HERE / script), *(quick if args.quick else full)]
        print(f"<!-- {script}: running -->", flush=True)
        t = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)
        took = time.monotonic() - t
        text = done.stdout
        if script == "perft_murus.py":  # not ours: give its table the same heading as the others
            text = (f"## Murus perft: bitboards vs a naive generator (bench/perft_murus.py)\n\n"
                    f"command: `python bench/{script} {' '.join(full if not args.quick else quick)}`  \n"
                    f"{harness.machine_line()}\n\n```\n{text}```\n")
        print(text, flush=True)
        print(f"<!-- {script}: {took:.1f} s, exit {done.returncode} -->\n", flush=True)
        out.append(text)
        if done.returncode != 0:
            failed.append(script)
            print(done.stderr[-3000:], file=sys.stderr, flush=True)
    total = time.monotonic() - started
    print(f"<!-- whole suite: {total:.0f} s -->")
    if args.output:
        Path(args.output).write_text("\n".join(out), encoding="utf-8")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
