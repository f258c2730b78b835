"""Live updates: one reader per process tails the partition logs and fans each new version out to subscribers.

A web process holds thousands of open streams without a thread or a Redis connection each: one reader thread per
partition log follows it (``services/store/log.py``, a ``Tail``: ``XREAD BLOCK``; the embedded fakeredis blocks and
wakes the same way), and for every game somebody watches it reads the new events once, folds them into the game's
state, and encodes one Server-Sent Events message per version, carrying the event and the spectator's document at
that version (nothing secret). The message is handed to every subscriber of the game: a buffer each, bounded in
bytes. A subscriber that falls that far behind (a stalled reader) is dropped: its stream ends and its client
reconnects with ``Last-Event-ID``.

**Catch-up costs a bounded amount of work, under no shared lock.** A stream that starts or resumes at most
``catch_up`` versions behind gets those versions from the game's recent messages, kept in memory (those older than
the process's first look at the game carry their event only; every later one also the spectator's document); one
further behind gets a single ``reset`` message — the current version and the spectator's document — instead of
every version in between (docs/api.md, "Live updates"), and its page fetches what it needs. No subscriber reads the
store: a game is loaded once per process while somebody watches it (its state and its last ``catch_up`` events),
before any lock is taken, and each new version is read, folded and encoded by the reader outside the lock that
subscribers take, which only guards the list of subscribers and the recent messages.

The hub knows nothing of how its subscribers are served: ``wake`` is called (from the reader's thread) whenever a
subscription has something new or was dropped; the web layer turns that into an asyncio wake-up and calls
``take()``.
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
from sse_starlette import ServerSentEvent

from services import errors
from services.clients import client_id
from services.games.states import Game, States
from services.people.notifications import Notifications
from services.people.presence import Presence
from services.reads.views import document
from services.scripts import lua
from services.store import codec
from services.store.log import Follower, LogEntry, Tail
from services.store.streams import Keys

log = logging.getLogger(__name__)

RETRY_MS = 1000  # EventSource's reconnection delay, sent first on every stream
LEASE_MS = 60_000  # a stream's place under its client's cap, renewed while it is open (a dead process's expire)
BLOCK_MS = 1000  # one XREAD BLOCK of a reader: an idle reader notices within this that nobody watches
PATIENCE = 0.02  # seconds a reader lets this process's requests finish before it fans new versions out
CATCH_UP = 32  # versions a stream may start behind and still get each one; further behind: one reset message
BUFFER_BYTES = 1 << 20  # what a subscriber may fall behind by, in bytes, before it is dropped
NOTICES = "notices"  # the reader of the notifications log, beside one per partition log
ACCOUNT_BEAT_SECONDS = 10  # an account with a stream open here is marked seen this often (presence: 30 s)


# A type msgspec does not know (the feed's ``Text`` sentences) is written as its text (json's ``default=str``).
_encoder = msgspec.json.Encoder(enc_hook=str)


def _encode(value: Any) -> bytes:
    """``value`` as compact JSON (an integer past 64 bits: the standard library's way)."""
    try:
        return _encoder.encode(value)
    except (TypeError, ValueError):
        return json.dumps(value, separators=(",", ":"), default=_plain).encode()


def _plain(value: Any) -> Any:
    return json.loads(bytes(value)) if isinstance(value, msgspec.Raw) else str(value)


def frame(data: bytes | None = None, *, event: str | None = None, id: int | str | None = None,
          retry: int | None = None) -> bytes:
    """One Server-Sent Events message, made by sse-starlette (``ServerSentEvent``; lines ended by ``\n``): made
    once per version (or notice) here and shared, as bytes, by every stream that carries it."""
    return ServerSentEvent(None if data is None else data.decode(), event=event,
                           id=None if id is None else str(id), retry=retry, sep="\n").encode()


def sse(version: int, payload: dict, event: str = "version") -> bytes:
    """One message of a game's stream: ``id`` = version, the event name, the payload as JSON (one line)."""
    return frame(_encode(payload), event=event, id=version)


class Subscription:
    """One open stream of one game. Thread-safe: the hub adds messages, the stream's server takes them."""

    def __init__(self, gid: str, client: str | None, wake: Callable[[], None], seen: int):
        self.gid = gid
        self.client = client  # the client's id (a hashed address), None for no cap
        self.id = secrets.token_hex(8)  # its place under the client's cap
        self.counted = False  # counted in the hub's open streams
        self.wake = wake
        self.dropped = False
        self.seen = seen  # the newest version queued (or known to the client): never sent again
        self.topic: str | None = None  # a stream of notifications: "account:<name>" or "game:<gid>"
        self.last_note: tuple[int, int] = (0, 0)  # its newest notification queued (or known to the client)
        self._holding: list | None = None  # notifications offered while its catch-up is read
        self.session: str | None = None  # the hash of the session it was opened with: it ends with it
        self._pending: deque[bytes] = deque()
        self._bytes = 0
        self._allowance = 0  # the catch-up does not count against the buffer before it is taken
        self._lock = threading.Lock()

    def take(self) -> list[bytes] | None:
        """The messages queued since the last call, in version order; None once dropped (end the stream)."""
        with self._lock:
            if self.dropped:
                return None
            out = list(self._pending)
            self._pending.clear()
            self._bytes = self._allowance = 0
            return out

    def _start(self, messages: list[tuple[int, bytes]]) -> None:
        """The catch-up, queued before the subscriber is published to (hold the game's lock)."""
        for version, message in messages:
            self._pending.append(message)
            self._bytes += len(message)
            self.seen = max(self.seen, version)
        self._allowance = self._bytes

    def _offer_note(self, note_id: tuple[int, int], message: bytes, limit: int) -> bool:
        """Queue a notification of an account's stream unless already sent (or hold it during the catch-up)."""
        with self._lock:
            if self._holding is not None:
                self._holding.append((note_id, message))
                return True
            if note_id <= self.last_note:
                return True
            self.last_note = note_id
            return self._queue(message, limit)

    def end(self) -> None:
        """End the stream now (its session was revoked): the next ``take`` says so."""
        with self._lock:
            self.dropped = True
            self._pending.clear()
            self._bytes = 0
        self.wake()

    def _offer_extra(self, message: bytes, limit: int) -> bool:
        """Queue a message that is no version of the game (a chat notice: no ``id``)."""
        with self._lock:
            return self._queue(message, limit)

    def _queue(self, message: bytes, limit: int) -> bool:
        if self.dropped:
            return False
        if self._bytes + len(message) > limit + self._allowance:
            self.dropped = True
            self._pending.clear()
            self._bytes = 0
            return False
        self._pending.append(message)
        self._bytes += len(message)
        return True

    def _offer(self, version: int, message: bytes, limit: int) -> bool:
        """Queue the message of ``version`` unless already sent; False (and dropped) when the subscriber is
        ``limit`` bytes behind already."""
        with self._lock:
            if self.dropped:
                return False
            if version <= self.seen:
                return True
            self.seen = version
            return self._queue(message, limit)


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
    """A game somebody watches: its state at the last version published, its recent messages (version, bytes)
    and the spectator's document of its last version, its subscribers."""

    game: Game
    recent: deque
    document: bytes
    subscribers: set = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)  # subscribers and recent: held briefly
    advancing: threading.Lock = field(default_factory=threading.Lock)  # one reader folds new versions at a time


class Hub:
    """The live-update hub of one process (see the module docstring).

    ``buffer_bytes``: what a subscriber may fall behind by before it is dropped; ``catch_up``: versions a stream
    may start behind and still get each one (and the recent messages kept per watched game); ``per_client``: open
    streams per client address (``None``: no cap); ``patience``: seconds the readers let this process's requests
    (``answering``) finish before they publish.
    """

    def __init__(self, games: States, keys: Keys, reader: redis.Redis, *, buffer_bytes: int = BUFFER_BYTES,
                 catch_up: int = CATCH_UP, per_client: int | None = 20, patience: float = PATIENCE):
        self.games = games
        self.store = games.store
        self.keys = keys
        self.reader = reader
        self.buffer_bytes = buffer_bytes
        self.catch_up = catch_up
        self.per_client = per_client
        self._games: dict[str, _Watched] = {}
        self._joining = 0  # subscriptions being opened: the readers keep running meanwhile
        self._clients: Counter = Counter()  # open streams of this process, per client id
        self._leases: dict[str, str] = {}  # open stream id → its client id (renewed by the first reader)
        self._renewed = 0.0
        self._take = reader.register_script(lua("stream_lease"))
        self._lock = threading.Lock()
        self._threads: dict[int | str, threading.Thread] = {}  # partition → its reader; NOTICES → that one
        self._stopping = threading.Event()
        self.drops = 0  # subscribers dropped for falling behind (for tests and benchmarks)
        self.resets = 0  # streams that started with a reset message
        self.answering = Answering()  # the web layer counts its requests here; the readers let them finish
        self.patience = patience
        self.notifications = Notifications(reader, keys)
        self.presence = Presence(reader, keys)
        self._topics: dict[str, set[Subscription]] = {}  # "account:<name>", "game:<gid>" → its notice streams
        self._sessions: dict[str, set[Subscription]] = {}  # a session's hash → the streams opened with it

    # -- subscribing ---------------------------------------------------------------------------------------

    def subscribe(self, gid: str, after: int, address: str | None, wake: Callable[[], None]) -> Subscription:
        """Open a stream of ``gid`` for a client (its address) that has seen version ``after``: it starts with
        the versions since (a reset message when more than ``catch_up`` of them). Blocking (the first stream of a
        game in this process loads it): call it from a thread. Raises ``NotFound``, ``TooMany`` (the client's
        cap, over every web process), ``Unavailable`` (Redis)."""
        sub = Subscription(gid, client_id(address), wake, after)
        with self._lock:
            self._joining += 1
        try:
            self._lease(sub)
            self.start()  # before the game is read: an entry appended after the read is seen by a reader
            watched = self._watch(gid)
            with watched.lock:
                sub._start(self._backlog(watched, after))
                watched.subscribers.add(sub)
            return sub
        except redis.RedisError as exc:
            self._release(sub)
            raise errors.unreachable() from exc
        except BaseException:
            self._release(sub)
            raise
        finally:
            with self._lock:
                self._joining -= 1
            self._forget_if_idle(gid)

    def _discard(self, index: dict, key, sub: Subscription) -> None:
        """Take ``sub`` out of ``index[key]`` (a set of subscriptions), and the key out once its set is empty."""
        with self._lock:
            subs = index.get(key)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del index[key]

    def unsubscribe(self, sub: Subscription) -> None:
        """Close ``sub`` (its stream ended; twice is harmless); a game nobody watches any more is forgotten."""
        if sub.session is not None:
            self._discard(self._sessions, sub.session, sub)
        if sub.topic is not None:
            self._discard(self._topics, sub.topic, sub)
            self._release(sub)
            return
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
        """Renew the leases of this process's open streams and mark their accounts seen (every third of
        ``LEASE_MS``, by whichever reader comes first)."""
        now = time.monotonic()
        with self._lock:
            if now - self._renewed < min(LEASE_MS / 3000, ACCOUNT_BEAT_SECONDS):
                return
            self._renewed = now
            leases = list(self._leases.items())
            accounts = [topic[len("account:"):] for topic in self._topics if topic.startswith("account:")]
        if not leases:
            return
        self.presence.accounts_seen(accounts)  # their streams are open: their players are here
        expiry = _now_ms() + LEASE_MS
        pipe = self.reader.pipeline(transaction=False)
        for stream, client in leases:
            key = self.keys.client_streams(client)
            pipe.zadd(key, {stream: expiry}, xx=True)
            pipe.pexpire(key, LEASE_MS)
        pipe.execute()

    def _watch(self, gid: str) -> _Watched:
        """The watched game ``gid``: loaded, outside every lock, if nobody here watches it yet (``NotFound`` for
        no such game), then brought up to date (an entry its reader saw before the game was watched)."""
        with self._lock:
            watched = self._games.get(gid)
        if watched is not None:
            return watched
        game = self.games.load(gid)
        doc = _encode(document(game, None))
        # An in-memory buffer of the last messages (the event streams themselves are never trimmed): the last
        # ``catch_up`` events, the last one with the current document (older ones carry their event only).
        recent: deque = deque((), self.catch_up)  # the last ``catch_up`` messages, in memory
        for item in self.store.read(gid, after=max(0, game.version - self.catch_up), to=game.version):
            shown = _shown(game, codec.decode(game.rules, item.data), item.version, item.at)
            last = item.version == game.version
            recent.append((item.version, _message(item.version, shown, doc) if last else sse(item.version, shown)))
        if not recent or recent[-1][0] != game.version:
            recent.append((game.version, _message(game.version, None, doc)))
        fresh = _Watched(game, recent, doc)
        with self._lock:
            watched = self._games.setdefault(gid, fresh)
        if watched is fresh:
            self.publish(gid)
        return watched

    def _forget_if_idle(self, gid: str) -> None:
        with self._lock:
            watched = self._games.get(gid)
            if watched is not None and not watched.subscribers and not self._joining:
                del self._games[gid]

    def _backlog(self, watched: _Watched, after: int) -> list[tuple[int, bytes]]:
        """What a stream that has seen ``after`` starts with: the recent messages after it, or, when it is further
        behind than they reach, one reset message (hold ``watched.lock``)."""
        version = watched.game.version
        if after >= version:
            return []
        if after + 1 >= watched.recent[0][0]:
            return [(v, message) for v, message in watched.recent if v > after]
        self.resets += 1
        return [(version, sse(version, {"version": version, "document": msgspec.Raw(watched.document)}, "reset"))]

    # -- an account's stream: its notifications ------------------------------------------------------------

    def subscribe_account(self, account: str, after: str | None, address: str | None,
                          wake: Callable[[], None], session: str | None = None) -> Subscription:
        """Open a stream of ``account``'s notifications for a client that has seen the one with id ``after``
        (None: from now on). Blocking (reads its last notifications): call it from a thread. ``TooMany`` at the
        client's cap of streams."""
        sub = Subscription(f"account:{account}", client_id(address), wake, 0)
        sub.topic, sub._holding, sub.session = f"account:{account}", [], session
        if after is not None:
            sub.last_note = _note_id(after)
        try:
            self._lease(sub)
            with self._lock:
                self._topics.setdefault(sub.topic, set()).add(sub)
            self._start_notices()  # offers from now on are held until the catch-up is queued
            self._bind_session(sub)
            backlog = self.notifications.since(account, after)
            self.presence.accounts_seen([account])
        except redis.RedisError as exc:
            self.unsubscribe(sub)
            raise errors.unreachable() from exc
        except BaseException:
            self.unsubscribe(sub)
            raise
        with sub._lock:
            held, sub._holding = sub._holding, None
        messages = [(_note_id(n.id), _note(n.id, _encode(n.data))) for n in backlog] + held
        for note_id, message in sorted(messages, key=lambda m: m[0]):
            sub._offer_note(note_id, message, self.buffer_bytes)
        with sub._lock:
            sub._allowance = sub._bytes  # the catch-up does not count against the buffer
        return sub

    def subscribe_notices(self, gid: str, address: str | None, wake: Callable[[], None],
                          session: str | None = None) -> Subscription:
        """Open a stream of game ``gid``'s notices (a chat message posted, a player back): from now on, no
        catch-up (the page reads the chat itself). ``NotFound``, ``TooMany`` as ``subscribe``."""
        if self.store.meta(gid) is None:
            raise errors.NotFound(f"no game {gid!r}")
        sub = Subscription(f"game:{gid}", client_id(address), wake, 0)
        sub.topic, sub.session = f"game:{gid}", session
        self._lease(sub)
        with self._lock:
            self._topics.setdefault(sub.topic, set()).add(sub)
        try:
            self._start_notices()
            self._bind_session(sub)
        except redis.RedisError as exc:
            self.unsubscribe(sub)
            raise errors.unreachable() from exc
        except BaseException:
            self.unsubscribe(sub)
            raise
        return sub

    def subscribe_tournament(self, tid: str, after: int, address: str | None, wake: Callable[[], None],
                             stored: Callable[[str], tuple[int, bytes] | None]) -> Subscription:
        """Open a stream of tournament ``tid``'s document: its current one (``stored``: its version and JSON)
        unless the client has it (``after``), then each new version as the notifications log brings it.
        ``NotFound``, ``TooMany`` as ``subscribe``."""
        sub = Subscription(f"tournament:{tid}", client_id(address), wake, after)
        sub.topic = f"tournament:{tid}"
        self._lease(sub)
        with self._lock:
            self._topics.setdefault(sub.topic, set()).add(sub)
        try:
            self._start_notices()
            current = stored(tid)  # after joining: a version written meanwhile comes either way, once
            if current is None:
                raise errors.NotFound(f"no tournament {tid[:40]!r}")
        except redis.RedisError as exc:
            self.unsubscribe(sub)
            raise errors.unreachable() from exc
        except BaseException:
            self.unsubscribe(sub)
            raise
        version, document = current
        sub._offer(version, _tournament_message(version, document), self.buffer_bytes)
        with sub._lock:
            sub._allowance = sub._bytes
        return sub

    def _bind_session(self, sub: Subscription) -> None:
        """``sub`` ends with its session: listed for the revocations the notifications' reader (running now)
        sees, then the session checked once more, so a revocation just before is not missed either."""
        if sub.session is None:
            return
        with self._lock:
            self._sessions.setdefault(sub.session, set()).add(sub)
        if not self.reader.exists(self.keys.session(sub.session)):
            sub.end()

    def _start_notices(self) -> None:
        """Start the reader of the notifications log unless it runs."""
        with self._lock:
            if NOTICES in self._threads:
                return
            tail = Tail(self.reader, self.keys, lambda _: self.keys.notifications_log())
            tail.start(0)
            thread = threading.Thread(target=self._read_notices, args=(tail,), name="live notifications",
                                      daemon=True)
            self._threads[NOTICES] = thread
            thread.start()

    def _read_notices(self, tail: Tail) -> None:
        """Follow the notifications log: an account's to its streams here, a game's (chat) to its watchers."""

        def handle(_: int, entries: list[LogEntry]) -> None:
            woken = set()
            for entry in entries:
                target = entry.fields.get(b"to", b"").decode()
                data = entry.fields.get(b"data", b"{}")
                if target.startswith("session:"):  # a session revoked: its streams here end now
                    with self._lock:
                        ended = list(self._sessions.get(target[len("session:"):], ()))
                    for sub in ended:
                        sub.end()
                    continue
                with self._lock:
                    subs = list(self._topics.get(target, ()))
                note = entry.fields.get(b"id", b"").decode()
                version = entry.fields.get(b"v")
                for sub in subs:
                    if version is not None:  # a tournament's document at a version
                        offered = sub._offer(int(version), _tournament_message(int(version), data),
                                             self.buffer_bytes)
                    elif note:
                        offered = sub._offer_note(_note_id(note), _note(note, data), self.buffer_bytes)
                    else:
                        offered = sub._offer_extra(frame(data, event="notice"), self.buffer_bytes)
                    if not offered:
                        self.drops += 1
                    woken.add(sub)
            for sub in woken:
                sub.wake()

        follower = Follower(tail, 1000, handle)
        while not self._stopping.is_set():
            try:
                follower.step(0, BLOCK_MS)
                self._renew()  # accounts' streams may be open with no game watched (a lobby)
                with self._lock:
                    if not self._topics and not self._joining:
                        self._threads.pop(NOTICES, None)
                        return
            except redis.RedisError as exc:
                log.warning("live: reading the notifications failed (%s); retrying", exc)
                self._stopping.wait(1.0)
            except Exception:
                log.exception("live: the notifications reader failed; retrying")
                self._stopping.wait(1.0)

    # -- publishing ----------------------------------------------------------------------------------------

    def publish(self, gid: str, version: int | None = None) -> None:
        """The game ``gid`` has reached ``version`` (a log entry; None: look): send the new versions to its
        subscribers. They are read and folded outside the subscribers' lock; more than ``catch_up`` new versions
        at once become one reset message."""
        with self._lock:
            watched = self._games.get(gid)
        if watched is None:
            return
        with watched.advancing:
            old = watched.game.version
            if version is not None and version <= old:
                return
            game, messages, doc = self._fold_new(watched.game, watched.document)
            if not messages:
                return
            with watched.lock:
                watched.game, watched.document = game, doc
                watched.recent.extend(messages)
                subscribers = list(watched.subscribers)
                if messages[0][0] != old + 1:  # more new versions than the recent messages hold: a reset
                    messages = self._backlog(watched, old)
                for sub in subscribers:
                    for v, message in messages:
                        if not sub._offer(v, message, self.buffer_bytes):
                            watched.subscribers.discard(sub)
                            self.drops += 1
                            break
        for sub in subscribers:
            sub.wake()

    def _fold_new(self, game: Game, doc: bytes) -> tuple[Game, list[tuple[int, bytes]], bytes]:
        """The events appended after ``game``'s version, folded; the game after them, the messages of their
        versions (the last ``catch_up`` only) and the spectator's document of the last."""
        module, state, version = game.rules, game.state, game.version
        items = list(self.store.read(game.gid, after=version))
        out = []
        for i, item in enumerate(items):
            event = codec.decode(module, item.data)
            state = module.evolve(state, event, item.at)
            version = item.version
            if len(items) - i <= self.catch_up:  # older ones would be replaced by a reset anyway
                game = Game(game.gid, game.meta, module, version, state)
                doc = _encode(document(game, None))
                out.append((version, _message(version, _shown(game, event, version, item.at), doc)))
        return Game(game.gid, game.meta, module, version, state), out, doc

    # -- the readers ---------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the readers (one thread per partition log) that do not run. Each starts at its log's end as it
        is now, read here: an entry appended after this call is seen by the reader."""
        with self._lock:
            for p in range(self.keys.partitions):
                if p in self._threads:
                    continue
                tail = Tail(self.reader, self.keys)
                tail.start(p)
                thread = threading.Thread(target=self._read, args=(p, tail), name=f"live {self.keys.log(p)}",
                                          daemon=True)
                self._threads[p] = thread
                thread.start()

    def stop(self) -> None:
        self._stopping.set()

    def running(self) -> int:
        """How many readers of the partition logs run (none while nobody watches)."""
        with self._lock:
            return len([k for k in self._threads if k != NOTICES])

    def _idle(self, partition: int) -> bool:
        """True (and this reader forgotten) when nobody watches any game: the reader then stops."""
        with self._lock:
            if self._games or self._joining:
                return False
            self._threads.pop(partition, None)
            return True

    def _read(self, partition: int, tail: Tail) -> None:
        """Follow the partition's log; a Redis outage is retried from the last entry seen."""
        behind: set[str] = set()  # games whose publishing failed: tried again on the next round

        def handle(_: int, entries: list[LogEntry]) -> None:
            touched: dict[str, int] = {}
            for entry in entries:
                if entry.gid is not None:
                    touched[entry.gid] = max(touched.get(entry.gid, 0), entry.version)
            self._publish_all(touched, behind)

        follower = Follower(tail, 1000, handle)
        while not self._stopping.is_set():
            try:
                if not follower.step(partition, 100 if behind else BLOCK_MS) and behind:
                    self._publish_all({}, behind)
                if partition == 0:
                    self._renew()
                if not behind and self._idle(partition):
                    return
            except redis.RedisError as exc:
                log.warning("live: reading %s failed (%s); retrying", self.keys.log(partition), exc)
                self._stopping.wait(1.0)
            except Exception:
                log.exception("live: reader of %s failed; retrying", self.keys.log(partition))
                self._stopping.wait(1.0)

    def _publish_all(self, touched: dict[str, int], behind: set[str]) -> None:
        """Publish the games touched and those left behind by a failure (retried next round)."""
        todo = {**dict.fromkeys(behind), **touched}
        behind.clear()
        if touched:
            self.answering.wait_idle(self.patience)
        for gid, version in todo.items():
            try:
                self.publish(gid, version)
            except (redis.RedisError, errors.ServiceError) as exc:
                log.warning("live: could not publish %s (%s); retrying", gid, exc)
                behind.add(gid)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _note_id(text: str) -> tuple[int, int]:
    """A notification's stream id as a comparable pair."""
    ms, _, seq = text.partition("-")
    try:
        return int(ms), int(seq or 0)
    except ValueError:
        return 0, 0


def _tournament_message(version: int, document: bytes | str) -> bytes:
    """A tournament stream's message: ``id`` the document's version, event ``tournament``."""
    return frame(document.encode() if isinstance(document, str) else document, event="tournament", id=version)


def _note(note_id: str, data: bytes | str) -> bytes:
    """The message of one notification of an account's stream: ``id`` its id, event ``notification``."""
    return frame(data.encode() if isinstance(data, str) else data, event="notification", id=note_id)


def _message(version: int, shown: dict | None, doc: bytes) -> bytes:
    """The message of a version: its event as a spectator sees it, and the spectator's document (encoded)."""
    return sse(version, {**(shown if shown is not None else {"version": version}), "document": msgspec.Raw(doc)})


def _shown(game: Game, event, version: int, at: int) -> dict:
    """``event`` (of ``version``) as a spectator sees it once ``game`` is at that version: redacted (unless the
    game is finished), with the players' names; as ``States.events`` shows it."""
    return codec.to_client(game.rules, game.rules.redact(event, game.viewer(None)), version, at, game.names,
                           game.sides)


def new_hub(runtime: Any, per_client: int | None = None) -> Hub:
    """The hub of a process's runtime (``per_client`` defaults to ``BURROW_STREAMS_PER_CLIENT``)."""
    cap = runtime.settings.streams_per_client if per_client is None else per_client
    return Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=cap or None)
