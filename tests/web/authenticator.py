"""A software authenticator for the tests: makes discoverable P-256 passkeys ("none" attestation) and signs
WebAuthn challenges, answering as a browser's ``PublicKeyCredential.toJSON()`` would."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """Holds passkeys by relying party; ``create`` answers creation options, ``get`` request options."""

    def __init__(self, origin: str = "http://localhost"):
        self.origin = origin
        self.keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, str, bytes]] = {}
        self.count = 0

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict) -> dict:
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        x, y = numbers.x.to_bytes(32, "big"), numbers.y.to_bytes(32, "big")
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: x, -3: y})  # EC2, ES256, P-256
        credential_id = secrets.token_bytes(16)
        rp_id = options["rp"]["id"]
        self.keys[credential_id] = (key, rp_id, unb64url(options["user"]["id"]))
        auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([0x45]) + struct.pack(">I", 0) + bytes(16)
                     + struct.pack(">H", len(credential_id)) + credential_id + cose)
        client_data = self._client_data("webauthn.create", options["challenge"])
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                             "transports": ["internal"]}}

    def get(self, options: dict, credential_id: bytes | None = None) -> dict:
        credential_id = credential_id or next(iter(self.keys))
        key, rp_id, user = self.keys[credential_id]
        self.count += 1
        auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([0x05]) + struct.pack(">I", self.count)
        client_data = self._client_data("webauthn.get", options["challenge"])
        signature = key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": b64url(user)}}
