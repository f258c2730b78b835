"""Accounts as event streams: one stream per account (``Keys.account``), a name claimed in the same script as the
account's first event (``services/lua/create_account.lua``), a passkey's credential id in the same script as the
event that adds it. Streams are never trimmed; in the embedded mode each write is also journaled (``journal``)."""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import redis

from domain.text import Text
from services import errors
from services.accounts import events as ev
from services.accounts.confusables import name_keys
from services.scripts import lua
from services.store.optimistic import Again, retry
from services.store.streams import Keys

CREATE = lua("create_account")
APPEND = lua("append_account")


class UsernameTaken(errors.Conflict):
    code = "username_taken"


class CredentialTaken(errors.Conflict):
    code = "passkey_taken"


def taken(username: str) -> UsernameTaken:
    """The error for a name that is an account's already."""
    return UsernameTaken(Text("username: {name} is taken (names are unique ignoring case)", name=repr(username)),
                         field="username")


@dataclass(frozen=True)
class Passkey:
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    device: str
    added: int


@dataclass(frozen=True)
class PushSubscription:
    id: str
    endpoint: str
    p256dh: str
    auth: str
    device: str
    added: int


@dataclass(frozen=True)
class Account:
    """An account folded from its events."""

    id: str
    username: str
    created: int
    version: int = 0
    password: str | None = None
    passkeys: dict[str, Passkey] = field(default_factory=dict)
    language: str | None = None
    email: str | None = None
    email_verified: bool = False
    notify: dict[str, dict[str, bool]] = field(default_factory=dict)
    """Per channel (``email``, ``push``) the kinds switched on or off; a kind not named is on."""
    push: dict[str, PushSubscription] = field(default_factory=dict)
    vacation: bool = False

    def wants(self, channel: str, kind: str) -> bool:
        """Whether ``kind`` of notification may reach the account by ``channel`` (``email``, ``push``)."""
        return self.notify.get(channel, {}).get(kind, True)


def evolve(account: Account | None, event: ev.AccountEvent, account_id: str, at: int) -> Account:
    """The account after one of its events."""
    match event:
        case ev.AccountCreated(username=username):
            return Account(account_id, username, at, 1)
        case ev.PasswordSet(hash=hashed):
            return replace(account, password=hashed, version=account.version + 1)
        case ev.PasskeyAdded():
            key = Passkey(event.credential_id, event.public_key, event.sign_count, tuple(event.transports),
                          event.device, at)
            return replace(account, passkeys={**account.passkeys, event.credential_id: key},
                           version=account.version + 1)
        case ev.PasskeyUsed(credential_id=cid, sign_count=count):
            keys = dict(account.passkeys)
            if cid in keys:
                keys[cid] = replace(keys[cid], sign_count=count)
            return replace(account, passkeys=keys, version=account.version + 1)
        case ev.LanguageChosen(lang=lang):
            return replace(account, language=lang, version=account.version + 1)
        case ev.EmailSet(address=address):
            return replace(account, email=address or None, email_verified=False, version=account.version + 1)
        case ev.EmailVerified(address=address):
            verified = account.email_verified or address == account.email
            return replace(account, email_verified=verified, version=account.version + 1)
        case ev.NotificationsSet(email=email, push=push):
            notify = {"email": {**account.notify.get("email", {}), **email},
                      "push": {**account.notify.get("push", {}), **push}}
            return replace(account, notify=notify, version=account.version + 1)
        case ev.PushSubscribed():
            sub = PushSubscription(event.id, event.endpoint, event.p256dh, event.auth, event.device, at)
            return replace(account, push={**account.push, event.id: sub}, version=account.version + 1)
        case ev.PushUnsubscribed(id=sid):
            return replace(account, push={k: v for k, v in account.push.items() if k != sid},
                           version=account.version + 1)
        case ev.VacationSet(on=on):
            return replace(account, vacation=on, version=account.version + 1)
    raise ValueError(f"not an account event: {event!r}")


def new_account_id() -> str:
    return secrets.token_hex(8)


class AccountStore:
    """Creates, appends to and loads accounts; ``journal`` (the embedded mode's) gets every write."""

    def __init__(self, client: redis.Redis, keys: Keys, journal=None):
        self.redis = client
        self.keys = keys
        self.journal = journal
        self._create = client.register_script(CREATE)
        self._append = client.register_script(APPEND)

    def create(self, username: str, events: list[ev.AccountEvent], credential: str = "",
               at: int | None = None, account_id: str | None = None) -> Account:
        """A new account named ``username`` with ``AccountCreated`` and then ``events``; ``UsernameTaken`` if the
        name (ignoring case) is someone's, ``CredentialTaken`` if the passkey is."""
        at = at if at is not None else int(time.time() * 1000)
        account_id = account_id or new_account_id()
        encoded = [ev.encode(e) for e in (ev.AccountCreated(username=username), *events)]
        status = self._run_create(account_id, username.lower(), at, credential, encoded)
        if status == "taken":
            raise taken(username)
        if status == "credential":
            raise CredentialTaken("this passkey belongs to an account already")
        if status != "ok":
            raise errors.Conflict(Text("the account could not be made; try again"))
        self._journal({"op": "create", "id": account_id, "lower": username.lower(), "at": at,
                       "credential": credential, "events": _b64(encoded)})
        self.index_name(username, account_id)
        return self.load(account_id)

    def index_name(self, username: str, account_id: str) -> None:
        """Keep what ``username`` looks like (``confusables.name_keys``), for ``looks_like_a_username``."""
        self.redis.hset(self.keys.name_keys(), mapping=dict.fromkeys(name_keys(username), account_id))

    def looks_like_a_username(self, name: str) -> bool:
        """Whether ``name`` looks like an account's username (``confusables.name_keys``, UTS #39 skeletons)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in name_keys(name):
            pipe.hexists(self.keys.name_keys(), key)
        return any(pipe.execute())

    def index_names(self) -> int:
        """Index every username that is not yet (accounts made before the index); how many were added."""
        added = 0
        for _, account_id in self.redis.hscan_iter(self.keys.usernames()):
            account = self.load(account_id.decode())
            if account is not None:
                keys = name_keys(account.username)
                if not all(self.redis.hmget(self.keys.name_keys(), list(keys))):
                    self.index_name(account.username, account.id)
                    added += 1
        return added

    def _run_create(self, account_id: str, lower: str, at: int, credential: str, encoded) -> str:
        args: list = [lower, account_id, at, credential]
        for type_, data in encoded:
            args += [type_, data]
        status, _ = self._create(keys=[self.keys.usernames(), self.keys.account(account_id), self.keys.passkeys()],
                                 args=args)
        return status.decode() if isinstance(status, bytes) else status

    def change(self, account: Account, decide: Callable[[Account], list[ev.AccountEvent]], credential: str = ""
               ) -> Account:
        """The account after ``decide``'s events (none: unchanged), decided on ``account`` and, while another
        write moves it on meanwhile, on the account loaded again (``services/store/optimistic.py``)."""
        current = account

        def attempt() -> Account:
            nonlocal current
            events = decide(current)
            if not events:
                return current
            written = self._try_append(current, events, credential)
            if written is None:
                current = self.load(account.id) or current
                raise Again
            return written

        return retry(attempt, lambda: errors.Conflict(Text("the account changed meanwhile; try again")))

    def append(self, account: Account, events: list[ev.AccountEvent], credential: str = "",
               at: int | None = None) -> Account:
        """``events`` appended to ``account`` if it is still at ``account.version`` (``errors.Conflict`` if not;
        ``change`` decides again instead)."""
        written = self._try_append(account, events, credential, at)
        if written is None:
            raise errors.Conflict(Text("the account changed meanwhile; try again"))
        return written

    def _try_append(self, account: Account, events: list[ev.AccountEvent], credential: str,
                    at: int | None = None) -> Account | None:
        """``events`` appended to ``account`` if it is still at ``account.version`` (None if not)."""
        at = at if at is not None else int(time.time() * 1000)
        encoded = [ev.encode(e) for e in events]
        status = self._run_append(account.id, account.version, at, credential, encoded)
        if status == "credential":
            raise CredentialTaken("this passkey belongs to another account")
        if status != "ok":
            return None
        self._journal({"op": "append", "id": account.id, "version": account.version, "at": at,
                       "credential": credential, "events": _b64(encoded)})
        for event in events:
            account = evolve(account, event, account.id, at)
        self._index_emails(account.id, events)
        return account

    def _index_emails(self, account_id: str, events: list[ev.AccountEvent]) -> None:
        """A verified address finds its account (password reset): ``Keys.emails``, the latest verification's."""
        for event in events:
            if isinstance(event, ev.EmailVerified):
                self.redis.hset(self.keys.emails(), event.address.lower(), account_id)

    def _run_append(self, account_id: str, version: int, at: int, credential: str, encoded) -> str:
        args: list = [version, at, credential, account_id]
        for type_, data in encoded:
            args += [type_, data]
        status, _ = self._append(keys=[self.keys.account(account_id), self.keys.passkeys()], args=args)
        return status.decode() if isinstance(status, bytes) else status

    def load(self, account_id: str) -> Account | None:
        """The account folded from its stream (None: no such account), with the language it keeps as a value."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.keys.account(account_id))
        pipe.get(self.keys.account_language(account_id))
        entries, language = pipe.execute()
        account = None
        for _, fields in entries:
            account = evolve(account, ev.decode(fields[b"data"]), account_id, int(fields[b"at"]))
        if account is not None and language is not None:
            account = replace(account, language=language.decode())
        return account

    def set_language(self, account_id: str, lang: str) -> None:
        """Keep the account's language (a value, overwritten: a setting, not an event of the account's history;
        ``language_chosen`` events of older accounts still fold, and this overrides them)."""
        self.redis.set(self.keys.account_language(account_id), lang)
        self._journal({"op": "language", "id": account_id, "lang": lang})

    def id_of(self, username: str) -> str | None:
        """The id of the account named ``username`` (ignoring case), or None."""
        found = self.redis.hget(self.keys.usernames(), username.lower())
        return found.decode() if found is not None else None

    def by_username(self, username: str) -> Account | None:
        account_id = self.id_of(username)
        return self.load(account_id) if account_id else None

    def by_credential(self, credential_id: str) -> Account | None:
        found = self.redis.hget(self.keys.passkeys(), credential_id)
        return self.load(found.decode()) if found is not None else None

    def is_username(self, name: str) -> bool:
        """Whether ``name`` is an account's username, ignoring case."""
        return bool(self.redis.hexists(self.keys.usernames(), name.lower()))

    def _journal(self, record: dict) -> None:
        if self.journal is not None:
            self.journal.write(record)

    def restore(self, record: dict) -> None:
        """Apply one journaled account write again (the embedded mode's start); one already in Redis changes
        nothing."""
        if record["op"] == "language":
            self.redis.set(self.keys.account_language(record["id"]), record["lang"])
            return
        encoded = [(t, base64.b64decode(d)) for t, d in record["events"]]
        if record["op"] == "create":
            self._run_create(record["id"], record["lower"], record["at"], record["credential"], encoded)
            account = self.load(record["id"])
            if account is not None:
                self.index_name(account.username, account.id)
        elif record["op"] == "append":
            self._run_append(record["id"], record["version"], record["at"], record["credential"], encoded)
            self._index_emails(record["id"], [ev.decode(data) for _, data in encoded])


def _b64(encoded: list[tuple[str, bytes]]) -> list[list[str]]:
    return [[t, base64.b64encode(d).decode()] for t, d in encoded]
