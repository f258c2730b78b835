"""Signed, expiring links (docs/api.md "Away from the site"): the address verification link, the password reset
link
and the one-click unsubscribe link carry a token signed with the kept link key (``secrets.py``) for one purpose
each; a token of one purpose is worth nothing for another, and none is worth anything after its age.

A reset token is also single-use: its nonce is kept in Redis with the token's lifetime and taken (``GETDEL``) by
the first confirmation, so the same link cannot reset the password twice.
"""

from __future__ import annotations

import secrets as random

from itsdangerous import BadSignature, URLSafeTimedSerializer

from services.store.streams import Keys

VERIFY_SECONDS = 24 * 3600  # an address verification link
RESET_SECONDS = 3600  # a password reset link
UNSUBSCRIBE_SECONDS = 90 * 24 * 3600  # the unsubscribe link of a mail
MAX_TOKEN = 400  # characters of a token worth checking


class Links:
    """Makes and reads the tokens of mailed links with ``key``; reset nonces on ``client`` under ``keys``."""

    def __init__(self, key: bytes, client, keys: Keys):
        self.client = client
        self.keys = keys
        self._signers = {purpose: URLSafeTimedSerializer(key, salt=f"burrow-{purpose}")
                         for purpose in ("verify", "reset", "unsubscribe")}

    def make(self, purpose: str, payload: list) -> str:
        return self._signers[purpose].dumps(payload)

    def read(self, purpose: str, token: object, max_age: int) -> list | None:
        """The payload of a ``purpose`` token signed here and younger than ``max_age`` seconds, else None."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            return None
        try:
            payload = self._signers[purpose].loads(token, max_age=max_age)
        except BadSignature:  # also SignatureExpired
            return None
        return payload if isinstance(payload, list) else None

    def verify_token(self, account_id: str, address: str) -> str:
        return self.make("verify", [account_id, address])

    def read_verify(self, token: object) -> tuple[str, str] | None:
        found = self.read("verify", token, VERIFY_SECONDS)
        return (found[0], found[1]) if found and len(found) == 2 else None

    def unsubscribe_token(self, account_id: str, kind: str) -> str:
        return self.make("unsubscribe", [account_id, kind])

    def read_unsubscribe(self, token: object) -> tuple[str, str] | None:
        found = self.read("unsubscribe", token, UNSUBSCRIBE_SECONDS)
        return (found[0], found[1]) if found and len(found) == 2 else None

    def reset_token(self, account_id: str) -> str:
        """A reset token for ``account_id``; its nonce is kept for ``RESET_SECONDS``."""
        nonce = random.token_urlsafe(16)
        self.client.set(self.keys.reset_token(nonce), account_id, ex=RESET_SECONDS)
        return self.make("reset", [account_id, nonce])

    def take_reset(self, token: object) -> str | None:
        """The account id of a valid reset token, its nonce taken (a second use finds nothing); else None."""
        found = self.read("reset", token, RESET_SECONDS)
        if not found or len(found) != 2 or not isinstance(found[1], str):
            return None
        owner = self.client.getdel(self.keys.reset_token(found[1]))
        if owner is None or owner.decode() != found[0]:
            return None
        return found[0]
