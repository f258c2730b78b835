"""Passkeys (WebAuthn, discoverable credentials) with ``webauthn`` (py_webauthn): adding one to an account,
signing up with one and no password, and signing in with one without typing a name.

Each ceremony's challenge is kept in Redis for ``CHALLENGE_SECONDS`` and taken once (``GETDEL``), whatever the
outcome: a credential answers one challenge only. The options are WebAuthn's JSON forms (what
``PublicKeyCredential.parseCreationOptionsFromJSON`` / ``parseRequestOptionsFromJSON`` take); the credential comes
back as ``PublicKeyCredential.toJSON()`` gives it."""

from __future__ import annotations

import json
import secrets
from typing import Any

import redis
import webauthn
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from domain.text import Text
from services import errors
from services.accounts import events as ev
from services.accounts.service import Accounts, check_username
from services.accounts.sessions import agent_summary
from services.accounts.store import Account, new_account_id, taken
from services.clients import client_id

CHALLENGE_SECONDS = 300
OPTIONS_PER_CLIENT, OPTIONS_WINDOW_MS = 20, 60_000  # ceremonies one address may start a minute (each a kept key)
RP_NAME = "Burrow"
MAX_PASSKEYS = 20
PREFERRED = UserVerificationRequirement.PREFERRED


class PasskeyRefused(errors.ServiceError):
    status, code = 400, "passkey_refused"


def _challenge_of(credential: Any) -> str:
    """The challenge a posted credential answers (from its ``clientDataJSON``)."""
    if not isinstance(credential, dict):
        raise PasskeyRefused("the body must be a credential, as PublicKeyCredential.toJSON() gives it")
    try:
        client_data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
        challenge = client_data["challenge"]
    except (KeyError, TypeError, ValueError) as exc:
        raise PasskeyRefused("response.clientDataJSON: not the client data of a WebAuthn ceremony") from exc
    if not isinstance(challenge, str) or len(challenge) > 200:
        raise PasskeyRefused("response.clientDataJSON: its challenge is not one of ours")
    return challenge


class Passkeys:
    """The WebAuthn ceremonies over one ``Accounts``; ``rp_id`` and ``origin`` come from the request (or the
    configured public URL) at each call."""

    def __init__(self, accounts: Accounts):
        self.accounts = accounts
        self.redis: redis.Redis = accounts.redis
        self.keys = accounts.keys

    def _keep(self, challenge: bytes, record: dict) -> None:
        self.redis.set(self.keys.challenge(bytes_to_base64url(challenge)), json.dumps(record),
                       ex=CHALLENGE_SECONDS)

    def _take(self, credential: Any, kind: str) -> tuple[dict, bytes]:
        challenge = _challenge_of(credential)
        raw = self.redis.getdel(self.keys.challenge(challenge))
        if raw is None:
            raise PasskeyRefused("this passkey ceremony has expired or was used already: start again")
        record = json.loads(raw)
        if record.get("kind") != kind:
            raise PasskeyRefused("this credential answers another ceremony")
        return record, base64url_to_bytes(challenge)

    # -- registration ----------------------------------------------------------------------------------------

    def _limit(self, address: str | None) -> None:
        """Count one ceremony started from ``address``: ``OPTIONS_PER_CLIENT`` a minute, 429 beyond."""
        client = client_id(address)
        if client:
            self.accounts.attempts.limit("ceremonies", client, OPTIONS_WINDOW_MS, OPTIONS_PER_CLIENT,
                                         Text("too many passkey ceremonies started: wait {s} s and try again"))

    def register_options(self, rp_id: str, account: Account | None, username: object = None,
                         address: str | None = None) -> dict:
        """Options to make a passkey: for the signed-in ``account``, or for a new account named ``username``;
        ``address``: the client's, for its limit."""
        self._limit(address)
        if account is None:
            username = check_username(username)
            if self.accounts.is_username(username):
                raise taken(username)
            account_id, name, existing = new_account_id(), username, []
        else:
            if len(account.passkeys) >= MAX_PASSKEYS:
                raise errors.Conflict(Text("an account holds at most {n} passkeys", n=MAX_PASSKEYS))
            account_id, name, existing = account.id, account.username, list(account.passkeys.values())
        options = webauthn.generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_display_name=name, user_id=account_id.encode(),
            challenge=secrets.token_bytes(32),
            authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED,
                                                                   user_verification=PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id))
                                 for k in existing])
        self._keep(options.challenge, {"kind": "register", "account": account_id, "username": name,
                                       "new": account is None, "rp_id": rp_id})
        return json.loads(options_to_json(options))

    def register(self, credential: Any, rp_id: str, origin: str, account: Account | None, address: str | None,
                 agent: str | None) -> tuple[Account, bool]:
        """Verify the new passkey and add it: to the signed-in ``account``, or to a new account made now (with
        the name of its options). Returns the account and whether it is new."""
        record, challenge = self._take(credential, "register")
        if record["rp_id"] != rp_id:
            raise PasskeyRefused("this passkey was made for another site")
        if record["new"] != (account is None) or (account is not None and record["account"] != account.id):
            raise PasskeyRefused("these passkey options were made for another account: start again")
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin)
        except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
            raise PasskeyRefused(f"the passkey could not be verified: {str(exc)[:200]}") from exc
        transports = credential.get("response", {}).get("transports") or []
        added = ev.PasskeyAdded(
            credential_id=bytes_to_base64url(verified.credential_id), public_key=verified.credential_public_key,
            sign_count=verified.sign_count, device=agent_summary(agent),
            transports=[t for t in transports if isinstance(t, str)][:8] if isinstance(transports, list) else [])
        if account is None:
            self.accounts.spend_signup(address)
            made = self.accounts.store.create(record["username"], [added], credential=added.credential_id,
                                              account_id=record["account"])
            return made, True
        return self.accounts.store.change(account, lambda now: [added], credential=added.credential_id), False

    # -- signing in ----------------------------------------------------------------------------------------

    def login_options(self, rp_id: str, address: str | None = None) -> dict:
        """Options to sign in with any passkey of this site (discoverable: no name asked)."""
        self._limit(address)
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, challenge=secrets.token_bytes(32), user_verification=PREFERRED)
        self._keep(options.challenge, {"kind": "login", "rp_id": rp_id})
        return json.loads(options_to_json(options))

    def login(self, credential: Any, rp_id: str, origin: str) -> Account:
        """The account whose passkey signed this challenge."""
        record, challenge = self._take(credential, "login")
        if record["rp_id"] != rp_id:
            raise PasskeyRefused("this sign-in was started for another site")
        credential_id = credential.get("id")
        account = self.accounts.store.by_credential(credential_id) if isinstance(credential_id, str) and \
            len(credential_id) <= 1400 else None
        key = account.passkeys.get(credential_id) if account else None
        if key is None:
            raise errors.Unauthorized(Text("this passkey belongs to no account here"))
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=key.public_key, credential_current_sign_count=key.sign_count)
        except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
            raise PasskeyRefused(f"the passkey could not be verified: {str(exc)[:200]}") from exc
        if verified.new_sign_count > key.sign_count:
            used = ev.PasskeyUsed(credential_id=credential_id, sign_count=verified.new_sign_count)
            account = self.accounts.store.change(account, lambda now: [used] if credential_id in now.passkeys and
                                                 now.passkeys[credential_id].sign_count < used.sign_count else [])
        return account
