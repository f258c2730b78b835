"""Seats: which seat of a game a bearer token holds (only the tokens' hashes are stored)."""

from __future__ import annotations

from domain.text import Text
from services import errors, tokens
from services.store.streams import EventStore


class Seats:
    """The seat tokens of every game (``EventStore.seat_hashes``)."""

    def __init__(self, store: EventStore):
        self.store = store

    def seat_for(self, gid: str, token: str | None) -> int | None:
        """The seat a bearer token belongs to; None for no token; ``Unauthorized`` for an unknown one."""
        if token is None:
            return None
        seat = tokens.seat_of(token, self.store.seat_hashes(gid))
        if seat is None:  # perhaps an open seat taken since its hashes were read
            seat = tokens.seat_of(token, self.store.seat_hashes(gid, fresh=True))
        if seat is None:
            raise errors.Unauthorized(Text("this token is not a seat of this game"))
        return seat
