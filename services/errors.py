"""Errors of the service layer, each with the HTTP status and code the API answers with.

A message is a ``domain.text.Text`` (``errors.NotFound(Text("no game {gid}", gid=gid))``): ``message`` is its
English, ``text`` what ``web/errors.py`` says in the reader's language; a plain string (a library's words) is said
as it is.
"""

from __future__ import annotations

from domain.text import Text, plain
from services.store.connection import REDIS_DOWN
from services.store.streams import NotReplicated, StoreUnavailable


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, **details):
        super().__init__(message)
        self.text: Text = plain(message)
        self.message = str(message)
        self.details = details


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class BadNotationError(ServiceError):
    status, code = 400, "bad_notation"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotYourTurn(ServiceError):
    status, code = 403, "not_your_turn"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Unprocessable(ServiceError):
    status, code = 422, "unprocessable"


class IllegalMoveError(ServiceError):
    status, code = 422, "illegal_move"


class TooMany(ServiceError):
    status, code = 429, "too_many"


class Unavailable(ServiceError):
    """Redis did not answer (down, cut off, slower than ``BURROW_REDIS_TIMEOUT``, refusing writes): nobody's fault,
    worth trying again (the answer carries ``Retry-After``)."""

    status, code = 503, "store_unavailable"


class Corrupt(ServiceError):
    """A game whose stored events cannot be read back (an event that does not decode, or that the rules refuse).
    The message says which game and version only: the cause (in ``__cause__``, for logs, the dispatcher's dead
    letters and ``burrow doctor``) may name hidden cards."""

    status, code = 500, "corrupt_game"


def unreachable() -> Unavailable:
    """The one answer when the event store (Redis) cannot be reached: worth trying again in a moment."""
    return Unavailable(Text("the event store is unreachable; try again in a moment"))


class _StoreErrors:
    """``store_errors``'s context manager: a class, not a generator (it wraps every append and every load)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, traceback) -> bool:
        if isinstance(exc, NotReplicated):
            raise Unavailable(str(exc)) from exc
        if isinstance(exc, (StoreUnavailable, *REDIS_DOWN)):
            raise unreachable() from exc
        return False


_STORE_ERRORS = _StoreErrors()


def store_errors() -> _StoreErrors:
    """The one mapping of the store's failures to answers: Redis out of reach → ``unreachable()``; an append not
    confirmed by its replicas in time → ``Unavailable`` with the store's reason (send it again with its command
    id: it is never applied twice)."""
    return _STORE_ERRORS
