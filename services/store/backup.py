"""A backup of a running deployment's store (``burrow backup``), and its restore into an empty Redis
(``burrow restore``).

What is kept: every key of a hash-tag group of the store's prefix — each partition's games (streams, command ids,
seats, snapshots, chat), its log, dead letters and clocks, its projections (views, lobby); accounts and sessions
(``{acct}``); statistics and ratings (``{stats}``); tournaments, challenges, notifications and the rest. Each group
is read by one script (``dump_group.lua``: SCAN, then DUMP and PTTL of each key) and so as of one moment: a game
and its partition's log never disagree in a backup. Different groups are read at different moments (a game
finished between two of them may be missing from the ratings: ``burrow rebuild`` after a restore recounts them).
What is not kept: the untagged keys of the prefix (per-client rate windows, open-stream leases, open-game counts:
they expire within a day) and RQ's queues (the dispatcher enqueues again whatever a restored log still needs).

The file: JSON lines. A header ``{"burrow_backup": 1, "prefix", "partitions", "at", "redis"}``, then one line per
key ``{"k": key, "t": ms to live or -1, "v": DUMP payload}`` (key and payload base64). A DUMP payload is Redis's
own serialization: it restores into the same Redis version or a newer one.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterable, Iterator
from typing import Any

import redis

from services.scripts import lua
from services.store.streams import Keys

FORMAT = 1
DUMP_GROUP = lua("dump_group")
RESTORE_BATCH = 200  # keys restored per pipelined round trip


class BackupError(Exception):
    """A backup file that cannot be restored here (not one, another prefix, keys already there)."""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def tags(client: redis.Redis, keys: Keys) -> list[str]:
    """The hash-tag groups of the store that hold keys now (every master's, on a cluster)."""
    found = set()
    for key in client.scan_iter(match=keys.tagged(), count=1000):
        tag = keys.tag_of(_text(key))
        if tag is not None:
            found.add(tag)
    return sorted(found)


def backup_lines(client: redis.Redis, keys: Keys) -> Iterator[str]:
    """The backup of the store under ``keys``'s prefix, line by line (each group read atomically)."""
    script = client.register_script(DUMP_GROUP)
    version = _quiet_version(client)
    yield json.dumps({"burrow_backup": FORMAT, "prefix": keys.prefix, "partitions": keys.partitions,
                      "at": int(time.time() * 1000), "redis": version})
    for tag in tags(client, keys):
        where, pattern = keys.group(tag)
        flat = script(keys=[where], args=[pattern])
        for i in range(0, len(flat), 3):
            key, ttl, payload = flat[i], int(flat[i + 1]), flat[i + 2]
            raw_key = key if isinstance(key, bytes) else key.encode()
            yield json.dumps({"k": base64.b64encode(raw_key).decode(), "t": ttl,
                              "v": base64.b64encode(payload).decode()})


def restore_lines(client: redis.Redis, keys: Keys, lines: Iterable[str], replace: bool = False) -> int:
    """Restore a backup into ``client`` (its prefix must be ``keys``'s); the keys restored. Refuses a Redis that
    holds keys of the prefix already, unless ``replace``."""
    lines = iter(lines)
    try:
        header = json.loads(next(lines))
    except (StopIteration, json.JSONDecodeError):
        raise BackupError("not a Burrow backup: the first line is no header") from None
    if not isinstance(header, dict) or header.get("burrow_backup") != FORMAT:
        raise BackupError("not a Burrow backup (or one of another format)")
    theirs, ours = header.get("prefix"), keys.prefix
    if theirs != ours:
        raise BackupError(f"the backup's prefix is {theirs!r}, this store's {ours!r} (set BURROW_PREFIX)")
    if header.get("partitions") != keys.partitions:
        raise BackupError(f"the backup has {header.get('partitions')} partitions, not {keys.partitions} "
                          "(set BURROW_PARTITIONS)")
    if not replace and next(client.scan_iter(match=f"{keys.tagged()}", count=1000), None) is not None:
        raise BackupError("this Redis holds keys of the prefix already: restore into an empty one "
                          "(or pass --replace)")
    restored = 0
    batch: list[tuple[bytes, int, bytes]] = []
    for n, line in enumerate(lines, 2):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            batch.append((base64.b64decode(item["k"]), int(item["t"]), base64.b64decode(item["v"])))
        except (ValueError, KeyError, TypeError):
            raise BackupError(f"line {n}: not a key of a backup") from None
        if len(batch) >= RESTORE_BATCH:
            restored += _restore(client, batch, replace)
            batch = []
    if batch:
        restored += _restore(client, batch, replace)
    return restored


def _restore(client: redis.Redis, batch: list[tuple[bytes, int, bytes]], replace: bool) -> int:
    pipe = client.pipeline(transaction=False)
    for key, ttl, payload in batch:
        pipe.restore(key, max(ttl, 0), payload, replace=replace)
    done = 0
    for (key, _, _), answer in zip(batch, pipe.execute(raise_on_error=False), strict=True):
        if isinstance(answer, Exception):
            raise BackupError(f"key {key[:80]!r} not restored: {answer}")
        done += 1
    return done


def _quiet_version(client: Any) -> str | None:
    try:
        info = client.info("server")
    except (redis.RedisError, AttributeError):
        return None
    return info.get("redis_version") if isinstance(info, dict) else None
