"""Sending one mail through the SMTP server of ``BURROW_SMTP_URL``.

The URL: ``smtp://[user:password@]host[:port]`` (plain, port 25 by default; ``?starttls=1`` upgrades the
connection with STARTTLS before anything is sent, and then a server that cannot is an error, never a fallback
to plain text) or ``smtps://…`` (TLS from the first byte, port 465 by default). The server's certificate is
checked against the system's authorities. The password is never logged or shown (``public``).
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

TIMEOUT = 20.0  # seconds for the SMTP conversation's each step


class BadSmtpUrl(ValueError):
    """``BURROW_SMTP_URL`` is not an SMTP URL we can use."""


@dataclass(frozen=True)
class Smtp:
    scheme: str
    host: str
    port: int
    user: str | None
    password: str | None
    starttls: bool

    @classmethod
    def parse(cls, url: str) -> Smtp:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise BadSmtpUrl("BURROW_SMTP_URL: the scheme must be smtp:// or smtps://")
        try:
            port = parts.port
        except ValueError:
            raise BadSmtpUrl("BURROW_SMTP_URL: the port is not a number") from None
        if not parts.hostname:
            raise BadSmtpUrl("BURROW_SMTP_URL: no host")
        query = parse_qs(parts.query)
        starttls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes")
        return cls(parts.scheme, parts.hostname, port or (465 if parts.scheme == "smtps" else 25),
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, starttls)

    @property
    def public(self) -> str:
        """The server without its password (logs, ``burrow doctor``)."""
        user = f"{self.user}:***@" if self.user else ""
        return f"{self.scheme}://{user}{self.host}:{self.port}"

    def send(self, message: EmailMessage, tls: ssl.SSLContext | None = None) -> None:
        """Send ``message``; ``smtplib``'s errors and ``OSError`` say why not."""
        context = tls or ssl.create_default_context()
        if self.scheme == "smtps":
            client = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        with client:
            if self.starttls:
                client.starttls(context=context)
            if self.user:
                client.login(self.user, self.password or "")
            client.send_message(message)
