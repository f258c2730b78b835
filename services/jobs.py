"""Enqueueing work for the RQ workers. Jobs are named by dotted path: services never import workers."""

from __future__ import annotations

import rq

PROJECT_GAME = "workers.jobs.project_game"
PROJECT_LOBBY = "workers.jobs.project_lobby"
AI_TURN = "workers.jobs.ai_turn"


class RQJobs:
    """The queue the command path and the dispatcher poke."""

    def __init__(self, queue: rq.Queue):
        self.queue = queue

    def project(self, gid: str) -> None:
        # Both jobs in one pipeline: one round trip instead of four (two enqueues) on the command path.
        self.queue.enqueue_many([rq.Queue.prepare_data(PROJECT_GAME, (gid,), result_ttl=0, failure_ttl=3600),
                                 rq.Queue.prepare_data(PROJECT_LOBBY, (gid,), result_ttl=0, failure_ttl=3600)])

    def ai_turn(self, gid: str, seat: int, version: int) -> None:
        # The job id makes a re-enqueue of the same turn (dispatcher retry) visible; the job itself is idempotent.
        self.queue.enqueue(AI_TURN, gid, seat, version, job_id=f"ai-{gid}-{version}-{seat}", result_ttl=0,
                           failure_ttl=3600, retry=rq.Retry(max=3, interval=[1, 2, 5]), job_timeout=120)
