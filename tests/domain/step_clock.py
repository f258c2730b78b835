"""A fake clock for the AI tests: searches become iteration-bounded and repeatable."""

from __future__ import annotations


class StepClock:
    """A clock that advances ``step`` seconds per reading (``readings`` keeps them)."""

    def __init__(self, step: float = 0.001):
        self.now, self.step, self.readings = 0.0, step, []

    def __call__(self) -> float:
        self.now += self.step
        self.readings.append(self.now)
        return self.now
