"""What the games ask of accounts: whether a guest's name is an account's, and keeping an account's seat."""

from __future__ import annotations

from services import errors
from services.accounts import of_store
from services.accounts.service import USERNAME


class NameReserved(errors.Unprocessable):
    code = "name_reserved"


class AlreadySeated(errors.Conflict):
    code = "already_seated"


class AccountSeating:
    """The accounts of one event store, as the game service sees them."""

    def __init__(self, store, limits: dict | None = None):
        self.store = store
        self.limits = limits

    def refuse_reserved(self, name: str, field: str) -> None:
        """``NameReserved`` (422) if ``name`` is an account's username, ignoring case: a guest cannot take it."""
        if USERNAME.match(name) and of_store(self.store, self.limits).is_username(name):
            raise NameReserved(f"{field}: {name!r} is an account's name; its owner signs in and sits as "
                               "themself, anyone else chooses another name", field=field)

    def keep(self, username: str, gid: str, seat: int, token: str) -> None:
        """Keep ``token`` of ``seat`` of ``gid`` for the account named ``username``."""
        accounts = of_store(self.store, self.limits)
        account_id = accounts.store.id_of(username)
        if account_id is not None:
            accounts.seats.add(account_id, gid, seat, token)
