"""The secrets the service generates once and keeps (never in the repository): the VAPID key pair that signs every
push, and the key that signs mailed links.

On a real Redis each is a key of its own, written once (``SET NX``) by whichever process comes first, so every web
process and worker of a deployment signs with the same key and a restart changes nothing. The embedded mode's
Redis lives in memory: there each is a file under the data directory (``BURROW_DATA``, mode 0600), made once.
"""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path

import redis
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from services.store.streams import Keys


def _new_vapid() -> bytes:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _new_link_key() -> bytes:
    return secrets.token_urlsafe(48).encode()


_MAKERS = {"vapid": _new_vapid, "links": _new_link_key}


class Secrets:
    """The kept secrets, on ``client`` under ``keys`` (a real Redis) or as files in ``directory`` (embedded)."""

    def __init__(self, client: redis.Redis, keys: Keys, directory: str | None = None):
        self.redis = client
        self.keys = keys
        self.directory = Path(directory) if directory else None
        self._cache: dict[str, bytes] = {}

    def get(self, name: str) -> bytes:
        """The secret ``name`` (``vapid``, ``links``), made the first time it is asked for anywhere."""
        if name not in self._cache:
            self._cache[name] = self._file(name) if self.directory is not None else self._redis(name)
        return self._cache[name]

    def _redis(self, name: str) -> bytes:
        key = self.keys.away_secret(name)
        self.redis.set(key, _MAKERS[name](), nx=True)  # the first process's wins; the others read it
        return self.redis.get(key)

    def _file(self, name: str) -> bytes:
        path = self.directory / f"{name}.secret"
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        self.directory.mkdir(parents=True, exist_ok=True)
        value = _MAKERS[name]()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another thread made it meanwhile
            return path.read_bytes()
        with os.fdopen(fd, "wb") as f:
            f.write(value)
        return value

    def vapid(self) -> Vapid02:
        """The VAPID key pair (py_vapid's, ready to sign)."""
        return Vapid02.from_pem(self.get("vapid"))

    def vapid_public_key(self) -> str:
        """The VAPID public key as the browser's ``applicationServerKey`` takes it: the uncompressed point,
        base64url without padding."""
        public = self.vapid().public_key.public_bytes(serialization.Encoding.X962,
                                                      serialization.PublicFormat.UncompressedPoint)
        return base64.urlsafe_b64encode(public).rstrip(b"=").decode()
