"""Who a client is, for quotas and fairness: its address — an IPv6 client counts by its /64 network, since one
subscriber usually holds a whole /64 — kept only as a short hash (it goes into a game's metadata and exports)."""

from __future__ import annotations

import hashlib
import ipaddress


def network(address: str) -> str:
    """The address a client counts as: an IPv4 address itself, an IPv6 one's /64 network (text otherwise)."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address.strip()
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def address_of(peer: str | None, forwarded_for: str | None, trusted_proxies: int) -> str | None:
    """The client's address: the peer's, or, behind ``trusted_proxies`` reverse proxies that each append the
    address they saw to ``X-Forwarded-For``, the one the outermost of them saw (as werkzeug's ``ProxyFix``). A
    value with a port (``203.0.113.5:4711``, ``[2001:db8::1]:4711``) counts as its address alone, so one client
    is one client whatever its connection."""
    if trusted_proxies and forwarded_for:
        values = [v.strip() for v in forwarded_for.split(",")]
        if len(values) >= trusted_proxies:
            return without_port(values[-trusted_proxies]) or peer
    return peer


def without_port(value: str) -> str | None:
    """An address as written in a header, without its port or brackets; None if it is no address at all."""
    value = value.strip()
    if value.startswith("["):
        value = value[1:value.find("]")] if "]" in value else ""
    elif value.count(":") == 1:  # IPv4 with a port (an IPv6 address has several colons)
        value = value.split(":")[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def client_id(address: str | None) -> str | None:
    """The client's id: 16 hex digits of the SHA-256 of ``network(address)``; None without an address."""
    if not address:
        return None
    return hashlib.sha256(network(address).encode()).hexdigest()[:16]
