"""Seat tokens: random bearer secrets of which only a hash is stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh seat token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(token: str, hashes: dict[int, str]) -> int | None:
    """The seat whose stored hash matches ``token``, compared in constant time; None if none does."""
    digest = token_hash(token)
    found = None
    for seat, stored in hashes.items():
        if hmac.compare_digest(digest, stored):
            found = seat
    return found
