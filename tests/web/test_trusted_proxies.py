"""BURROW_TRUSTED_PROXIES: behind N reverse proxies per-client limits count the client's address, never the
proxy's; without the setting X-Forwarded-For is ignored, so a client cannot choose the address it counts as."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.clients import client_id
from tests.web.site import Site

BODY = {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}
PROXY = "10.0.0.2"  # the peer the server sees: the (innermost) proxy


def created_by(runtime, proxies: int, forwarded: str | None) -> str:
    runtime.settings = replace(runtime.settings, trusted_proxies=proxies)
    client = Site(runtime)
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    answer = client.post("/api/games", json=BODY, headers=headers, environ_base={"REMOTE_ADDR": PROXY})
    assert answer.status_code == 201, answer.json
    return runtime.store.meta(answer.json["id"])["client"]


@pytest.mark.parametrize("proxies, forwarded, counted_as", [
    (0, None, PROXY),
    (0, "203.0.113.5", PROXY),  # not trusted: a client could write anything there
    (1, "203.0.113.5", "203.0.113.5"),
    (1, "198.51.100.1, 203.0.113.5", "203.0.113.5"),  # the first value is the client's own claim
    (2, "198.51.100.1, 203.0.113.5, 10.0.0.1", "203.0.113.5"),
    (2, None, PROXY),  # no header at all: the peer
])
def test_limits_see_the_address_the_trusted_proxies_report(runtime, proxies, forwarded, counted_as):
    assert created_by(runtime, proxies, forwarded) == client_id(counted_as)


def test_open_game_quota_counts_clients_behind_one_proxy_apart(runtime):
    runtime.settings = replace(runtime.settings, trusted_proxies=1)
    runtime.service.open_games.limit = 1
    client = Site(runtime)

    def create(address: str) -> int:
        return client.post("/api/games", json=BODY, headers={"X-Forwarded-For": address},
                           environ_base={"REMOTE_ADDR": PROXY}).status_code

    assert [create("203.0.113.5"), create("203.0.113.6"), create("203.0.113.5")] == [201, 201, 429]
