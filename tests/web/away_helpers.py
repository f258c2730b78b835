"""What the tests of "Away from the site" run beside the service: a push service (an HTTP server on loopback that
keeps every request; a subscription's own keys decrypt what it got, and the VAPID signature is checked with the
server's public key) and an SMTP server (aiosmtpd)."""

from __future__ import annotations

import base64
import json
import os
import threading
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.conftest import free_port


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushReceiver:
    """A push service on loopback: ``/push/<name>`` keeps the request and answers 201; ``/gone/<name>`` 410;
    ``/flaky/<name>`` 500 the first time, then 201."""

    def __init__(self):
        self.received: list[dict] = []
        self.flaky_seen: set[str] = set()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                receiver.received.append({"path": self.path, "headers": headers, "body": body})
                status = 201
                if self.path.startswith("/gone/"):
                    status = 410
                elif self.path.startswith("/flaky/") and self.path not in receiver.flaky_seen:
                    receiver.flaky_seen.add(self.path)
                    status = 500
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's push subscription: its own key pair and auth secret, as ``PushSubscription.toJSON()``."""

    def __init__(self, endpoint: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def decrypt(self, request: dict) -> dict:
        """The push's JSON, decrypted with this device's keys (aes128gcm)."""
        assert request["headers"].get("content-encoding") == "aes128gcm"
        plain = http_ece.decrypt(request["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def verify_vapid(request: dict, server_public_key: str) -> dict:
    """The VAPID JWT's claims, once its ES256 signature verifies with ``server_public_key`` (base64url, the
    uncompressed point); AssertionError otherwise."""
    header = request["headers"]["authorization"]
    assert header.startswith("vapid ")
    fields = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
    assert fields["k"] == server_public_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_public_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64url(head))["alg"] == "ES256"
    return json.loads(unb64url(claims))


class Mailbox:
    """An SMTP server on loopback (aiosmtpd) keeping every mail."""

    def __init__(self):
        self.messages: list = []
        box = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
                box.messages.append(message_from_bytes(envelope.content, policy=policy.default))
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.controller.stop()


def link_token(message, path: str) -> str:
    """The token of the link to ``path`` in a mail's text."""
    text = message.get_content()
    start = text.index(path + "?token=") + len(path + "?token=")
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    from urllib.parse import unquote

    return unquote(text[start:end])
