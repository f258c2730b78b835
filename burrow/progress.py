"""A small progress bar for long commands (stderr, no dependencies)."""

from __future__ import annotations

import sys
import time


class Progress:
    """``Progress("rebuilding", total)``; call ``update(done)``; ``close()`` ends the line."""

    def __init__(self, label: str, total: int, stream=None, width: int = 30):
        self.label, self.total, self.width = label, total, width
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self._last = 0.0

    def update(self, done: int, note: str = "") -> None:
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        fraction = done / self.total if self.total else 1.0
        filled = int(fraction * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = now - self.started
        eta = elapsed / fraction - elapsed if fraction > 0 else 0.0
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total} {elapsed:5.1f}s eta {eta:5.1f}s {note}")
        self.stream.flush()

    def close(self) -> None:
        self.update(self.total)
        self.stream.write("\n")
        self.stream.flush()
