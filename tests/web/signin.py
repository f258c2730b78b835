"""Signed-in clients for the tests: an account made directly in the store (no password to hash) and a session's
cookie set in a Flask test client."""

from __future__ import annotations

from web.session import COOKIE


def make_account(runtime, name: str):
    """The account named ``name`` (made now, without a password, if it does not exist)."""
    found = runtime.accounts.store.by_username(name)
    return found or runtime.accounts.store.create(name, [])


def signed_in(app, runtime, name: str):
    """A test client of ``app`` signed in as ``name`` (the account made if need be)."""
    session_id = runtime.accounts.open_session(make_account(runtime, name), "pytest")
    client = app.test_client()
    client.set_cookie(COOKIE, session_id)
    return client
