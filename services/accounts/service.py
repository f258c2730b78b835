"""The accounts' use cases: sign up, sign in and out, passwords, and who a session is."""

from __future__ import annotations

import re
import time

import redis

from domain.text import Text
from services import errors
from services.accounts import events as ev
from services.accounts import passwords
from services.accounts.gate import HashGate
from services.accounts.seats import AccountSeats
from services.accounts.sessions import Session, Sessions
from services.accounts.store import Account, AccountStore, taken
from services.bounds import check_unicode
from services.clients import client_id
from services.config import Limits
from services.store.streams import Keys

USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}\Z")
MAX_FIELD = 200  # characters of a username or password field worth reading before refusing it


class SignupsExceeded(errors.TooMany):
    code = "too_many_accounts"


class BadCredentials(errors.Unauthorized):
    code = "bad_credentials"


class SignedOut(errors.Unauthorized):
    code = "signed_out"


def check_username(name: object, field: str = "username") -> str:
    """``name`` if it is a username we accept: 3 to 20 letters, digits, ``_`` or ``-``, starting with a letter."""
    if not isinstance(name, str):
        raise errors.Unprocessable(Text("{field}: must be a string", field=field), field=field)
    if not USERNAME.match(name):
        shown = name[:40] + ("…" if len(name) > 40 else "")
        raise errors.Unprocessable(Text("{field}: {name} is not a username: 3 to 20 letters (a to z), digits, "
                                        "'_' or '-', starting with a letter", field=field, name=repr(shown)),
                                   field=field)
    return name


class Accounts:
    """Accounts, sessions, sign-in attempts and the accounts' seats over one Redis; ``journal``: the embedded
    mode's (``services/store/journal.py``, ``AccountJournal``)."""

    def __init__(self, client: redis.Redis, keys: Keys, journal=None,
                 signups_per_hour: int | None = Limits().accounts_per_hour_per_client):
        self.redis = client
        self.keys = keys
        self.store = AccountStore(client, keys, journal)
        self.sessions = Sessions(client, keys, journal)
        self.attempts = passwords.Attempts(client, keys)
        self.gate = HashGate()  # this process's turns at hashing (services/accounts/gate.py)
        self.seats = AccountSeats(client, keys, journal)
        self.signups_per_hour = signups_per_hour  # per address an hour (throwaway accounts); None or 0: no limit
        if journal is not None:
            self.restore(journal)

    # -- signing up and in -----------------------------------------------------------------------------------

    def sign_up(self, username: object, password: object, address: str | None,
                agent: str | None) -> tuple[str, Account]:
        """A new account with a password, and a session of it: ``(session id, account)``."""
        check_unicode(username, "username")
        check_unicode(password, "password")
        username = check_username(username)
        password = passwords.check_password(password)
        if self.store.is_username(username):  # before the hash is paid for; the claim decides in the end
            raise taken(username)
        self.spend_signup(address)
        hashed = self.gate.run(lambda: passwords.hash_password(password))
        account = self.store.create(username, [ev.PasswordSet(hash=hashed)])
        session_id, _ = self.sessions.open(account.id, agent)
        return session_id, account

    def spend_signup(self, address: str | None) -> None:
        """Count one account made from ``address``; ``SignupsExceeded`` past the hourly limit."""
        client = client_id(address)
        if not client or not self.signups_per_hour:
            return
        key = self.keys.signups(client)
        pipe = self.redis.pipeline(transaction=True)
        pipe.incr(key)
        pipe.expire(key, 3600, nx=True)
        count, _ = pipe.execute()
        if count > self.signups_per_hour:
            raise SignupsExceeded(Text("at most {n} accounts an hour from one address; try again later",
                                       n=self.signups_per_hour))

    def sign_in(self, username: object, password: object, address: str | None,
                agent: str | None) -> tuple[str, Account]:
        """A new session for the account whose password this is; ``BadCredentials`` alike for an unknown name and
        a wrong password (both verify one argon2 hash), ``TooManyAttempts`` past a limit, ``Busy`` when the hash
        gate is full. The try is counted (``Attempts.reserve``) before its password is checked."""
        for name, value in (("username", username), ("password", password)):
            if not isinstance(value, str):
                raise errors.Unprocessable(Text("{field}: must be a string", field=name), field=name)
            if len(value) > (passwords.MAX_LENGTH if name == "password" else MAX_FIELD):
                raise errors.Unprocessable(Text("{field}: too long", field=name), field=name)
            check_unicode(value, name)
        attempt = self.attempts.reserve(username, client_id(address))
        account = self.store.by_username(username) if USERNAME.match(username) else None
        try:
            right = self.gate.run(lambda: passwords.verify(account.password if account else None, password))
        except BaseException:
            self.attempts.cancel(attempt)
            raise
        if not right:
            raise BadCredentials(Text("The username or the password is wrong."))
        self.attempts.succeeded(attempt)
        session_id, _ = self.sessions.open(account.id, agent)
        return session_id, account

    def signed_in(self, session_id: str | None) -> tuple[Session, Account] | None:
        """The session of this cookie value and its account, or None."""
        session = self.sessions.find(session_id)
        if session is None or session.guest:
            return None
        account = self.store.load(session.account)
        return (session, account) if account is not None else None

    def set_password(self, account: Account, password: object, current: object,
                     session: Session | None = None) -> Account:
        """Set or change the account's password; changing one needs the current one. Its guesses are limited
        (``passwords.CURRENT_GUESSES`` wrong ones in 15 minutes, for the account): the one that reaches the limit
        ends ``session`` (``SignedOut``), and until the window passes every session of the account gets 429."""
        check_unicode(password, "password")
        check_unicode(current, "current_password")
        password = passwords.check_password(password)
        if account.password is not None:
            if not isinstance(current, str) or len(current) > passwords.MAX_LENGTH:
                raise errors.Unprocessable(Text("current_password: it is not this account's password"),
                                           field="current_password")
            attempt = self.attempts.reserve_current(account.id)
            try:
                right = self.gate.run(lambda: passwords.verify(account.password, current))
            except BaseException:
                self.attempts.cancel(attempt)
                raise
            if not right:
                if self.attempts.failures(attempt) >= passwords.CURRENT_GUESSES and session is not None:
                    self.sessions.revoke(session)
                    raise SignedOut(Text("too many wrong passwords: this session has ended; sign in again"))
                raise errors.Unprocessable(Text("current_password: it is not this account's password"),
                                           field="current_password")
            self.attempts.succeeded(attempt)
        hashed = self.gate.run(lambda: passwords.hash_password(password))

        def decide(now: Account) -> list:
            if now.password != account.password:  # changed meanwhile: checked against the one it replaced
                raise errors.Conflict(Text("the account changed meanwhile; try again"))
            return [ev.PasswordSet(hash=hashed)]

        return self.store.change(account, decide)

    def open_session(self, account: Account, agent: str | None) -> str:
        session_id, _ = self.sessions.open(account.id, agent)
        return session_id

    # -- for the games -------------------------------------------------------------------------------------

    def is_username(self, name: str) -> bool:
        return self.store.is_username(name)

    def seat(self, account: Account, gid: str, seat: int, token: str | None) -> None:
        """Keep the account's seat and its token (``GET /api/me/games``)."""
        self.seats.add(account.id, gid, seat, token)

    # -- the embedded mode's journal -----------------------------------------------------------------------

    def restore(self, journal) -> int:
        """Replay the journal into Redis (accounts, seats, live sessions); the records applied."""
        now = int(time.time() * 1000)
        count = 0
        for record in journal.records():
            op = record.get("op")
            try:
                if op in ("create", "append", "language"):
                    self.store.restore(record)
                elif op == "seat":
                    self.seats.restore(record)
                elif op in ("session", "seen", "revoke"):
                    self.sessions.restore(record, now)
                else:
                    continue
            except (KeyError, TypeError, ValueError, redis.ResponseError):
                continue
            count += 1
        return count
