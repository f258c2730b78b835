"""Sessions: a random id in the ``burrow_session`` cookie; Redis keeps only its SHA-256, with the account, when it
was made and last seen, and a summary of the browser, for 30 days after it was last seen (sliding). Signing out
deletes it on the server; every sign-in makes a new id.

A guest has a session too (docs/api.md "The first ten minutes"): made by the first request that needs one (a guest
seek, a guest taking a seat by invite), its "account" a guest id (``guest:`` and random hex, never an account's id)
and its ``name`` the name the guest gave; its seats and notifications are kept under that id, in that browser."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass, replace

import redis

from services.people.notifications import LOG_KEPT
from services.store.streams import Keys

LIFETIME_MS = 30 * 24 * 3600 * 1000
TOUCH_MS = 10 * 60 * 1000  # "last seen" and the expiry move on at most this often (not a write per request)
MAX_ID = 100  # characters of a cookie value worth looking up
MAX_PER_ACCOUNT = 20  # sessions an account keeps: a new one beyond ends the oldest
REVOKED = b'{"type":"revoked"}'  # a revocation on the notifications log: no content, the session's hash names it
GUEST = "guest:"  # a guest session's "account": this and random hex


@dataclass(frozen=True)
class Session:
    hash: str
    account: str
    created: int
    seen: int
    agent: str
    name: str = ""
    """A guest's name (empty for an account's session)."""

    @property
    def guest(self) -> bool:
        return self.account.startswith(GUEST)

    @property
    def public_id(self) -> str:
        """A name for this session in the list of one's sessions (not its id, which only its browser holds)."""
        return self.hash[:16]


def session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def agent_summary(user_agent: str | None) -> str:
    """"Firefox on Linux", "Chrome on Android": what a person recognises a device by; never the whole string."""
    ua = user_agent or ""
    browser = next((name for pattern, name in (
        (r"Edg/", "Edge"), (r"OPR/|Opera", "Opera"), (r"Firefox/", "Firefox"), (r"Chrome/|Chromium/", "Chrome"),
        (r"Safari/", "Safari"), (r"curl/", "curl"), (r"python", "a Python program")) if re.search(pattern, ua)),
        "a browser")
    system = next((name for pattern, name in (
        (r"Android", "Android"), (r"iPhone|iPad|iPod", "iOS"), (r"Windows", "Windows"),
        (r"Mac OS X|Macintosh", "macOS"), (r"CrOS", "ChromeOS"), (r"Linux", "Linux")) if re.search(pattern, ua)),
        None)
    return f"{browser} on {system}" if system else browser


class Sessions:
    """Opens, finds, lists and revokes sessions; ``journal`` (the embedded mode's) gets every change."""

    def __init__(self, client: redis.Redis, keys: Keys, journal=None):
        self.redis = client
        self.keys = keys
        self.journal = journal

    def open(self, account_id: str, user_agent: str | None) -> tuple[str, Session]:
        """A new session of ``account_id``: its id (for the cookie, shown once) and the session."""
        session_id = secrets.token_urlsafe(32)
        now = int(time.time() * 1000)
        session = Session(session_hash(session_id), account_id, now, now, agent_summary(user_agent))
        self._write(session, now + LIFETIME_MS)
        if self.journal is not None:
            self.journal.write({"op": "session", "hash": session.hash, "account": account_id, "created": now,
                                "seen": now, "agent": session.agent, "expires": now + LIFETIME_MS})
        self._cap(account_id)
        return session_id, session

    def _cap(self, account_id: str) -> None:
        """End the account's oldest sessions beyond ``MAX_PER_ACCOUNT`` (every sign-in makes one: nothing else
        bounds them)."""
        index = self.keys.account_sessions(account_id)
        if self.redis.zcard(index) <= MAX_PER_ACCOUNT:
            return
        for hashed in self.redis.zrange(index, 0, -MAX_PER_ACCOUNT - 1):
            hashed = hashed.decode()
            found = self._read(hashed)
            self.revoke(found or Session(hashed, account_id, 0, 0, ""))

    def open_guest(self, name: str, user_agent: str | None) -> tuple[str, Session]:
        """A new guest session under ``name`` (checked already): its id (for the cookie, shown once) and the
        session, whose ``account`` is a new guest id."""
        session_id = secrets.token_urlsafe(32)
        now = int(time.time() * 1000)
        session = Session(session_hash(session_id), GUEST + secrets.token_hex(8), now, now,
                          agent_summary(user_agent), name)
        self._write(session, now + LIFETIME_MS)
        if self.journal is not None:
            self.journal.write({"op": "session", "hash": session.hash, "account": session.account, "created": now,
                                "seen": now, "agent": session.agent, "expires": now + LIFETIME_MS, "name": name})
        return session_id, session

    def rename_guest(self, session: Session, name: str) -> Session:
        """The guest ``session`` under a new ``name`` (checked already); its id and seats stay."""
        renamed = replace(session, name=name)
        expires = session.seen + LIFETIME_MS
        self._write(renamed, expires)
        if self.journal is not None:
            self.journal.write({"op": "session", "hash": session.hash, "account": session.account,
                                "created": session.created, "seen": session.seen, "agent": session.agent,
                                "expires": expires, "name": name})
        return renamed

    def _write(self, session: Session, expires: int) -> None:
        key = self.keys.session(session.hash)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, mapping={"account": session.account, "created": session.created, "seen": session.seen,
                                "agent": session.agent, **({"name": session.name} if session.name else {})})
        pipe.pexpireat(key, expires)
        pipe.zadd(self.keys.account_sessions(session.account), {session.hash: session.created})
        pipe.execute()

    def find(self, session_id: str | None) -> Session | None:
        """The live session of this cookie value, its "last seen" moved on (and so its expiry); None if none."""
        if not session_id or len(session_id) > MAX_ID:
            return None
        session = self._read(session_hash(session_id))
        if session is None:
            return None
        now = int(time.time() * 1000)
        if now - session.seen >= TOUCH_MS:
            key = self.keys.session(session.hash)
            pipe = self.redis.pipeline(transaction=True)
            pipe.hset(key, "seen", now)
            pipe.pexpireat(key, now + LIFETIME_MS)
            pipe.execute()
            if self.journal is not None:
                self.journal.write({"op": "seen", "hash": session.hash, "seen": now, "expires": now + LIFETIME_MS})
            session = replace(session, seen=now)
        return session

    def _read(self, hashed: str) -> Session | None:
        raw = self.redis.hgetall(self.keys.session(hashed))
        if not raw or b"account" not in raw:
            return None
        return Session(hashed, raw[b"account"].decode(), int(raw[b"created"]), int(raw[b"seen"]),
                       raw.get(b"agent", b"").decode(), raw.get(b"name", b"").decode())

    def of_account(self, account_id: str) -> list[Session]:
        """The account's live sessions, newest first (those expired meanwhile are dropped from its list)."""
        index = self.keys.account_sessions(account_id)
        hashes = [h.decode() for h in self.redis.zrevrange(index, 0, -1)]
        live, gone = [], []
        for hashed in hashes:
            session = self._read(hashed)
            if session is not None and session.account == account_id:
                live.append(session)
            else:
                gone.append(hashed)
        if gone:
            self.redis.zrem(index, *gone)
        return live

    def revoke(self, session: Session) -> None:
        """End ``session`` on the server: its cookie no longer signs anyone in, and its open streams close, in
        every web process (a ``session:<hash>`` entry on the notifications log, which every hub follows)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(self.keys.session(session.hash))
        pipe.zrem(self.keys.account_sessions(session.account), session.hash)
        pipe.execute()
        if self.journal is not None:
            self.journal.write({"op": "revoke", "hash": session.hash, "account": session.account})
        self.redis.xadd(self.keys.notifications_log(), {"to": f"session:{session.hash}", "data": REVOKED},
                        maxlen=LOG_KEPT, approximate=True)

    def exists(self, hashed: str) -> bool:
        """Whether the session of this hash is live."""
        return bool(self.redis.exists(self.keys.session(hashed)))

    def revoke_all(self, account_id: str) -> int:
        """End every session of the account ("sign out everywhere"); how many there were."""
        sessions = self.of_account(account_id)
        for session in sessions:
            self.revoke(session)
        return len(sessions)

    def restore(self, record: dict, now: int) -> None:
        """Apply one journaled session change again (the embedded mode's start)."""
        if record["op"] == "session" and record["expires"] > now:
            self._write(Session(record["hash"], record["account"], record["created"], record["seen"],
                                record["agent"], record.get("name", "")), record["expires"])
        elif record["op"] == "seen" and record["expires"] > now:
            key = self.keys.session(record["hash"])
            if self.redis.exists(key):
                self.redis.hset(key, "seen", record["seen"])
                self.redis.pexpireat(key, record["expires"])
        elif record["op"] == "revoke":
            self.redis.delete(self.keys.session(record["hash"]))
            self.redis.zrem(self.keys.account_sessions(record["account"]), record["hash"])
