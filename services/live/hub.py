"""Live updates: one reader per process tails the partition logs and fans each new version out to subscribers.

A web process holds thousands of open streams without a thread or a Redis connection each: one reader thread per
partition log waits in ``XREAD BLOCK`` (the embedded fakeredis blocks and wakes the same way), and for every game
somebody watches it reads the new events once, folds them into the game's state, and encodes one Server-Sent
Events message per version, carrying the event and the spectator's document at that version (nothing secret). The
message is handed to every subscriber of the game: a bounded buffer each. A subscriber that falls ``buffer``
messages behind (a stalled reader) is dropped: its stream ends and its client reconnects with ``Last-Event-ID``,
and the reconnect replays what it missed (from the game's recent messages, or from the store for older versions).
So a slow client never holds back another, and none misses a version.

The hub knows nothing of how its subscribers are served: ``wake`` is called (from the reader's thread) whenever
a subscription has something new or was dropped; the web layer turns that into an asyncio wake-up (or a
``threading.Event`` for a plain WSGI server) and calls ``take()``.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import redis

from services import errors
from services.clients import client_id
from services.games.states import Game, States
from services.reads.views import document
from services.scripts import lua
from services.store import codec
from services.store.streams import Keys

log = logging.getLogger(__name__)

RETRY_MS = 1000  # EventSource's reconnection delay, sent first on every stream
LEASE_MS = 60_000  # a stream's place under its client's cap, renewed while it is open (a dead process's expire)
BLOCK_MS = 1000  # one XREAD BLOCK of a reader: an idle reader notices within this that nobody watches
PATIENCE = 0.02  # seconds a reader lets this process's requests finish before it fans new versions out


def sse(version: int, payload: dict) -> bytes:
    """One Server-Sent Events message: ``id`` = version, event ``version``, the payload as JSON (one line)."""
    try:
        data = _encode(payload)
    except (TypeError, ValueError):  # a type msgspec does not know: the standard library's way
        data = json.dumps(payload, separators=(",", ":"), default=str).encode()
    return b"id: %d\nevent: version\ndata: %s\n\n" % (version, data)


_encode = msgspec.json.Encoder().encode


class Subscription:
    """One open stream of one game. Thread-safe: the hub adds messages, the stream's server takes them."""

    def __init__(self, gid: str, client: str | None, wake: Callable[[], None], backlog: list[bytes]):
        self.gid = gid
        self.client = client  # the client's id (a hashed address), None for no cap
        self.id = secrets.token_hex(8)  # its place under the client's cap
        self.counted = False  # counted in the hub's open streams
        self.wake = wake
        self.dropped = False
        self._pending: deque[bytes] = deque(backlog)
        self._allowance = len(backlog)  # the catch-up does not count against the buffer before it is taken
        self._lock = threading.Lock()

    def take(self) -> list[bytes] | None:
        """The messages queued since the last call, in version order; None once dropped (end the stream)."""
        with self._lock:
            if self.dropped:
                return None
            out = list(self._pending)
            self._pending.clear()
            self._allowance = 0
            return out

    def _offer(self, message: bytes, limit: int) -> bool:
        """Queue ``message``; False (and dropped) when the subscriber is already ``limit`` messages behind."""
        with self._lock:
            if self.dropped:
                return False
            if len(self._pending) >= limit + self._allowance:
                self.dropped = True
                self._pending.clear()
                return False
            self._pending.append(message)
            return True


class Answering:
    """The requests this process is answering now (counted by the web layer). The readers let them finish before
    they fan a new version out, for at most ``PATIENCE``: a move's fan-out to its watchers competes for the
    process's one interpreter lock and event loop with the answer to the very command that made it, and the
    players' answers come before the spectators' few milliseconds (``docs/architecture.md``, "Live updates")."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = threading.Condition()

    def begin(self) -> None:
        with self._idle:
            self._count += 1

    def end(self) -> None:
        with self._idle:
            self._count -= 1
            if not self._count:
                self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no request is being answered (True), or ``timeout`` seconds (False)."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._count, timeout)


@dataclass
class _Watched:
    """A game somebody watches: its state at the last version published, its recent messages, its subscribers."""

    game: Game
    recent: deque  # (version, message), the last ``Hub.recent`` versions
    subscribers: set = field(default_factory=set)
    joining: int = 0  # subscriptions being opened (the game is not forgotten meanwhile)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Hub:
    """The live-update hub of one process (see the module docstring).

    ``buffer``: messages a subscriber may fall behind before it is dropped; ``recent``: messages kept per watched
    game for reconnects; ``per_client``: open streams per client address (``None``: no cap); ``patience``:
    seconds the readers let this process's requests (``answering``) finish before they publish.
    """

    def __init__(self, games: States, keys: Keys, reader: redis.Redis, *, buffer: int = 64,
                 recent: int = 128, per_client: int | None = 20, patience: float = PATIENCE):
        self.games = games
        self.store = games.store
        self.keys = keys
        self.reader = reader
        self.buffer = buffer
        self.recent = recent
        self.per_client = per_client
        self._games: dict[str, _Watched] = {}
        self._clients: Counter = Counter()  # open streams of this process, per client id
        self._leases: dict[str, str] = {}  # open stream id → its client id (renewed by the first reader)
        self._renewed = 0.0
        self._take = reader.register_script(lua("stream_lease"))
        self._lock = threading.Lock()
        self._threads: dict[str, threading.Thread] = {}  # partition log → its reader
        self._stopping = threading.Event()
        self.drops = 0  # subscribers dropped for falling behind (for tests and benchmarks)
        self.answering = Answering()  # the web layer counts its requests here; the readers let them finish
        self.patience = patience

    # -- subscribing ---------------------------------------------------------------------------------------

    def subscribe(self, gid: str, after: int, address: str | None, wake: Callable[[], None]) -> Subscription:
        """Open a stream of ``gid`` for a client (its address) that has seen version ``after``; it starts with
        every version since. Blocking (reads the store): call it from a thread. Raises ``NotFound``, ``TooMany``
        (the client's cap, over every web process), ``Unavailable`` (Redis)."""
        client = client_id(address)
        sub = Subscription(gid, client, wake, [])
        watched = None
        try:
            self._lease(sub)
            watched = self._watch(gid)
            self.start()  # after the game is watched (a reader with nothing to watch stops), before reading it
            with watched.lock:
                self._advance(watched)
                sub._pending.extend(self._backlog(watched, after))
                sub._allowance = len(sub._pending)
                watched.subscribers.add(sub)
            return sub
        except redis.RedisError as exc:
            self._release(sub)
            raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
        except BaseException:
            self._release(sub)
            raise
        finally:
            if watched is not None:
                with self._lock:
                    watched.joining -= 1
                self._forget_if_idle(gid)

    def unsubscribe(self, sub: Subscription) -> None:
        """Close ``sub`` (its stream ended); a game nobody watches any more is forgotten."""
        watched = self._games.get(sub.gid)
        if watched is not None:
            with watched.lock:
                watched.subscribers.discard(sub)
        self._release(sub)
        self._forget_if_idle(sub.gid)

    def open_streams(self, address: str | None = None) -> int:
        """Open streams of this process: of the client at ``address``, or of everybody."""
        with self._lock:
            if address is None:
                return sum(self._clients.values())
            return self._clients[client_id(address)]

    def _lease(self, sub: Subscription) -> None:
        """Count ``sub`` for its client, here and in Redis (every web process): ``TooMany`` at the cap."""
        with self._lock:
            self._clients[sub.client] += 1
            sub.counted = True
        if sub.client is None or self.per_client is None:
            return
        try:
            taken = self._take(keys=[self.keys.client_streams(sub.client)],
                               args=[sub.id, _now_ms(), LEASE_MS, self.per_client])
        except BaseException:
            self._forget_client(sub)
            raise
        if not taken:
            self._forget_client(sub)
            raise errors.TooMany(f"at most {self.per_client} open streams per client; close one first")
        with self._lock:
            self._leases[sub.id] = sub.client

    def _release(self, sub: Subscription) -> None:
        """``sub`` is closed: its place under its client's cap is free (a Redis error leaves it to expire)."""
        self._forget_client(sub)
        with self._lock:
            leased = self._leases.pop(sub.id, None)
        if leased is not None:
            try:
                self.reader.zrem(self.keys.client_streams(leased), sub.id)
            except redis.RedisError as exc:
                log.warning("live: could not free a stream's place (%s); it expires", exc)

    def _forget_client(self, sub: Subscription) -> None:
        with self._lock:
            if not sub.counted:
                return
            sub.counted = False
            self._clients[sub.client] -= 1
            if self._clients[sub.client] <= 0:
                del self._clients[sub.client]

    def _renew(self) -> None:
        """Renew the leases of this process's open streams (every third of ``LEASE_MS``; by one reader)."""
        now = time.monotonic()
        if now - self._renewed < LEASE_MS / 3000:
            return
        self._renewed = now
        with self._lock:
            leases = list(self._leases.items())
        if not leases:
            return
        expiry = _now_ms() + LEASE_MS
        pipe = self.reader.pipeline(transaction=False)
        for stream, client in leases:
            key = self.keys.client_streams(client)
            pipe.zadd(key, {stream: expiry}, xx=True)
            pipe.pexpire(key, LEASE_MS)
        pipe.execute()

    def _watch(self, gid: str) -> _Watched:
        """The watched game ``gid`` (loaded if nobody watches it yet), counted as being joined."""
        with self._lock:
            watched = self._games.get(gid)
            if watched is not None:
                watched.joining += 1
                return watched
        game = self.games.load(gid)  # NotFound for no such game
        shown = None
        for item in self.store.read(gid, after=game.version - 1, to=game.version):  # the event of that version
            shown = _shown(game, codec.decode(game.module, item.data), item.version, item.at)
        # an in-memory buffer of the last `recent` messages (the event streams themselves are never trimmed)
        fresh = _Watched(game, deque([(game.version, self._message(game, shown))], self.recent))
        with self._lock:
            watched = self._games.setdefault(gid, fresh)
            watched.joining += 1
            return watched

    def _forget_if_idle(self, gid: str) -> None:
        with self._lock:
            watched = self._games.get(gid)
            if watched is not None and not watched.subscribers and not watched.joining:
                del self._games[gid]

    def _backlog(self, watched: _Watched, after: int) -> list[bytes]:
        """The messages of the versions after ``after``: recent ones as published (with their document), older
        ones read from the store (their event only; the last message always carries the current document)."""
        game = watched.game
        if after >= game.version:
            return []
        first_recent = watched.recent[0][0]
        out = []
        if after + 1 < first_recent:
            try:
                while after + 1 < first_recent:
                    limit = min(1000, first_recent - 1 - after)
                    events = self.games.events(game.gid, None, after=after, limit=limit)
                    if not events:
                        break
                    out += [sse(e["version"], e) for e in events]
                    after = events[-1]["version"]
            except redis.RedisError as exc:
                raise errors.Unavailable("the event store is unreachable; try again in a moment") from exc
        out += [message for version, message in watched.recent if version > after]
        return out

    # -- publishing ----------------------------------------------------------------------------------------

    def _message(self, game: Game, shown: dict | None) -> bytes:
        """The message of ``game``'s version: its event as a spectator sees it and the spectator's document."""
        payload = dict(shown) if shown is not None else {"version": game.version}
        payload["document"] = document(game, None)
        return sse(game.version, payload)

    def _advance(self, watched: _Watched) -> list[bytes]:
        """Fold the events appended since the last published version; returns their messages. Hold its lock."""
        game = watched.game
        module = game.module
        out = []
        state, version = game.state, game.version
        for item in self.store.read(game.gid, after=version):
            event = codec.decode(module, item.data)
            state = module.evolve(state, event)
            version = item.version
            game = Game(game.gid, game.meta, module, version, state)
            message = self._message(game, _shown(game, event, version, item.at))
            watched.recent.append((version, message))
            out.append(message)
        watched.game = game
        return out

    def publish(self, gid: str, version: int) -> None:
        """The game ``gid`` has reached ``version`` (a log entry): send the new versions to its subscribers."""
        with self._lock:
            watched = self._games.get(gid)
        if watched is None:
            return
        with watched.lock:
            if version <= watched.game.version:
                return
            messages = self._advance(watched)
            subscribers = list(watched.subscribers)
            for sub in subscribers:
                for message in messages:
                    if not sub._offer(message, self.buffer):
                        watched.subscribers.discard(sub)
                        self.drops += 1
                        break
        for sub in subscribers:
            sub.wake()

    # -- the readers ---------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the readers (one thread per partition log) that do not run. Each starts at its log's end as it
        is now, read here: an entry appended after this call is seen by the reader."""
        with self._lock:
            logs = [self.keys.log(p) for p in range(self.keys.partitions)]
            starts = {}
            for log_key in (k for k in logs if k not in self._threads):
                newest = self.reader.xrevrange(log_key, count=1)
                starts[log_key] = newest[0][0] if newest else b"0-0"
            for log_key, last in starts.items():
                thread = threading.Thread(target=self._read, args=(log_key, last), name=f"live {log_key}",
                                          daemon=True)
                self._threads[log_key] = thread
                thread.start()

    def stop(self) -> None:
        self._stopping.set()

    def running(self) -> int:
        """How many readers run (none while nobody watches)."""
        with self._lock:
            return len(self._threads)

    def _idle(self, log_key: str) -> bool:
        """True (and this reader forgotten) when nobody watches any game: the reader then stops."""
        with self._lock:
            if self._games:
                return False
            self._threads.pop(log_key, None)
            return True

    def _read(self, log_key: str, last: bytes) -> None:
        """Tail ``log_key`` from ``last``; a Redis outage is retried from the last entry seen."""
        behind: set[str] = set()  # games whose publishing failed: tried again on the next round
        while not self._stopping.is_set():
            try:
                block = 100 if behind else BLOCK_MS
                answer = self.reader.xread({log_key: last}, count=1000, block=block)
                touched: dict[str, int] = dict.fromkeys(behind, 0)
                for _, entries in answer or []:
                    for entry_id, fields in entries:
                        last = entry_id
                        if fields:
                            gid = fields[b"gid"].decode()
                            touched[gid] = max(touched.get(gid, 0), int(fields[b"v"]))
                behind = set()
                if touched:
                    self.answering.wait_idle(self.patience)
                for gid, version in touched.items():
                    try:
                        self.publish(gid, version or 2**63 - 1)
                    except (redis.RedisError, errors.ServiceError) as exc:
                        log.warning("live: could not publish %s (%s); retrying", gid, exc)
                        behind.add(gid)
                if log_key == self.keys.log(0):
                    self._renew()
                if not behind and self._idle(log_key):
                    return
            except redis.RedisError as exc:
                log.warning("live: reading %s failed (%s); retrying", log_key, exc)
                self._stopping.wait(1.0)
            except Exception:
                log.exception("live: reader of %s failed; retrying", log_key)
                self._stopping.wait(1.0)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _shown(game: Game, event, version: int, at: int) -> dict:
    """``event`` (of ``version``) as a spectator sees it once ``game`` is at that version: redacted (unless the
    game is finished), with the players' names; as ``GameService.events`` shows it."""
    return codec.to_client(game.module, game.module.redact(event, game.viewer(None)), version, at, game.names,
                           game.sides)


def new_hub(runtime: Any, per_client: int | None = None) -> Hub:
    """The hub of a process's runtime (``per_client`` defaults to ``BURROW_STREAMS_PER_CLIENT``)."""
    cap = runtime.settings.streams_per_client if per_client is None else per_client
    return Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=cap or None)
