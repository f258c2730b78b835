"""An account's events, stored in its own stream (``Keys.account``) as msgpack, like a game's."""

from __future__ import annotations

from typing import Union

import msgspec


class AccountEvent(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of the account events. Schema evolution as for game events: only add fields with defaults."""


class AccountCreated(AccountEvent, frozen=True, tag="account_created"):
    username: str
    """As its owner wrote it; unique ignoring case (the claim in ``Keys.usernames``)."""


class PasswordSet(AccountEvent, frozen=True, tag="password_set"):
    hash: str
    """The password's argon2id hash (``argon2-cffi``'s encoded form): never the password."""


class PasskeyAdded(AccountEvent, frozen=True, tag="passkey_added"):
    credential_id: str
    """base64url, as the browser names the credential."""
    public_key: bytes
    """COSE-encoded, as the authenticator gave it at registration."""
    sign_count: int = 0
    transports: list[str] = []
    device: str = ""
    """The browser and system it was made on (a summary of the user agent), to tell passkeys apart."""


class PasskeyUsed(AccountEvent, frozen=True, tag="passkey_used"):
    """A sign-in with a passkey whose authenticator counts its signatures: the count it reached (a clone of the
    key would repeat an old count and be refused)."""

    credential_id: str
    sign_count: int


class LanguageChosen(AccountEvent, frozen=True, tag="language_chosen"):
    """The language the account's pages are shown in (``en``, ``fr``, ``zh``), chosen with the page's switch."""

    lang: str


class EmailSet(AccountEvent, frozen=True, tag="email_set"):
    """An address given for the account's mail, not yet verified (it replaces any earlier one); empty: none."""

    address: str


class EmailVerified(AccountEvent, frozen=True, tag="email_verified"):
    """The address was proved the account's: its owner followed the signed link mailed to it."""

    address: str


class NotificationsSet(AccountEvent, frozen=True, tag="notifications_set"):
    """Which kinds of notification reach the account away from the site, by mail and by push (kind → on)."""

    email: dict[str, bool] = {}
    push: dict[str, bool] = {}


class PushSubscribed(AccountEvent, frozen=True, tag="push_subscribed"):
    """A device's Web Push subscription (``PushSubscription.toJSON()``): pushes go to its endpoint, encrypted
    with its keys. The endpoint is a capability: it is never shown back."""

    id: str
    endpoint: str
    p256dh: str
    auth: str
    device: str = ""


class PushUnsubscribed(AccountEvent, frozen=True, tag="push_unsubscribed"):
    """A subscription dropped: by its device, or because the push service said it is gone (404/410)."""

    id: str


class VacationSet(AccountEvent, frozen=True, tag="vacation_set"):
    """The account's player is away (on vacation) or back: opponents are told; clocks are not changed."""

    on: bool


EVENTS = (AccountCreated, PasswordSet, PasskeyAdded, PasskeyUsed, LanguageChosen, EmailSet, EmailVerified,
          NotificationsSet, PushSubscribed, PushUnsubscribed, VacationSet)
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Union[EVENTS])  # noqa: UP007


def encode(event: AccountEvent) -> tuple[str, bytes]:
    """(type, bytes) of an account event, as its stream keeps it."""
    return event.__struct_config__.tag, _encoder.encode(event)


def decode(data: bytes) -> AccountEvent:
    return _decoder.decode(data)
