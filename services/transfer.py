"""A game's events as JSON lines (``burrow export``), and back (``burrow import``); also the journal's format.

Line 1 is a header ``{"burrow": 1, "id": gid, "meta": {...}}``; each further line one event
``{"version": v, "type": t, "data": {...}, "at": ms}`` with the full, unredacted event data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

import msgspec

from services.store import EventStore, StoredEvent

FORMAT = 1


def header_line(gid: str, meta: dict, **extra) -> str:
    return json.dumps({"burrow": FORMAT, "id": gid, "meta": meta, **extra})


def event_line(item: StoredEvent) -> str:
    data = msgspec.msgpack.decode(item.data)
    return json.dumps({"version": item.version, "type": item.type, "data": data, "at": item.at})


def export_lines(store: EventStore, gid: str) -> Iterator[str]:
    """The export of one game, line by line; ``KeyError`` if there is no such game."""
    meta = store.meta(gid)
    if meta is None:
        raise KeyError(gid)
    yield header_line(gid, meta)
    for item in store.read(gid):
        yield event_line(item)


def parse_lines(lines: Iterable[str]) -> tuple[dict, list[dict]]:
    """The header and the events of an export; ``ValueError`` naming the line on bad input."""
    header, events = None, []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {n}: not JSON ({exc.msg})") from exc
        if header is None:
            if not isinstance(item, dict) or item.get("burrow") != FORMAT or "meta" not in item:
                raise ValueError("line 1: not a Burrow export header")
            header = item
            continue
        if not isinstance(item, dict) or {"version", "type", "data"} - set(item):
            raise ValueError(f"line {n}: an event needs version, type and data")
        if item["version"] != len(events) + 1:
            raise ValueError(f"line {n}: expected version {len(events) + 1}, found {item['version']}")
        events.append(item)
    if header is None:
        raise ValueError("empty file")
    if not events:
        raise ValueError("the export holds no events")
    return header, events


def append_exported(store: EventStore, gid: str, meta: dict, events: list[dict], have: int = 0) -> int:
    """Append exported events after version ``have`` (all of them for a new game); returns the new version."""
    version = have
    batch: list[tuple[str, bytes]] = []
    batch_at = None
    for item in events[have:]:
        at = item.get("at")
        if batch and (at != batch_at or len(batch) == 500):  # one append per commit time keeps each "at"
            version = _flush(store, gid, meta, batch, version, batch_at)
            batch = []
        batch.append((item["type"], msgspec.msgpack.encode(item["data"])))
        batch_at = at
    if batch:
        version = _flush(store, gid, meta, batch, version, batch_at)
    return version


def _flush(store: EventStore, gid: str, meta: dict, batch, version: int, at) -> int:
    result = store.append(gid, batch, expected_version=version,
                          meta=json.dumps({**meta, "id": gid}).encode() if version == 0 else None, at=at)
    return result.version
