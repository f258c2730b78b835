"""Enqueueing work for the RQ workers. Jobs are named by dotted path: services never import workers."""

from __future__ import annotations

import rq

PROJECT = "workers.jobs.project"
PROJECT_GAME = "workers.jobs.project_game"
PROJECT_LOBBY = "workers.jobs.project_lobby"
AI_TURN = "workers.jobs.ai_turn"


class RQJobs:
    """The queue the command path and the dispatcher poke."""

    def __init__(self, queue: rq.Queue):
        self.queue = queue

    def project(self, gid: str) -> None:
        # One job brings every read model of the game up to date: half the queue traffic of one job per model.
        self.queue.enqueue(PROJECT, gid, result_ttl=0, failure_ttl=3600)

    def ai_turn(self, gid: str, seat: int, version: int) -> None:
        # The job id makes a re-enqueue of the same turn (dispatcher retry) visible; the job itself is idempotent.
        self.queue.enqueue(AI_TURN, gid, seat, version, job_id=f"ai-{gid}-{version}-{seat}", result_ttl=0,
                           failure_ttl=3600, retry=rq.Retry(max=3, interval=[1, 2, 5]), job_timeout=120)
