"""Snapshots: a game's folded state every ``EVERY`` versions, kept beside its stream, so that reading any version
(``States.at_version``: ``?version=N``, ``burrow replay --to``) folds at most ``EVERY`` events.

A snapshot is a cache of a fold of immutable events, never trusted blindly:

* it is written on first need (a time-travel read folding past a multiple of ``EVERY``), only after its encoding
  has been decoded again and found to hold the same values (a state msgspec cannot carry exactly is never
  stored: that game is then folded from its first event, as before, and a warning logged once), and never for a
  game the table has ended (its result's reason is a ``Text``, which msgpack would keep as a plain string);
* it records the fingerprint of the code that folded it (the deciders' sources, ``domain/`` without its AI, and
  the event codec): after any change to the rules a snapshot is ignored and written again;
* it records a checksum of the event it ends with, compared with the stream's event at that version when it is
  read (the stream is never rewritten: a difference means a bug or a hand-made change, and the fold starts over
  from the first event);
* a snapshot that does not decode is ignored (and overwritten the next time that version is folded past).

Key: ``Keys.snapshots(gid)``, a hash from version to the snapshot (msgpack: version, code, checksum, state), in
the game's partition. Its size is about a tenth of the stream's (a few KB every 256 events).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec
import redis

from domain.table import TableState

log = logging.getLogger(__name__)

EVERY = 256
"""Versions between two snapshots: the most events a read of any version folds."""

_encoder = msgspec.msgpack.Encoder()


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    code: str
    """``fingerprint()`` of the code that folded it."""
    crc: int
    """zlib.crc32 of the stored data of the event at ``version``."""
    state: msgspec.Raw
    """The ``TableState`` at ``version``, msgpack."""


@functools.cache
def fingerprint() -> str:
    """A digest of the code a fold runs: every source of ``domain/`` but its AI, and the event codec."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256(msgspec.__version__.encode())
    domain = root / "domain"
    files = sorted(p for p in domain.rglob("*") if p.suffix in (".py", ".json", ".csv")
                   and p.relative_to(domain).parts[0] != "ai")
    for path in [*files, root / "services" / "store" / "codec.py"]:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def checksum(data: bytes) -> int:
    return zlib.crc32(data)


class Snapshots:
    """Reads and writes a store's snapshots (thread-safe: one Redis client, no state but what it learnt about
    state types that cannot be encoded)."""

    def __init__(self, store, every: int | None = None):
        self.store = store
        self.every = every or EVERY  # read now: a bench measures "before" with a module-wide EVERY of its own
        self._unencodable: set[str] = set()  # games whose states do not round-trip (warned once each)

    def key(self, gid: str) -> str:
        return self.store.keys.snapshots(gid)

    def latest(self, gid: str, version: int, kind: type) -> tuple[Snapshot, TableState] | None:
        """The newest readable snapshot at or below ``version`` written by this code and its state (whose ``game``
        is a ``kind``), not yet checked against the stream (``Snapshot.crc``); None if there is none."""
        try:
            known = sorted((int(v) for v in self.store.redis.hkeys(self.key(gid)) if int(v) <= version),
                           reverse=True)
            for at in known[:3]:  # a damaged or outdated one: the next older (past three, fold from the start)
                found = self._decode(self.store.redis.hget(self.key(gid), at), kind, at)
                if found is not None:
                    return found
        except redis.RedisError:
            return None  # a cache: without it the fold is only longer
        return None

    def _decode(self, raw: bytes | None, kind: type, at: int) -> tuple[Snapshot, TableState] | None:
        if raw is None:
            return None
        try:
            snap = msgspec.msgpack.decode(raw, type=Snapshot)
            if snap.code != fingerprint() or snap.version != at:
                return None
            return snap, decode_state(bytes(snap.state), kind)
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError):
            return None

    def save(self, gid: str, game_name: str, version: int, state: TableState, data: bytes) -> None:
        """Keep ``state``, the fold up to ``version`` whose event there is stored as ``data`` (unless the state
        does not survive an encoding: then never for this game)."""
        if game_name in self._unencodable or state.ended is not None:
            # A game the table ended holds its result's reason as a ``Text`` (said in the reader's language), which
            # msgpack keeps as a plain string; and such a game takes only an event or two more (its rematch).
            return
        try:
            blob = _encoder.encode(state)
            # The same values after a round trip (a clock setting's 60 may come back as 60.0: the same value).
            exact = _values(decode_state(blob, type(state.game))) == _values(state)
            why = "its values differ after a round trip"
        except (msgspec.EncodeError, msgspec.ValidationError, TypeError, ValueError) as exc:
            exact, why = False, f"{type(exc).__name__}: {exc}"
        if not exact:
            self._unencodable.add(game_name)
            log.warning("game %s (%s): its state cannot be snapshotted exactly (%s); its old versions are folded "
                        "from the first event", gid, game_name, why)
            return
        snap = Snapshot(version=version, code=fingerprint(), crc=checksum(data), state=msgspec.Raw(blob))
        try:
            self.store.redis.hset(self.key(gid), str(version), _encoder.encode(snap))
        except redis.RedisError:
            log.warning("game %s: snapshot at version %s not written", gid, version, exc_info=True)


def _values(state: TableState) -> Any:
    return msgspec.to_builtins(state, order="sorted")


def decode_state(blob: bytes, kind: type) -> TableState:
    """A ``TableState`` from its msgpack, its ``game`` a ``kind`` (the game's state type)."""
    raw: dict[str, Any] = msgspec.msgpack.decode(blob)
    game = msgspec.convert(raw.pop("game"), kind)
    return replace(msgspec.convert({**raw, "game": None}, TableState), game=game)
