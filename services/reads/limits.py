"""Expensive reads bounded per client: a game read at an old version (``?version=N``) folds up to a snapshot
interval of events (``services/games/snapshots.py``); one client may have at most ``cap`` of them under way at
once, over every web process (429 beyond), so that one address reading 40 old versions at once cannot hold the
web threads every other client needs.

Each read under way holds a lease in Redis (``Keys.client_reads``, ``stream_lease.lua``, as the live streams do):
it is given back when the read ends, and a process that dies mid-read loses its leases when they lapse.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Iterator

from domain.text import Text
from services import errors
from services.clients import client_id
from services.scripts import lua

LEASE_MS = 30_000  # far longer than a read (a few milliseconds); only a dead process's lease lasts this long
TAKE = lua("stream_lease")


class ExpensiveReads:
    """The per-client cap on expensive reads (``Settings.old_reads_per_client``; 0: no cap)."""

    def __init__(self, store, cap: int):
        self.store = store
        self.cap = cap
        self._take = store.redis.register_script(TAKE)

    @contextlib.contextmanager
    def one(self, address: str | None) -> Iterator[None]:
        """Hold one of ``address``'s places for the block, or raise ``TooMany`` (429) when they are all taken."""
        client = client_id(address)
        if client is None or not self.cap:
            yield
            return
        key, read = self.store.keys.client_reads(client), secrets.token_hex(8)
        if not self._take(keys=[key], args=[read, int(time.time() * 1000), LEASE_MS, self.cap]):
            raise errors.TooMany(Text("too many reads of old versions from this client at once (at most {cap}): "
                                      "wait for one to finish", cap=self.cap), retry_after=1)
        try:
            yield
        finally:
            self.store.redis.zrem(key, read)
