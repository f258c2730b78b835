"""Sabotage for the crash tests: run a ``burrow`` command that hangs at a chosen point, to be SIGKILLed there.

``python -m tests.reliability.hooks <point> <marker-file> <burrow arguments…>``; the marker file appears when the
process reaches the point:

``projection``  inside ``Projector.project_many`` (a projection job's batch), after reading the games and before
                writing their views
``dispatch``    inside a dispatcher batch, after reading log entries and before enqueueing or acknowledging
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HANG_SECONDS = 300  # the test kills us long before


def hang(marker: str) -> None:
    Path(marker).touch()
    time.sleep(HANG_SECONDS)


def main(argv: list[str]) -> int:
    point, marker, *args = argv
    if point == "projection":
        from services.reads.projections import Projector

        def stuck(self, gids: list[str]) -> dict:
            self.games.load_many(gids)
            hang(marker)
            raise SystemExit("unreachable")

        Projector.project_many = stuck
    elif point == "dispatch":
        from services.jobs.queues import RQJobs

        RQJobs.project_many = lambda self, gids: hang(marker)
    else:
        raise SystemExit(f"unknown point {point!r}")
    from burrow.cli import main as burrow

    return burrow(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
