"""Who is at a seek or a challenge: an account or a guest with a session (docs/api.md "The first ten minutes")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Person:
    """``key``: where the person's notifications, presence and seats are kept (an account's lower-case username,
    or a guest session's id); ``name`` as shown; ``account``: the username (None: a guest, never rated)."""

    key: str
    name: str
    account: str | None = None

    @classmethod
    def of_account(cls, username: str) -> Person:
        return cls(username.lower(), username, username)

    def dump(self) -> dict:
        return {"key": self.key, "name": self.name, "account": self.account}

    @classmethod
    def load(cls, data: dict) -> Person:
        return cls(data["key"], data["name"], data.get("account"))
