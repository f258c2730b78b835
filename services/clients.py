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


def client_id(address: str | None) -> str | None:
    """The client's id: 16 hex digits of the SHA-256 of ``network(address)``; None without an address."""
    if not address:
        return None
    return hashlib.sha256(network(address).encode()).hexdigest()[:16]
