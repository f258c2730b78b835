"""Passwords: argon2id hashes (``argon2-cffi``), verified in the same time whether the account exists or not, and
the failed tries counted per username and per client address, so that guessing is slow and the limit says
nothing about which names exist."""

from __future__ import annotations

import functools
import hashlib
import secrets
import time

import redis
from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from domain.text import Text
from services import errors
from services.store.streams import Keys

MIN_LENGTH = 8
MAX_LENGTH = 1024  # hashing cost does not depend on it much, but a body of megabytes is no password
WINDOW_MS = 15 * 60 * 1000
PER_USERNAME = 10
PER_CLIENT = 50

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


def warm() -> None:
    """Make the dummy hash now (the first unknown name would otherwise pay for it)."""
    _dummy()


class Attempts:
    """Failed sign-ins in a sliding window of 15 minutes, per username (any name, known or not) and per client."""

    def __init__(self, client: redis.Redis, keys: Keys):
        self.redis = client
        self.keys = keys

    def _keys(self, username: str, client: str | None) -> list[str]:
        name = hashlib.sha256(username.lower().encode()).hexdigest()[:32]
        keys = [self.keys.attempts("name", name)]
        if client:
            keys.append(self.keys.attempts("client", client))
        return keys

    def check(self, username: str, client: str | None) -> None:
        """``TooManyAttempts`` if the name or the client has failed too often lately."""
        now = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        keys = self._keys(username, client)
        for key in keys:
            pipe.zcount(key, now - WINDOW_MS, "+inf")
        counts = pipe.execute()
        if counts[0] >= PER_USERNAME or (len(counts) > 1 and counts[1] >= PER_CLIENT):
            raise TooManyAttempts("too many failed sign-ins: wait a few minutes and try again",
                                  retry_after=WINDOW_MS // 1000)

    def failed(self, username: str, client: str | None) -> None:
        now = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        for key in self._keys(username, client):
            pipe.zadd(key, {f"{now}:{secrets.token_hex(4)}": now})
            pipe.zremrangebyscore(key, "-inf", now - WINDOW_MS)
            pipe.pexpire(key, WINDOW_MS)
        pipe.execute()
