"""A game's events as JSON lines (``burrow export``), and back (``burrow import``); also the journal's format.

Line 1 is a header ``{"burrow": 1, "id": gid, "meta": {...}}``; each further line one event
``{"version": v, "type": t, "data": {...}, "at": ms}`` with the full, unredacted event data.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from domain.ai import LEVELS
from domain.base import BadEvent, BadSetup, check_options, event_type
from domain.registry import GAME_NAMES
from domain.table import table_of
from services import bounds, errors
from services.config import Limits
from services.store import codec
from services.store.streams import EventStore, StoredEvent

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


def validate(header: dict, events: list[dict], limits: Limits) -> Any:
    """Check an export before anything of it is appended; returns the game's state after its last event.

    The header's game, players (count within the game's seats and ``limits.players``, names, AI levels) and
    the options of its first event; then every event, decoded with the game's schema and folded through
    ``evolve`` with its consistency checks. ``ValueError`` with one line naming the first problem.
    """
    if not isinstance(header.get("id"), str):
        raise ValueError("header: id must be a game id")
    meta = header.get("meta")
    if not isinstance(meta, dict):
        raise ValueError("header: meta must be an object")
    name = meta.get("game")
    if name not in GAME_NAMES:
        raise ValueError(f"header: unknown game {name!r} (known: {', '.join(GAME_NAMES)})")
    module = table_of(name)
    players = meta.get("players")
    if not isinstance(players, list):
        raise ValueError("header: players must be a list of players")
    low, high = module.SEATS
    high = min(high, limits.players)
    if not low <= len(players) <= high:
        raise ValueError(f"header: {name} takes {low}" + (f" to {high}" if high > low else "")
                         + f" players, not {len(players)}")
    for i, player in enumerate(players):
        _check_player(i, player, limits.name_length)
    state = None
    for item in events:
        where = f"version {item['version']} ({item['type']!r})"
        if not isinstance(item["type"], str) or not isinstance(item["data"], dict):
            raise ValueError(f"{where}: type must be a string and data an object")
        at = item.get("at", 0)
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise ValueError(f"{where}: at must be a time in milliseconds, not {at!r}")
        if item["data"].get("type", item["type"]) != item["type"]:
            raise ValueError(f"{where}: the data says it is a {item['data']['type']!r} event")
        try:
            event = codec.decode(module, msgspec.msgpack.encode({**item["data"], "type": item["type"]}))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ValueError(f"{where}: not a {name} event ({exc})") from None
        if state is None:
            _check_created(name, event, len(players), where)
        try:
            state = module.evolve(state, event, at)
        except BadEvent as exc:
            raise ValueError(f"{where}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a bug in a rules module is still one line, not a traceback
            raise ValueError(f"{where}: the game refuses it ({type(exc).__name__}: {exc})") from None
    return state


def _check_player(i: int, player: Any, name_length: int) -> None:
    if not isinstance(player, dict):
        raise ValueError(f"header: players[{i}] must be an object")
    if player.get("open"):
        return
    name = player.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > name_length:
        raise ValueError(f"header: players[{i}].name must be a name of 1 to {name_length} characters")
    try:  # the same names as the API takes: no invisible or look-alike characters, no "(… AI)" for a person
        bounds.check_name(name, f"header: players[{i}].name", name_length)
    except errors.Unprocessable as exc:
        raise ValueError(exc.message) from None
    ai = player.get("ai")
    if ai is not None and ai not in LEVELS:
        raise ValueError(f"header: players[{i}].ai must be one of {', '.join(LEVELS)}, not {ai!r}")


def _check_created(name: str, event: Any, players: int, where: str) -> None:
    """The first event creates the game, for as many seats as the header has players, with valid options."""
    if event_type(event) != "game_created":
        raise ValueError(f"{where}: the first event must be game_created")
    if event.seats != players:
        raise ValueError(f"{where}: the game is created for {event.seats} seats, the header has {players} players")
    try:
        check_options(event.options, importlib.import_module(f"domain.{name}.catalog").CATALOG.options)
    except BadSetup as exc:
        raise ValueError(f"{where}: {exc}") from None


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
