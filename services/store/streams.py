"""The event store: one Redis stream per game, a log per partition, one Lua script per append.

Keys (``P`` = prefix, ``pN`` = partition of the game id; everything one append touches shares one hash slot):

``P:{pN}:game:<gid>``  stream of the game's events, IDs ``0-<version>`` (version = position, from 1)
``P:{pN}:cmds:<gid>``  hash: command id → stored result, for idempotent retries
``P:{pN}:log``         stream: (gid, version, type) of every event of the partition, in commit order
``P:{pN}:seats:<gid>`` hash: seat → token hash
``P:{pN}:view:<gid>`` / ``P:{pN}:ckpt:<gid>``  projected view and its checkpoint version
``P:{pN}:lobby``       hash: gid → lobby summary
``P:{acct}:account:<id>`` stream of one account's events (and the account keys beside it: ``Keys.account`` …)

Streams are never trimmed.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
import weakref
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

import redis

from services import trace
from services.scripts import lua

APPEND_SCRIPT = lua("append")


class ConcurrencyError(Exception):
    """The game is not at the expected version."""

    def __init__(self, current: int):
        super().__init__(f"the game is at version {current}")
        self.current = current


class StoreUnavailable(Exception):
    """Redis cannot be reached."""


class NotReplicated(StoreUnavailable):
    """The append was not confirmed by ``ack_replicas`` replicas in time (``BURROW_ACK_REPLICAS``): it is not
    acknowledged. Sent again with the same command id, it answers its first result once replicated, or is applied
    anew if the master that held it failed before replicating it; never twice."""

    def __init__(self, replicas: int, wanted: int):
        super().__init__(f"the command was not confirmed by {wanted} replica(s) in time ({replicas} did); send it "
                         "again with the same command_id: it is never applied twice")
        self.replicas = replicas


# The node refused the script without running it (a cluster failing over, a slot moved, a replica that was a
# master): refresh the slot map and try again.
NOT_RUN = (redis.exceptions.MovedError, redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError,
           redis.exceptions.ReadOnlyError)
NODE_ATTEMPTS = 4


@dataclass(frozen=True)
class StoredEvent:
    """One event as stored: its version, snake_case type, encoded data and commit time (ms)."""

    version: int
    type: str
    data: bytes
    at: int
    meta: bytes | None = None


@dataclass(frozen=True)
class AppendResult:
    """``version`` after the append; ``duplicate`` when the command id had been seen (``stored``: first result)."""

    version: int
    duplicate: bool = False
    stored: bytes | None = None


def new_game_id() -> str:
    """A short random game id (60 bits, URL-safe)."""
    return secrets.token_hex(6)[:-2] + format(secrets.randbelow(256), "02x")


def _glob(text: str) -> str:
    """``text`` matched literally in a Redis glob pattern."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


class Keys:
    """Key names for one prefix and partition count."""

    def __init__(self, prefix: str = "burrow", partitions: int = 1):
        self.prefix = prefix
        self.partitions = partitions

    def partition(self, gid: str) -> int:
        return zlib.crc32(gid.encode()) % self.partitions

    def _p(self, n: int) -> str:
        return f"{self.prefix}:{{p{n}}}"

    def tagged(self) -> str:
        """A SCAN pattern: every key of a hash-tag group (``<prefix>:{tag}…``: what a backup holds)."""
        return f"{_glob(self.prefix)}:{{*"

    def tag_of(self, key: str) -> str | None:
        """The hash tag of one of our keys (``p0``, ``acct``…), or None for an untagged one."""
        head = f"{self.prefix}:{{"
        if not key.startswith(head) or "}" not in key[len(head):]:
            return None
        return key[len(head):key.index("}", len(head))]

    def group(self, tag: str) -> tuple[str, str]:
        """A hash-tag group: a key of its slot (where it lives) and the SCAN pattern of its keys."""
        return f"{self.prefix}:{{{tag}}}", f"{_glob(self.prefix)}:{{{_glob(tag)}}}*"

    def game(self, gid: str) -> str:
        return f"{self._p(self.partition(gid))}:game:{gid}"

    def cmds(self, gid: str) -> str:
        return f"{self._p(self.partition(gid))}:cmds:{gid}"

    def seats(self, gid: str) -> str:
        return f"{self._p(self.partition(gid))}:seats:{gid}"

    def view(self, gid: str) -> str:
        return f"{self._p(self.partition(gid))}:view:{gid}"

    def ckpt(self, gid: str) -> str:
        return f"{self._p(self.partition(gid))}:ckpt:{gid}"

    def log(self, partition: int) -> str:
        return f"{self._p(partition)}:log"

    def failures(self, partition: int) -> str:
        """Hash: log entry id → failures so far, next try, last error (the dispatcher's retries)."""
        return f"{self._p(partition)}:failures"

    def dead(self, partition: int) -> str:
        """Stream: the partition's dead letters, log entries the dispatcher gave up on."""
        return f"{self._p(partition)}:dead"

    def deadlines(self, partition: int) -> str:
        """Sorted set: the partition's games whose clock runs → the deadline of their next timeout (ms), checked
        by the dispatchers (``services/games/clocks.py``)."""
        return f"{self._p(partition)}:deadlines"

    def dispatchers(self) -> str:
        """Hash: dispatcher consumer name → when it last read the logs (ms)."""
        return f"{self.prefix}:{{ops}}:dispatchers"

    def lobby(self, partition: int, suffix: str = "") -> str:
        """Hash: gid → lobby line (``suffix``: a lobby being rebuilt beside the live one)."""
        return f"{self._p(partition)}:lobby{suffix}"

    def lobby_versions(self, partition: int, suffix: str = "") -> str:
        """Hash: gid → the version of its lobby line."""
        return f"{self._p(partition)}:lobbyv{suffix}"

    def lobby_index(self, partition: int, name: str, suffix: str = "") -> str:
        """Sorted set: the gids of the lobby list ``name`` (all, a status, open) by update time (ms)."""
        return f"{self._p(partition)}:lobby:z:{name}{suffix}"

    def stats(self, name: str) -> str:
        """The statistics (``counted``: the finished games counted; ``stats``: counts per game) and the ratings
        below: one slot of their own, since they span every partition."""
        return f"{self.prefix}:{{stats}}:{name}"

    def ranking(self, game: str) -> str:
        """Sorted set: the usernames (lower case) of ``game``'s non-provisional ratings by rating."""
        return self.stats(f"rank:{game}")

    def ratings(self, game: str) -> str:
        """Hash: username (lower case) → its rating of ``game`` now (rating, RD, volatility, games, wins …)."""
        return self.stats(f"ratings:{game}")

    def rating_history(self, game: str, user: str) -> str:
        """List: the account's rating of ``game`` after each rated game, in the order the games finished."""
        return self.stats(f"history:{game}:{user}")

    def rated_order(self, game: str) -> str:
        """Sorted set: the finished games of ``game`` between accounts only, by when they finished (ms)."""
        return self.stats(f"order:{game}")

    def rated_results(self, game: str) -> str:
        """Hash: gid → that game's result as the ratings read it (accounts, winners, rated or not)."""
        return self.stats(f"results:{game}")

    def ratings_version(self, game: str) -> str:
        """Counter: bumped by every write of ``game``'s ratings (a write decided on an older one is refused)."""
        return self.stats(f"rseq:{game}")

    def client(self, client: str) -> str:
        """Sorted set: the open games of one client (a hashed address), for the per-client quota."""
        return f"{self.prefix}:client:{client}"

    def client_rate(self, client: str) -> str:
        """Counter: the games one client created in the current minute (expires with it)."""
        return f"{self.prefix}:rate:{client}"

    def client_streams(self, client: str) -> str:
        """Sorted set: the open live streams of one client (a hashed address) in every web process, each with
        its lease's expiry (ms), for the per-client cap (``services/live/hub.py``)."""
        return f"{self.prefix}:streams:{client}"

    def log_of(self, gid: str) -> str:
        return self.log(self.partition(gid))

    def lobby_of(self, gid: str) -> str:
        return self.lobby(self.partition(gid))

    def analysis(self, gid: str) -> str:
        """Hash: the game's analysis — status, analysed version, budget, its plies (services/reads/analysis.py)."""
        return f"{self._p(self.partition(gid))}:analysis:{gid}"

    def analysis_plies(self, gid: str, version: int) -> str:
        """Hash: ply index → that ply's analysis (chances, best move), for the game at ``version``."""
        return f"{self._p(self.partition(gid))}:analysis:{gid}:v{version}"

    def analysis_lease(self, gid: str, version: int, chunk: int) -> str:
        """String with a TTL: a chunk of the analysis is queued or running (gone: redo it)."""
        return f"{self._p(self.partition(gid))}:analysis:{gid}:v{version}:lease:{chunk}"

    def snapshots(self, gid: str) -> str:
        """Hash: version → the game's folded state there, every 256 versions (``services/games/snapshots.py``)."""
        return f"{self._p(self.partition(gid))}:snap:{gid}"

    def client_reads(self, client: str) -> str:
        """Sorted set: the expensive reads (old versions) of one client (a hashed address) under way in every
        web process, each with its lease's expiry (ms), for the per-client cap (``services/reads/limits.py``)."""
        return f"{self.prefix}:reads:{client}"

    def rematch_claim(self, gid: str) -> str:
        """String with a TTL: the request making the finished game's rematch (``services/games/tables.py``)."""
        return f"{self._p(self.partition(gid))}:rematch:{gid}"

    # -- meeting people (services/people/): chat, presence, notifications, seeks, challenges, reports ----------

    def chat(self, gid: str, room: str) -> str:
        """Stream: a game's chat room (``players`` or ``spectators``), its last 500 messages (trimmed: chat is
        not a game event)."""
        return f"{self._p(self.partition(gid))}:chat:{gid}:{room}"

    def chat_rate(self, sender: str) -> str:
        """Sorted set: a chat sender's messages of the last ten seconds (the rate limit)."""
        return f"{self.prefix}:chatrate:{sender}"

    def presence(self, gid: str) -> str:
        """Hash: seat → when its player last had the game's page open (ms)."""
        return f"{self._p(self.partition(gid))}:presence:{gid}"

    def presence_beats(self, gid: str) -> str:
        """Hash: seat → when its page last said it was open (ms): whether the game's other pages were told."""
        return f"{self._p(self.partition(gid))}:presence-beats:{gid}"

    def notifications_log(self) -> str:
        """Stream: every notification (an account's, a game's chat), trimmed to the last few thousand; each web
        process's hub follows it to wake the streams concerned."""
        return f"{self.prefix}:{{notify}}:log"

    def notifications(self, account: str) -> str:
        """Stream: an account's last notifications (trimmed), for its open streams to resume from."""
        return f"{self.prefix}:{{notify}}:account:{account}"

    def waiting(self, account: str) -> str:
        """Sorted set: the games where an account's seat is to act → since when (ms): "waiting for you"."""
        return f"{self.prefix}:{{notify}}:waiting:{account}"

    def seeks(self) -> str:
        """Hash: open seek id → the seek (JSON): one slot of their own, so pairing is one script."""
        return f"{self.prefix}:{{seeks}}:open"

    def seeks_of_kind(self, kind: str) -> str:
        """Sorted set: the open seeks of one kind (game, options, clock and seats: ``kind`` is a hash of them) by
        when they were made (ms)."""
        return f"{self.prefix}:{{seeks}}:kind:{kind}"

    def seek_counts(self) -> str:
        """Hash: account → its open seeks."""
        return f"{self.prefix}:{{seeks}}:counts"

    def accounts_seen(self) -> str:
        """Sorted set: account → when it last had a page or stream open (ms): presence, and a seek lapses
        without it."""
        return f"{self.prefix}:{{seeks}}:seen"

    def challenge_of(self, challenge_id: str) -> str:
        """String with the challenge's lapse as its expiry: an open challenge (JSON), deleted once answered."""
        return f"{self.prefix}:{{challenges}}:open:{challenge_id}"

    def challenges_to(self, person: str) -> str:
        """Sorted set: the challenges sent to a person (account or guest key) by when they were made (ms)."""
        return f"{self.prefix}:{{challenges}}:to:{person}"

    def challenges_from(self, person: str) -> str:
        """Sorted set: the challenges (and invites) a person made, by when (ms)."""
        return f"{self.prefix}:{{challenges}}:from:{person}"

    def challenge_rate(self, account: str) -> str:
        """Sorted set: an account's challenges of the last minute."""
        return f"{self.prefix}:{{challenges}}:rate:{account}"

    def reports(self) -> str:
        """Stream: chat messages reported to an operator, with their context (``burrow reports``); the unread ones
        are never trimmed."""
        return f"{self.prefix}:{{ops}}:reports"

    def reports_read(self) -> str:
        """String: the id of the newest report an operator has read (``burrow reports``)."""
        return f"{self.prefix}:{{ops}}:reports:read"

    def reported(self, gid: str, room: str, message_id: str) -> str:
        """Set with an expiry: who reported one chat message (one report per reporter and message)."""
        return f"{self.prefix}:{{ops}}:reported:{gid}:{room}:{message_id}"

    def report_rate(self, reporter: str) -> str:
        """Sorted set: a reporter's (or an address's) reports of the last hour."""
        return f"{self.prefix}:reportrate:{reporter}"

    # -- accounts: one hash slot of their own, ``{acct}``, so a name's claim and the account's first event, a
    # passkey's claim and its event, are written by one script (``services/accounts/``) --------------------------

    def _acct(self) -> str:
        return f"{self.prefix}:{{acct}}"

    def account(self, account_id: str) -> str:
        """Stream: one account's events (created, password set, passkey added …), IDs ``0-<version>``; never
        trimmed."""
        return f"{self._acct()}:account:{account_id}"

    def account_language(self, account_id: str) -> str:
        """String: the language an account chose with the page's switch (a value; ``POST /api/me/language``)."""
        return f"{self._acct()}:lang:{account_id}"

    def usernames(self) -> str:
        """Hash: a username in lower case → its account id (the unique-name claim)."""
        return f"{self._acct()}:usernames"

    def name_keys(self) -> str:
        """Hash: what a username looks like (``services/accounts/confusables.py``, ``name_keys``) → its account id:
        a guest may not take a name that looks like an account's."""
        return f"{self._acct()}:namekeys"

    def passkeys(self) -> str:
        """Hash: a passkey's credential id (base64url) → its account id."""
        return f"{self._acct()}:passkeys"

    def account_games(self, account_id: str) -> str:
        """Sorted set: the account's seats, ``<gid>:<seat>``, by when it sat down (ms)."""
        return f"{self._acct()}:games:{account_id}"

    def account_tokens(self, account_id: str) -> str:
        """Hash: ``<gid>:<seat>`` → that seat's token, handed back to the account on any device."""
        return f"{self._acct()}:tokens:{account_id}"

    def session(self, session_hash: str) -> str:
        """Hash with an expiry: one session (account, created, last seen, user agent), named by the SHA-256 of its
        id (the id itself is never stored)."""
        return f"{self._acct()}:session:{session_hash}"

    def account_sessions(self, account_id: str) -> str:
        """Sorted set: the hashes of an account's sessions by when they were made (ms)."""
        return f"{self._acct()}:sessions:{account_id}"

    def challenge(self, challenge_id: str) -> str:
        """String with a short expiry: a passkey ceremony's challenge, taken once."""
        return f"{self._acct()}:challenge:{challenge_id}"

    def attempts(self, kind: str, who: str) -> str:
        """Sorted set with an expiry: failed sign-ins of one username or one client (hashed) in the window (ms)."""
        return f"{self._acct()}:attempts:{kind}:{who}"

    def signups(self, client: str) -> str:
        """Counter with an expiry: the accounts one client (hashed) made in the current hour."""
        return f"{self._acct()}:signups:{client}"

    def emails(self) -> str:
        """Hash: a verified mail address (lower case) → the account id that verified it last (password reset finds
        the account by it; the account itself is checked again)."""
        return f"{self._acct()}:emails"

    def reset_token(self, nonce: str) -> str:
        """String with an expiry: a password reset link's nonce → its account id, taken once (GETDEL)."""
        return f"{self._acct()}:reset:{nonce}"

    # -- learning (``services/learn/``): in the accounts' slot, beside the account they belong to ----------------

    def tutorial_progress(self, account_id: str) -> str:
        """Hash: ``<game>:<step>`` → 1 for each tutorial step the account has completed."""
        return f"{self._acct()}:tutorials:{account_id}"

    def deck_events(self, account_id: str) -> str:
        """Stream: the account's deck events (cards added from analysed games, reviews answered); never trimmed:
        the deck is their projection."""
        return f"{self._acct()}:deck:{account_id}"

    def deck_cards(self, account_id: str) -> str:
        """Hash: a card id → the card and its FSRS state (JSON), folded from ``deck_events``."""
        return f"{self._acct()}:deck:{account_id}:cards"

    def deck_due(self, account_id: str) -> str:
        """Sorted set: card ids by when each is due (ms), folded from ``deck_events``."""
        return f"{self._acct()}:deck:{account_id}:due"

    def decks(self) -> str:
        """Set: the account ids that have a deck (``burrow rebuild`` rebuilds each)."""
        return f"{self._acct()}:decks"

    # -- away from the site: push and mail (``services/away/``) ---------------------------------------------------

    def away_secret(self, name: str) -> str:
        """String: a secret generated once and kept (``vapid``: the VAPID private key; ``links``: the key that
        signs mailed links)."""
        return f"{self.prefix}:{{away}}:secret:{name}"

    def mail_rate(self, who: str) -> str:
        """Sorted set with an expiry: the mails sent lately to one account or one address (hashed), by time
        (ms)."""
        return f"{self.prefix}:{{away}}:mailrate:{who}"

    def away_changes(self, account_id: str) -> str:
        """Sorted set with an expiry: an account's recent changes of push subscriptions, preferences and vacation
        (each an event of its never-trimmed stream: bounded per hour)."""
        return f"{self.prefix}:{{away}}:changes:{account_id}"

    def digest(self, account: str, gid: str) -> str:
        """String with an expiry (``BURROW_DIGEST_SECONDS``): a *your turn* mail went for this game lately."""
        return f"{self.prefix}:{{away}}:digest:{account}:{gid}"


    # -- tournaments: one hash slot of their own, ``{tourn}``, so a tournament's append and the open sets it counts
    # against are one script (``services/tournaments/``) ------------------------------------------------------

    def _tourn(self) -> str:
        return f"{self.prefix}:{{tourn}}"

    def tournament(self, tid: str) -> str:
        """Stream: one tournament's events (created, joined, round paired, game finished …), IDs ``0-<version>``;
        never trimmed."""
        return f"{self._tourn()}:t:{tid}"

    def tournaments(self) -> str:
        """Sorted set: every tournament's id by when it was made (ms): what ``burrow rebuild`` reads."""
        return f"{self._tourn()}:all"

    def tournaments_open(self, creator: str = "") -> str:
        """Sorted set: the tournaments not finished (of one creator, lower case, when given) by creation (ms)."""
        return f"{self._tourn()}:open:{creator}" if creator else f"{self._tourn()}:open"

    def tournament_view(self, tid: str, suffix: str = "") -> str:
        """String: the tournament's document (JSON), as ``GET /api/tournaments/<id>`` answers it."""
        return f"{self._tourn()}:view:{tid}{suffix}"

    def tournament_versions(self, suffix: str = "") -> str:
        """Hash: tournament id → the version its document and list line were written at."""
        return f"{self._tourn()}:versions{suffix}"

    def tournament_lines(self, suffix: str = "") -> str:
        """Hash: tournament id → its line in the lists (JSON)."""
        return f"{self._tourn()}:lines{suffix}"

    def tournament_index(self, status: str, suffix: str = "") -> str:
        """Sorted set: the tournaments of one status (upcoming, running, finished) by their start (ms)."""
        return f"{self._tourn()}:status:{status}{suffix}"

    def tournament_timers(self) -> str:
        """Sorted set: tournament id → when its job must look at it again (its start, an arena's end, a check)."""
        return f"{self._tourn()}:timers"

    def tournament_lock(self, tid: str) -> str:
        """String: held by the job advancing the tournament (one at a time: it makes games)."""
        return f"{self._tourn()}:lock:{tid}"

    def tournament_again(self, tid: str) -> str:
        """String: set when the tournament changed while its job held the lock: the job looks again."""
        return f"{self._tourn()}:again:{tid}"


class QueueKeys:
    """Key names beside the RQ queues (on the queues' Redis, ``RQ_URL``), under the queue prefix
    (``Settings.queue_name``; ``services/jobs/queues.py`` uses them)."""

    def __init__(self, prefix: str = "burrow"):
        self.prefix = prefix

    def queue(self, kind: str) -> str:
        """The name of the RQ queue of ``kind`` (``project``, ``ai``, ``analysis``)."""
        return f"{self.prefix}:{kind}"

    def queued(self, kind: str) -> str:
        """String: a job draining the games waiting waits in the ``kind`` queue, not yet started."""
        return f"{self.prefix}:{kind}:queued"

    def pending(self, kind: str) -> str:
        """Sorted set: the games waiting for a ``kind`` job, by when they were first poked (ms)."""
        return f"{self.prefix}:{kind}:pending"

    def ai_active(self, client: str) -> str:
        """Sorted set: the AI turns of ``client`` queued or running, by when (ms)."""
        return f"{self.prefix}:aifair:active:{client}"

    def ai_waiting(self, client: str) -> str:
        """List: the AI turns of ``client`` waiting for a slot."""
        return f"{self.prefix}:aifair:waiting:{client}"

    def ai_known(self) -> str:
        """Hash: every AI turn known, active ("a") or waiting ("w")."""
        return f"{self.prefix}:aifair:known"

    def ai_finished(self) -> str:
        """Sorted set: the AI turns finished lately, by when (ms)."""
        return f"{self.prefix}:aifair:finished"

    def analysis_active(self, client: str) -> str:
        """Sorted set: the analysis jobs of ``client`` queued or running, by when (ms)."""
        return f"{self.prefix}:anfair:active:{client}"

    def analysis_waiting(self, client: str) -> str:
        """List: the analysis jobs of ``client`` waiting for a slot."""
        return f"{self.prefix}:anfair:waiting:{client}"

    def analysis_known(self) -> str:
        """Hash: every analysis job known, active ("a") or waiting ("w")."""
        return f"{self.prefix}:anfair:known"

    def analysis_finished(self) -> str:
        """Sorted set: the analysis jobs finished lately, by when (ms)."""
        return f"{self.prefix}:anfair:finished"

    def analyses_of(self, client: str) -> str:
        """Sorted set: the analyses ``client`` asked for and that are not done yet, by when (ms): its backlog."""
        return f"{self.prefix}:anfair:requests:{client}"

    def analyses_all(self) -> str:
        """Sorted set: every analysis asked for and not done yet, by when (ms): the whole backlog."""
        return f"{self.prefix}:anfair:requests"


# An entry of a game stream as Redis sends it (``EventStore.entries``): ``[b"0-<version>", [b"type", type, b"data",
# data, b"at", at(, b"meta", meta)]]``, its fields in the order append.lua writes them, so read by position: a
# replay folds every entry, and neither a dict nor an object per entry is made on the way (bench/replay.py).
TYPE, DATA, AT, META = 1, 3, 5, 7


def version_of(entry: list) -> int:
    """The version of a raw entry (its id is ``0-<version>``)."""
    return int(entry[0][2:])


def _stored(entries: list) -> list[StoredEvent]:
    """``StoredEvent``s of raw entries (built without the frozen dataclass's ``__init__``, an
    ``object.__setattr__`` per field: a feed makes one per event)."""
    out = []
    for entry_id, fields in entries:
        item = _new_stored(StoredEvent)
        item.__dict__.update(version=int(entry_id[2:]), type=fields[TYPE].decode(), data=fields[DATA],
                             at=int(fields[AT]), meta=fields[META] if len(fields) > META else None)
        out.append(item)
    return out


_new_stored = object.__new__


def _as_sent(client: redis.Redis) -> redis.Redis:
    """A client on ``client``'s connections whose stream reads answer the entries as Redis sends them (hiredis's
    lists), not redis-py's tuple and dict per entry. Shared by the stores on one connection pool while any holds it
    (a client copies a thousand response callbacks when made; it holds its pool, so the pool's id names it)."""
    pool = client.connection_pool
    raw = _as_sent_of.get(id(pool))
    if raw is None:
        raw = _as_sent_of[id(pool)] = redis.Redis(connection_pool=pool)
        for command in ("XRANGE", "XREVRANGE"):
            raw.response_callbacks.pop(command, None)
    return raw


_as_sent_of: weakref.WeakValueDictionary[int, redis.Redis] = weakref.WeakValueDictionary()


def _unparsed(entries: list) -> list:
    """redis-py's parsed entries (a cluster client's) back in the shape Redis sent them."""
    return [[entry_id, [f for name in (b"type", b"data", b"at", b"meta") if name in fields
                        for f in (name, fields[name])]] for entry_id, fields in entries]


class EventStore:
    """Appends and reads game streams. Thread-safe (redis-py pools connections)."""

    def __init__(self, client: redis.Redis, keys: Keys | None = None, ack_replicas: int = 0,
                 ack_timeout_ms: int = 1000):
        self.redis = client
        self.keys = keys or Keys()
        self._append = client.register_script(APPEND_SCRIPT)
        # ``ack_replicas`` > 0: an append is acknowledged only once that many replicas of the game's node have it
        # (WAIT on the connection that ran the script), else ``NotReplicated``.
        self.ack_replicas = ack_replicas
        self.ack_timeout_ms = ack_timeout_ms
        self._cluster = hasattr(client, "get_node_from_key")
        self._replies = None if self._cluster else _as_sent(client)
        # A game's metadata and seat hashes are written before or with its first event and never change, so
        # once seen they are kept (the HTTP command path read both on every request).
        self._known_metas: dict[str, dict] = {}
        self._known_seats: dict[str, dict[int, str]] = {}

    def append(self, gid: str, events: list[tuple[str, bytes]], *, expected_version: int | None,
               command_id: str | None = None, result: bytes = b"", meta: bytes | None = None,
               at: int | None = None, seats: dict[int, str] | None = None) -> AppendResult:
        """Append ``events`` (type, data) atomically, after checking ``expected_version`` and ``command_id``.

        A duplicate ``command_id`` appends nothing and returns the first stored ``result``; a stale
        ``expected_version`` raises ``ConcurrencyError`` and appends nothing. ``meta`` (game name, players…) is
        written with the first event of a new game and only then. ``seats`` (seat → token hash: a seat these
        events take) is written by the same script, so no crash leaves the seat taken without its token.
        """
        if not events:
            raise ValueError("nothing to append")
        args: list[Any] = [
            -1 if expected_version is None else expected_version,
            command_id or "",
            result,
            gid,
            at if at is not None else int(time.time() * 1000),
            meta or b"",
            trace.request_id() or "",  # the request that made these events: its id follows them into jobs
            len(seats or {}),
        ]
        for seat, token_hash in (seats or {}).items():
            args += [str(seat), token_hash]
        for type_, data in events:
            args += [type_, data]
        keys = [self.keys.game(gid), self.keys.cmds(gid), self.keys.log_of(gid), self.keys.seats(gid)]
        if self._cluster or self.ack_replicas:
            status, value = self._append_on_node(keys, args, command_id)
        else:
            try:
                status, value = self._append(keys=keys, args=args)
            except redis.ConnectionError as exc:
                raise StoreUnavailable(str(exc)) from exc
        status = status.decode() if isinstance(status, bytes) else status
        if status == "dup":
            return AppendResult(version=-1, duplicate=True, stored=value)
        if status == "conflict":
            raise ConcurrencyError(int(value))
        return AppendResult(version=int(value))

    def _append_on_node(self, keys: list[str], args: list, command_id: str | None) -> tuple:
        """The append script on the game's node, on one connection, followed by ``WAIT`` when replicas must
        confirm it (WAIT counts the writes of its own connection).

        On a cluster this is also what keeps an append from being sent twice: redis-py's cluster client re-sends a
        command after a connection error, which for a script that may have run is not safe. Here a refusal that
        ran nothing (MOVED, CLUSTERDOWN, TRYAGAIN, READONLY: a failover) refreshes the slot map and tries again, an
        ASK (a slot being resharded) goes to the node named; a connection lost refreshes the map and answers
        ``StoreUnavailable`` (the client retries with its command id).
        """
        last: Exception | None = None
        asked: redis.Redis | None = None  # the slot is migrating and its keys are on this node already (ASK)
        for attempt in range(NODE_ATTEMPTS):
            node = asked or self._node(keys[0])
            try:
                status, value, replicas = self._script_and_wait(node, keys, args, asking=asked is not None)
                if status in (b"dup", "dup") and self.ack_replicas:
                    # The first attempt may not be replicated yet: rewrite its record (same value, a write this
                    # connection makes) so that WAIT covers it and everything before it on this node.
                    replicas = self._rewrite_and_wait(node, keys[1], command_id, value, asking=asked is not None)
            except NOT_RUN as exc:  # MOVED included (an AskError too, caught here first)
                last, asked = exc, None
                self._refresh()
                time.sleep(0.05 * (attempt + 1))
                continue
            except redis.exceptions.AskError as exc:
                # Resharding: the slot moves to another node and these keys are there already. Ask it, once
                # (ASKING), without changing the slot map. (Keys split between the two nodes: TRYAGAIN, above.)
                last, asked = exc, self._client_at(exc.host, exc.port)
                continue
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                self._refresh()
                raise StoreUnavailable(str(exc)) from exc
            if self.ack_replicas and status in (b"ok", b"dup", "ok", "dup") and replicas < self.ack_replicas:
                raise NotReplicated(replicas, self.ack_replicas)
            return status, value
        raise StoreUnavailable(str(last))

    def _node(self, key: str) -> redis.Redis:
        """The client of the node holding ``key`` (the client itself when Redis is not a cluster)."""
        if not self._cluster:
            return self.redis
        node = self.redis.get_node_from_key(key)
        if node.redis_connection is None:
            self._refresh()
            node = self.redis.get_node_from_key(key)
        return node.redis_connection

    def _client_at(self, host: str, port: int) -> redis.Redis:
        """The client of the cluster node at ``host:port`` (the slot map read again if it is not known yet)."""
        node = self.redis.get_node(host=host, port=port)
        if node is None or node.redis_connection is None:
            self._refresh()
            node = self.redis.get_node(host=host, port=port)
        if node is None or node.redis_connection is None:
            raise StoreUnavailable(f"no cluster node {host}:{port}")
        return node.redis_connection

    def _script_and_wait(self, node: redis.Redis, keys: list[str], args: list, asking: bool = False) -> tuple:
        for _ in range(2):
            pipe = node.pipeline(transaction=False)
            if asking:
                pipe.execute_command("ASKING")
            pipe.execute_command("EVALSHA", self._append.sha, len(keys), *keys, *args)
            if self.ack_replicas:
                pipe.execute_command("WAIT", self.ack_replicas, self.ack_timeout_ms)
            answers = pipe.execute(raise_on_error=False)[1 if asking else 0:]
            if isinstance(answers[0], redis.exceptions.NoScriptError):
                self._append.sha = node.script_load(self._append.script)
                continue
            for answer in answers:
                if isinstance(answer, Exception):
                    raise answer
            status, value = answers[0]
            return status, value, answers[1] if self.ack_replicas else 0
        raise StoreUnavailable("the append script could not be loaded")

    def _rewrite_and_wait(self, node: redis.Redis, cmds_key: str, command_id: str | None, value: bytes,
                          asking: bool = False) -> int:
        pipe = node.pipeline(transaction=False)
        if asking:
            pipe.execute_command("ASKING")
        pipe.hset(cmds_key, command_id, value)
        pipe.execute_command("WAIT", self.ack_replicas, self.ack_timeout_ms)
        return pipe.execute()[-1]

    def _refresh(self) -> None:
        """Read the cluster's slot map again (after a failover the slots have a new master)."""
        if self._cluster:
            with contextlib.suppress(redis.RedisError, redis.exceptions.RedisClusterException):
                self.redis.nodes_manager.initialize()  # else the next command tries again

    def version(self, gid: str) -> int:
        """The game's current version (0: no such game)."""
        return self.redis.xlen(self.keys.game(gid))

    def read(self, gid: str, after: int = 0, to: int | None = None, batch: int = 1000) -> Iterator[StoredEvent]:
        """Events with ``after < version <= to``, in order, read in batches."""
        for page in self._pages(gid, after, to, batch):
            yield from _stored(page)

    def entries(self, gid: str, after: int = 0, to: int | None = None, batch: int = 1000) -> Iterator[list]:
        """``read``'s events as raw entries (``DATA``, ``AT``, ``version_of``): for a fold over every event."""
        return chain.from_iterable(self._pages(gid, after, to, batch))

    def _pages(self, gid: str, after: int, to: int | None, batch: int) -> Iterator[list]:
        key = self.keys.game(gid)
        start = after + 1
        while to is None or start <= to:
            page = self._xrange(key, f"0-{start}", "+" if to is None else f"0-{to}", batch)
            yield page
            if len(page) < batch:
                return
            start = version_of(page[-1]) + 1

    def _xrange(self, key: str, start: str, end: str, count: int, newest_first: bool = False) -> list:
        """Raw entries of ``key`` from ``start`` to ``end`` (``newest_first``: XREVRANGE, from ``end`` down)."""
        client = self.redis if self._cluster else self._replies
        entries = (client.xrevrange(key, end, start, count=count) if newest_first
                   else client.xrange(key, start, end, count=count))
        return _unparsed(entries) if self._cluster else entries

    def tails(self, wants: list[tuple[str, int]], batch: int = 1000) -> list[tuple[StoredEvent | None, list]]:
        """For each ``(gid, after)``: the game's latest event (None: no such game) and up to ``batch`` raw entries
        after version ``after`` (``entries``), all in one round trip (a pipeline; on a cluster, one read after
        another)."""
        if self._cluster:
            return [(self._latest(gid), list(self.entries(gid, after=after, to=after + batch)))
                    for gid, after in wants]
        pipe = self._replies.pipeline(transaction=False)
        for gid, after in wants:
            key = self.keys.game(gid)
            pipe.xrevrange(key, "+", "-", count=1)  # first: the tail read next reaches at least this version
            pipe.xrange(key, f"0-{after + 1}", "+", count=batch)
        replies = pipe.execute()
        return [(next(iter(_stored(replies[i])), None), replies[i + 1]) for i in range(0, len(replies), 2)]

    def writer(self):
        """A pipeline to send commands (scripts included) in one go, or None on a cluster: one by one there."""
        return None if self._cluster else self.redis.pipeline(transaction=False)

    def _latest(self, gid: str) -> StoredEvent | None:
        return next(iter(_stored(self._xrange(self.keys.game(gid), "-", "+", 1, newest_first=True))), None)

    def meta(self, gid: str) -> dict | None:
        """The game's metadata (written with its first event), or None if there is no such game."""
        meta = self._known_metas.get(gid)
        if meta is not None:
            return meta
        first = self._xrange(self.keys.game(gid), "0-1", "0-1", 1)
        if not first:
            return None
        meta = json.loads(first[0][1][META])
        _keep(self._known_metas, gid, meta)
        return meta

    def known_meta(self, gid: str) -> dict | None:
        """The game's metadata if this process has read it already (no round trip), else None."""
        return self._known_metas.get(gid)

    def meta_of(self, gid: str, first: list) -> dict:
        """The game's metadata from its first entry as ``entries`` gave it (kept like ``meta``'s, with no read of
        its own)."""
        meta = self._known_metas.get(gid)
        if meta is None:
            meta = json.loads(first[1][META])
            _keep(self._known_metas, gid, meta)
        return meta

    def command_result(self, gid: str, command_id: str) -> bytes | None:
        """The stored result of a command id already applied, if any."""
        return self.redis.hget(self.keys.cmds(gid), command_id)

    def set_seat_hashes(self, gid: str, hashes: dict[int, str]) -> None:
        if hashes:
            self.redis.hset(self.keys.seats(gid), mapping={str(s): h for s, h in hashes.items()})

    def seat_hashes(self, gid: str, fresh: bool = False) -> dict[int, str]:
        """Seat → token hash. Kept once read; ``fresh`` reads again (an open seat taken since gets its hash)."""
        hashes = None if fresh else self._known_seats.get(gid)
        if hashes is not None:
            return hashes
        raw = self.redis.hgetall(self.keys.seats(gid))
        hashes = {int(k): v.decode() for k, v in raw.items()}
        if hashes:  # none yet: the game may be being created
            _keep(self._known_seats, gid, hashes)
        return hashes

    def ping(self) -> None:
        """Raise the client's connection error unless Redis answers now."""
        self.redis.ping()

    def reachable(self) -> bool:
        """Whether Redis answers a PING now (the health check)."""
        try:
            return bool(self.redis.ping())
        except redis.RedisError:
            return False

    def game_ids(self) -> Iterator[str]:
        """Every game id in the store (scans the keyspace; for rebuilds and exports)."""
        for key in self.redis.scan_iter(match=f"{self.keys.prefix}:{{p*}}:game:*", count=1000, _type="stream"):
            yield key.decode().rsplit(":", 1)[1]


KEPT_GAMES = 10_000


def _keep(cache: dict, gid: str, value) -> None:
    """Keep ``value`` for ``gid``; past ``KEPT_GAMES`` games start over (a bound, not an LRU)."""
    if len(cache) >= KEPT_GAMES:
        cache.clear()
    cache[gid] = value
