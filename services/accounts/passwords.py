"""Passwords: argon2id hashes (``argon2-cffi``), verified in the same time whether the account exists or not, and
the failed tries counted per username and per client address, so that guessing is slow and the limit says
nothing about which names exist."""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from dataclasses import dataclass

import redis
from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from domain.text import Text
from services import errors
from services.scripts import lua
from services.store.streams import Keys

MIN_LENGTH = 8
MAX_LENGTH = 1024  # hashing cost does not depend on it much, but a body of megabytes is no password
WINDOW_MS = 15 * 60 * 1000
PER_USERNAME = 10  # failed sign-ins of one name in WINDOW_MS
PER_CLIENT = 50  # failed sign-ins from one address in WINDOW_MS
CHECK_WINDOW_MS = 60 * 1000
CHECKS_PER_USERNAME = 10  # sign-ins of one name, right or wrong, in CHECK_WINDOW_MS
CHECKS_PER_CLIENT = 60  # sign-ins from one address, right or wrong, in CHECK_WINDOW_MS
CURRENT_GUESSES = 5  # wrong current passwords of one account in WINDOW_MS: the session guessing ends

PARAMETERS = profiles.RFC_9106_LOW_MEMORY  # argon2id, t=3, 64 MiB, p=4: RFC 9106's second recommended option
_hasher = PasswordHasher.from_parameters(PARAMETERS)


class TooManyAttempts(errors.ServiceError):
    status, code = 429, "too_many_attempts"


def check_password(password: object, field: str = "password") -> str:
    """The password, if it is one we accept (8 to 1024 characters); else a 422 naming ``field``."""
    if not isinstance(password, str):
        raise errors.Unprocessable(Text("{field}: must be a string", field=field), field=field)
    if len(password) < MIN_LENGTH:
        raise errors.Unprocessable(Text("{field}: at least {n} characters", field=field, n=MIN_LENGTH),
                                   field=field)
    if len(password) > MAX_LENGTH:
        raise errors.Unprocessable(Text("{field}: at most {n} characters", field=field, n=MAX_LENGTH), field=field)
    return password


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (salted; its encoded form carries the parameters)."""
    return _hasher.hash(password)


@functools.cache
def _dummy() -> str:
    """A hash of nothing anyone knows, with the same parameters: what an unknown name is verified against."""
    return _hasher.hash(secrets.token_urlsafe(24))


def verify(hashed: str | None, password: str) -> bool:
    """Whether ``password`` matches ``hashed``; with no hash (an unknown name, an account with passkeys only) a
    dummy hash is verified instead, so every answer costs one argon2 verification."""
    try:
        return _hasher.verify(hashed or _dummy(), password) and hashed is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


class Attempts:
    """Sign-in attempts in sliding windows, per username (any name, known or not) and per client address:
    failures over ``WINDOW_MS`` (``PER_USERNAME``, ``PER_CLIENT``) and every password check, right or wrong, over
    ``CHECK_WINDOW_MS`` (``CHECKS_PER_USERNAME``, ``CHECKS_PER_CLIENT``). A try is *reserved* in all of them, by
    one script, before its password is checked (``reserve``): racing tries cannot all pass a limit that counted
    failures only once their slow hash was done. A right password then takes its failure back (``succeeded``);
    a try the hash gate refused takes back everything (``cancel``)."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys
        self._reserve = client.register_script(lua("sliding_rates"))

    def _names(self, kind: str, who: str, client: str | None) -> list[tuple[str, int, int]]:
        """``(key, window, limit)``: the failures first, then the checks."""
        limits = [(self.keys.attempts(kind, who), WINDOW_MS, PER_USERNAME if kind == "name" else CURRENT_GUESSES)]
        if client:
            limits.append((self.keys.attempts("client", client), WINDOW_MS, PER_CLIENT))
        limits.append((self.keys.attempts(f"{kind}-checks", who), CHECK_WINDOW_MS,
                       CHECKS_PER_USERNAME if kind == "name" else CURRENT_GUESSES))
        if client:
            limits.append((self.keys.attempts("client-checks", client), CHECK_WINDOW_MS, CHECKS_PER_CLIENT))
        return limits

    def reserve(self, username: str, client: str | None) -> Attempt:
        """Count one sign-in try of ``username`` from ``client`` as a failure and a check, now, before its
        password is checked; ``TooManyAttempts`` (nothing counted) when a limit is reached."""
        return self._take("name", _name(username), client)

    def reserve_current(self, account_id: str) -> Attempt:
        """Count one check of an account's current password (a password change): ``CURRENT_GUESSES`` wrong
        ones in ``WINDOW_MS``."""
        return self._take("current", account_id, None)

    def _take(self, kind: str, who: str, client: str | None) -> Attempt:
        limits = self._names(kind, who, client)
        member = f"{int(time.time() * 1000)}:{secrets.token_hex(6)}"
        args = [int(time.time() * 1000), member]
        for _, window, limit in limits:
            args += [window, limit]
        wait = int(self._reserve(keys=[k for k, _, _ in limits], args=args))
        if wait:
            raise TooManyAttempts(Text("too many sign-in attempts: wait {s} s and try again",
                                       s=(wait + 999) // 1000), retry_after=(wait + 999) // 1000)
        return Attempt([k for k, _, _ in limits], member, 2 if client else 1)

    def limit(self, kind: str, who: str, window: int, most: int, refusal: Text) -> None:
        """Count one action of ``kind`` by ``who``: at most ``most`` in ``window`` ms, else ``TooMany`` with
        ``refusal`` (a text with ``{s}``, the seconds to wait) and ``retry_after``."""
        now = int(time.time() * 1000)
        wait = int(self._reserve(keys=[self.keys.attempts(kind, who)],
                                 args=[now, f"{now}:{secrets.token_hex(6)}", window, most]))
        if wait:
            s = (wait + 999) // 1000
            raise errors.TooMany(Text._make(refusal.id, refusal.plural_id, {**refusal.args, "s": s}),
                                 retry_after=s)

    def failures(self, attempt: Attempt) -> int:
        """The failures counted in ``attempt``'s first window (its name's, or its account's), this one included."""
        return int(self.redis.zcard(attempt.keys[0]))

    def succeeded(self, attempt: Attempt) -> None:
        """The password was right: the try is no failure (it stays a check)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in attempt.keys[:attempt.failure_keys]:
            pipe.zrem(key, attempt.member)
        pipe.execute()

    def cancel(self, attempt: Attempt) -> None:
        """The password was never checked: the try counts for nothing."""
        pipe = self.redis.pipeline(transaction=False)
        for key in attempt.keys:
            pipe.zrem(key, attempt.member)
        pipe.execute()


@dataclass(frozen=True)
class Attempt:
    """A reserved try: its member in each window's sorted set; the first ``failure_keys`` count failures."""

    keys: list[str]
    member: str
    failure_keys: int


def _name(username: str) -> str:
    return hashlib.sha256(username.lower().encode()).hexdigest()[:32]
