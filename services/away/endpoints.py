"""Which Web Push endpoints the service may send to: https URLs of a public host, checked before any connection
(docs/api.md "Away from the site"). A push is a request the server makes to a URL a client gave it; without this
check a client could point it at the service's own network (Redis on loopback, a metadata address, an intranet).

Refused: a scheme other than https, a user or password in the URL, a host that is an address of loopback, a
private range, link-local, multicast, unspecified or otherwise reserved space, and a name that resolves to any
such address (every address it resolves to is checked, and again before each push: a name may change its
answers). Hosts listed in ``BURROW_PUSH_ALLOW_HOSTS`` are taken as they are, plain http too (tests run a push
receiver on loopback).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from domain.text import Text
from services import errors

MAX_ENDPOINT = 1000  # characters of an endpoint URL (the push services' are a few hundred)

Resolve = Callable[[str, int], Iterable[str]]


class BadEndpoint(errors.Unprocessable):
    code = "bad_endpoint"


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (the system's resolver)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        return []
    return [info[4][0] for info in found]


def public_address(address: str) -> bool:
    """Whether ``address`` (an IP address) is one of the public internet's."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
                                 or ip.is_reserved or ip.is_unspecified)


def check(endpoint: object, allow_hosts: Iterable[str] = (), resolver: Resolve = resolve) -> str:
    """``endpoint`` if the service may send pushes to it; ``BadEndpoint`` (422) saying why if not. Nothing is
    connected to: the name is only resolved."""
    if not isinstance(endpoint, str) or not endpoint:
        raise BadEndpoint(Text("endpoint: must be a URL"), field="endpoint")
    if len(endpoint) > MAX_ENDPOINT:
        raise BadEndpoint(Text("endpoint: longer than {n} characters", n=MAX_ENDPOINT), field="endpoint")
    try:
        parts = urlsplit(endpoint)
        host, port = parts.hostname, parts.port
    except ValueError:
        raise BadEndpoint(Text("endpoint: not a URL"), field="endpoint") from None
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        raise BadEndpoint(Text("endpoint: not a URL of a push service"), field="endpoint")
    host = host.lower().rstrip(".")
    if host in {h.lower() for h in allow_hosts}:
        if parts.scheme not in ("https", "http"):
            raise BadEndpoint(Text("endpoint: must be an https URL"), field="endpoint")
        return endpoint
    if parts.scheme != "https":
        raise BadEndpoint(Text("endpoint: must be an https URL"), field="endpoint")
    try:
        ipaddress.ip_address(host.strip("[]"))
        literal = True
    except ValueError:
        literal = False
    addresses = [host.strip("[]")] if literal else list(resolver(host, port or 443))
    if not addresses:
        raise BadEndpoint(Text("endpoint: its host does not resolve"), field="endpoint")
    if not all(public_address(a) for a in addresses):
        raise BadEndpoint(Text("endpoint: its host is not a public address (loopback, private or reserved)"),
                          field="endpoint")
    return endpoint
