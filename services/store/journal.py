"""The embedded mode's journal: every appended event, as export-format JSON lines, one file per game.

The in-process fakeredis forgets everything at exit; the journal is replayed into it at start-up so games survive
a restart. (With a real Redis, Redis itself is the durable store and there is no journal.)
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from pathlib import Path

from services.store.streams import ConcurrencyError, EventStore, StoredEvent
from services.store.transfer import append_exported, event_line, header_line, parse_lines

log = logging.getLogger(__name__)
SAFE_NAME = re.compile(r"[0-9A-Za-z_-]{1,64}")  # journal file names: the service's ids (and tests' short ones)


class JournaledEventStore(EventStore):
    """An event store that also appends each event to ``<directory>/<gid>.jsonl``."""

    def __init__(self, client, keys, directory: str | os.PathLike):
        super().__init__(client, keys)
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._seats: dict[str, dict[int, str]] = {}

    def set_seat_hashes(self, gid: str, hashes: dict[int, str]) -> None:
        super().set_seat_hashes(gid, hashes)
        path = self.directory / f"{gid}.jsonl"
        with self._lock:
            if not path.exists():
                self._seats[gid] = hashes  # written with the header, at the game's first append
                return
            # (An open seat taken later comes with its event, ``append(seats=...)``, on that event's line; this
            # path is for a caller setting hashes apart: they join the header's, in a file replaced whole.)
            lines = path.read_text(encoding="utf-8").split("\n")
            header = json.loads(lines[0])
            header["seats"] = {**header.get("seats", {}), **{str(s): h for s, h in hashes.items()}}
            lines[0] = json.dumps(header)
            partial = path.with_suffix(".jsonl.tmp")
            partial.write_text("\n".join(lines), encoding="utf-8")
            os.replace(partial, path)

    def append(self, gid, events, *, expected_version, command_id=None, result=b"", meta=None, at=None,
               seats=None):
        if not SAFE_NAME.fullmatch(gid):  # a journal file is named by the id: never a path, never two names
            raise ValueError(f"not a game id for a journal file name: {gid[:40]!r}")
        at = at if at is not None else int(time.time() * 1000)
        # One lock over the store's append and the file's: otherwise a later version of a game could reach the
        # file before an earlier one, and the journal would no longer load.
        with self._lock:
            outcome = super().append(gid, events, expected_version=expected_version, command_id=command_id,
                                     result=result, meta=meta, at=at, seats=seats)
            if not outcome.duplicate:
                first = outcome.version - len(events) + 1
                lines = []
                if meta is not None:
                    created = {str(s): h for s, h in self._seats.pop(gid, {}).items()}
                    lines.append(header_line(gid, json.loads(meta), seats=created))
                for i, (type_, data) in enumerate(events):
                    line = event_line(StoredEvent(first + i, type_, data, at))
                    if seats and i == 0:  # a seat these events take: its token hash on their line, one write
                        line = json.dumps({**json.loads(line), "seats": {str(s): h for s, h in seats.items()}})
                    lines.append(line)
                with open(self.directory / f"{gid}.jsonl", "a", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
                    f.flush()
        return outcome

    def load(self) -> int:
        """Replay every journal file into the store; returns the number of games loaded.

        A file that cannot be loaded (not named by its header's id, unreadable, inconsistent) is skipped and
        listed in ``self.skipped`` as ``(file name, reason)``: one bad file never stops the server."""
        count = 0
        self.skipped: list[tuple[str, str]] = []
        for path in sorted(self.directory.glob("*.jsonl")):
            try:
                text = path.read_text(encoding="utf-8")
                if text and not text.endswith("\n"):  # a write cut short by a crash: drop it before appending
                    text = text[: text.rfind("\n") + 1]
                    path.write_text(text, encoding="utf-8")
                header, events = parse_lines(text.splitlines())
                gid = header["id"]
                if not isinstance(gid, str) or not SAFE_NAME.fullmatch(gid) or gid != path.stem:
                    raise ValueError(f"its header's id {str(gid)[:40]!r} is not its file name")
                hashes = {int(s): h for s, h in header.get("seats", {}).items()}
                for item in events:  # seats taken after creation: on their seat_taken event's line
                    if isinstance(item.get("seats"), dict):
                        hashes.update({int(s): h for s, h in item["seats"].items()})
                EventStore.set_seat_hashes(self, gid, hashes)
                append_exported(_Unjournaled(self), gid, header["meta"], events, have=self.version(gid))
            except (OSError, ValueError, KeyError, TypeError, ConcurrencyError) as exc:
                self.skipped.append((path.name, f"{type(exc).__name__}: {exc}"))
                log.warning("journal: skipped %s (%s)", path.name, exc)
                continue
            count += 1
        return count


class _Unjournaled(EventStore):
    """A view of a journaled store that appends without journaling (used while loading the journal)."""

    def __init__(self, journaled: JournaledEventStore):
        vars(self).update(vars(journaled))  # the same client, keys, scripts and settings; EventStore's append


class AccountJournal:
    """The embedded mode's journal of accounts and sessions: every write of ``services/accounts/`` (an account's
    events with their claims, an account's seats and their tokens, sessions opened, seen and revoked) as one JSON
    line in ``<directory>/accounts/journal.jsonl``, replayed in order at start-up (``records``). Sessions expired
    by then are not brought back. (A subdirectory: the games' loader reads every ``*.jsonl`` of the directory.)"""

    def __init__(self, directory: str | os.PathLike, name: str = "accounts"):
        self.path = Path(directory) / name / "journal.jsonl"  # ``name``: "tournaments" keeps theirs the same way
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def write(self, record: dict) -> None:
        line = json.dumps(record, separators=(",", ":")) + "\n"
        with self._lock, open(self.path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()

    def records(self) -> list[dict]:
        """Every record written, oldest first; a line cut short by a crash (the last one) is dropped."""
        if not self.path.exists():
            return []
        out = []
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            try:
                record = json.loads(line)
            except ValueError:
                log.warning("account journal: line %s unreadable, skipped", number)
                continue
            if isinstance(record, dict):
                out.append(record)
        return out
