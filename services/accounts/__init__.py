"""Accounts: event-sourced like games (a stream per account; the name's claim in the same script as its first
event), with argon2id passwords, passkeys (WebAuthn), sessions and the seats an account holds.

A process has one ``Accounts`` (``services/accounts/service.py``), built by the composition root
(``burrow/runtime.py``) and held by its runtime as ``runtime.accounts``; in the embedded mode it is loaded from
the journal beside the games' (``services/store/journal.py``)."""
