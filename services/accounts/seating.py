"""What the games ask of accounts: whether a guest's name is an account's, and keeping an account's seat."""

from __future__ import annotations

from domain.text import Text
from services import errors
from services.accounts.confusables import is_mixed_script, scripts
from services.accounts.service import USERNAME, Accounts


class NameReserved(errors.Unprocessable):
    code = "name_reserved"


class MixedScripts(errors.Unprocessable):
    code = "name_mixed_scripts"


class AlreadySeated(errors.Conflict):
    code = "already_seated"


class AccountSeating:
    """The accounts of one event store, as the game service sees them; ``accounts`` (the process's ``Accounts``)
    None: a service without accounts (a bench's, a test's), where no name is an account's."""

    def __init__(self, accounts: Accounts | None = None):
        self.accounts = accounts

    def refuse_reserved(self, name: str, field: str) -> None:
        """``NameReserved`` (422) if ``name`` is an account's username, ignoring case, or looks like one (UTS #39
        confusable skeletons: ``services/accounts/confusables.py``): a guest cannot take it. ``MixedScripts``
        (422) for a name mixing scripts (``аlice``: a Cyrillic а among Latin letters)."""
        if is_mixed_script(name):
            raise MixedScripts(Text("{field}: a name in one script, please (it mixes {scripts})", field=field,
                                    scripts=", ".join(sorted(s.title() for s in scripts(name)))), field=field)
        accounts = self.accounts
        if accounts is None:
            return
        if (USERNAME.match(name) and accounts.is_username(name)) or accounts.store.looks_like_a_username(name):
            raise NameReserved(Text("{field}: {name} is an account's name, or looks like one; its owner signs in "
                                    "and sits as themself, anyone else chooses another name", field=field,
                                    name=repr(name)), field=field)

    def keep(self, username: str, gid: str, seat: int, token: str) -> None:
        """Keep ``token`` of ``seat`` of ``gid`` for the account named ``username``."""
        if self.accounts is None:
            return
        account_id = self.accounts.store.id_of(username)
        if account_id is not None:
            self.accounts.seats.add(account_id, gid, seat, token)
