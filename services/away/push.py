"""Sending one Web Push message: the payload encrypted for the subscription (aes128gcm, RFC 8291) and a VAPID
``Authorization`` header (RFC 8292) signed with the kept key, POSTed to the subscription's endpoint.

The endpoint is checked again just before (``endpoints.check``: a name may resolve elsewhere since it was
subscribed) and redirects are not followed (a push service answers, it does not send us elsewhere). The answer
decides: 2xx sent; 404 or 410 the subscription is gone (dropped by the caller); anything else, or no answer, a
failure worth trying again later.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from urllib.parse import urlsplit

import requests
from py_vapid import Vapid02
from pywebpush import WebPusher

from services.away import endpoints

SENT, GONE, FAILED = "sent", "gone", "failed"
TIMEOUT = 10.0  # seconds to connect to and hear from a push service
TTL = 24 * 3600  # how long a push service keeps a message for a device that is off
VAPID_HOURS = 12  # a VAPID token's lifetime (at most 24 h)


def vapid_headers(vapid: Vapid02, endpoint: str, subject: str) -> dict[str, str]:
    """The VAPID ``Authorization`` header for ``endpoint``'s push service (``aud``: its origin)."""
    parts = urlsplit(endpoint)
    claims = {"aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + VAPID_HOURS * 3600,
              "sub": subject}
    return vapid.sign(claims)


def send(subscription: dict, payload: dict, vapid: Vapid02, subject: str,
         allow_hosts: Iterable[str] = ()) -> tuple[str, int | None]:
    """Push ``payload`` (JSON) to ``subscription`` (``{"endpoint", "keys": {"p256dh", "auth"}}``):
    ``(SENT | GONE | FAILED, the HTTP status or None)``."""
    try:
        endpoints.check(subscription["endpoint"], allow_hosts)
    except endpoints.BadEndpoint:
        return GONE, None  # no longer a public host: never sent to again
    session = requests.Session()
    session.max_redirects = 0
    session.trust_env = False  # no proxy settings of the environment: the endpoint was checked, not a proxy
    try:
        body = json.dumps(payload, separators=(",", ":")).encode()
        answer = WebPusher(subscription, requests_session=session).send(
            body, vapid_headers(vapid, subscription["endpoint"], subject), ttl=TTL,
            content_encoding="aes128gcm", timeout=TIMEOUT)
    except (requests.RequestException, OSError, ValueError):
        return FAILED, None
    finally:
        session.close()
    status = answer.status_code
    if 200 <= status < 300:
        return SENT, status
    if status in (404, 410):
        return GONE, status
    return FAILED, status
