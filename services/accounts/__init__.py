"""Accounts: event-sourced like games (a stream per account; the name's claim in the same script as its first
event), with argon2id passwords, passkeys (WebAuthn), sessions and the seats an account holds.

``of(runtime)`` gives the accounts of a process's runtime (``of_store``: of its event store), built once per store
and, in the embedded mode, loaded from the journal beside the games' (``services/store/journal.py``)."""

from __future__ import annotations

import threading
import weakref

_built: dict[int, tuple[weakref.ref, object]] = {}
_lock = threading.Lock()


def of(runtime):
    """The ``Accounts`` of ``runtime``."""
    return of_store(runtime.store, runtime.settings.limits)


def of_store(store, limits: dict | None = None):
    """The ``Accounts`` over ``store``'s Redis and keys (journaled when the store is); ``limits``: the settings'
    (``accounts_per_hour_per_client``: sign-ups per address an hour, None or 0 for no limit), read when they are
    first built."""
    from services.accounts.service import SIGNUPS_PER_HOUR, Accounts
    from services.store.journal import AccountJournal, JournaledEventStore

    with _lock:
        held = _built.get(id(store))
        if held is not None and held[0]() is store:
            return held[1]
        for key in [k for k, (ref, _) in _built.items() if ref() is None]:
            del _built[key]
        journal = AccountJournal(store.directory) if isinstance(store, JournaledEventStore) else None
        signups = (limits or {}).get("accounts_per_hour_per_client", SIGNUPS_PER_HOUR)
        accounts = Accounts(store.redis, store.keys, journal, signups)
        _built[id(store)] = (weakref.ref(store), accounts)
        return accounts
