"""Abuse through the API (issue #20): fair hidden information, bounds, quotas, request hardening."""

from __future__ import annotations

import json

import pytest

from services.clients import client_id
from tests.conftest import run_jobs

TWO = [{"name": "Ana"}, {"name": "Ben"}]


def create(client, environ_base=None, **body):
    body = {"game": "murus", "players": TWO, **body}
    return client.post("/api/games", json=body, environ_base=environ_base or {})


def docs(client, created) -> list[dict]:
    gid = created["id"]
    seen = [client.get(f"/api/games/{gid}").get_json()]
    for seat in created["seats"]:
        if "token" in seat:
            seen.append(client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {seat['token']}"})
                        .get_json())
    return seen


# -- fair hidden information ---------------------------------------------------------------------------------


def test_a_client_seed_is_disclosed_to_every_seat_and_spectator(client, runtime):
    created = create(client, game="mouseguard", seed=424242).get_json()
    run_jobs(runtime)
    for doc in docs(client, created):
        assert doc["setup"] == {"seed": 424242, "position": False, "by": 0}


def test_a_position_with_hidden_parts_is_disclosed(client, runtime):
    created = create(client, game="mouseguard", players=[{"name": "Bot", "ai": "easy"}, {"name": "Ben"}],
                     position={"mice": {"c4": "black", "d8": "white"},
                               "captured": {"black": 3, "white": 3}}).get_json()
    for doc in docs(client, created):
        assert doc["setup"] == {"seed": None, "position": True, "by": 1}


def test_server_randomness_stays_secret(client, runtime):
    created = create(client, game="mouseguard").get_json()
    run_jobs(runtime)
    for doc in docs(client, created):
        assert doc["setup"] == {"seed": None, "position": False, "by": None}
    assert runtime.store.meta(created["id"])["seed"] is None


# A Murus position whose creator (seat 0, the Romans) wins on the next move, with the other seat left open: no
# hidden parts, and still a trap for whoever joins.
MURUS_TRAP = {"turn": "romans", "cells": {"d5": "RR", "a1": "RR", "h7": "GG", "a7": "GG"}}


def test_any_client_position_is_disclosed_even_without_hidden_parts(client):
    created = create(client, players=[{"name": "Ana"}, {"open": True}], position=MURUS_TRAP).get_json()
    gid = created["id"]
    assert client.get(f"/api/games/{gid}").get_json()["setup"] == {"seed": None, "position": True, "by": 0}
    ben = client.post(f"/api/games/{gid}/seats/1", json={"name": "Ben"}).get_json()
    for doc in docs(client, {"id": gid, "seats": [*created["seats"][:1], ben]}):
        assert doc["setup"] == {"seed": None, "position": True, "by": 0}


def test_a_position_recorded_before_every_position_counted_shows_as_chosen():
    """Games created while a Murus position recorded ``"position": false`` (``by`` was set all the same)."""
    from services.games.fairness import chosen_by_client, setup_of

    old = {"seed": None, "setup": {"seed": None, "position": False, "by": 0}}
    assert setup_of(old) == {"seed": None, "position": True, "by": 0} and chosen_by_client(old)
    plain = {"seed": None, "setup": {"seed": None, "position": False, "by": None}}
    assert setup_of(plain)["position"] is False and not chosen_by_client(plain)


def test_a_murus_position_game_counts_for_no_rating(client, runtime):
    """The ratings skip every game ``chosen_by_client`` (``services/reads/ratings.py``)."""
    from services.games.fairness import chosen_by_client

    assert chosen_by_client(runtime.store.meta(create(client, position=MURUS_TRAP).get_json()["id"]))
    assert not chosen_by_client(runtime.store.meta(create(client).get_json()["id"]))


@pytest.mark.parametrize("seed, rated", [(None, True), (5, False)])
def test_games_the_creator_set_up_are_unrated(client, runtime, seed, rated):
    from tests.web.signin import make_account

    make_account(runtime, "Ana"), make_account(runtime, "Ben")
    gid = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], seed=seed,
                                 accounts={0: "Ana", 1: "Ben"})["id"]
    for seat in (0, 1):  # both sides move, then one resigns
        game = runtime.games.load(gid)
        runtime.service.command(gid, seat, game.legal(seat)[0])
    runtime.service.command(gid, 1, "resign")
    run_jobs(runtime)
    assert bool(runtime.ratings.of_player("Ana")[0]) is rated


# -- quotas --------------------------------------------------------------------------------------------------


def test_creation_is_rate_limited_per_address_and_per_ipv6_64(client, runtime):
    runtime.service.creation_rate.limit = 3
    at = lambda address: {"REMOTE_ADDR": address}  # noqa: E731
    for i in range(3):
        assert create(client, environ_base=at(f"2001:db8::{i + 1}")).status_code == 201
    refused = create(client, environ_base=at("2001:db8::ffff"))  # the same /64
    assert refused.status_code == 429 and refused.get_json()["error"]["retry_after"] >= 1
    assert "a minute" in refused.get_json()["error"]["message"]
    assert create(client, environ_base=at("2001:db8:0:1::1")).status_code == 201  # another /64
    assert create(client, environ_base=at("192.0.2.7")).status_code == 201
    assert 0 < runtime.redis.pttl(runtime.service.creation_rate.key(client_id("2001:db8::5"))) <= 60_000


def test_the_creator_is_kept_only_as_a_hash_of_its_network(client, runtime):
    gid = create(client, environ_base={"REMOTE_ADDR": "2001:db8::1"}).get_json()["id"]
    meta = runtime.store.meta(gid)
    assert meta["client"] == client_id("2001:db8::2") and "2001" not in json.dumps(meta)


# -- request hardening (the serving model's part: tests/reliability/test_slow_clients.py) ----------------------


def test_posts_take_only_json(client):
    body = '{"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]}'
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = client.post("/api/games", data=body, content_type=content_type)
        assert r.status_code == 415 and r.get_json()["error"]["code"] == "unsupported_media_type"
    assert client.post("/api/games", data=body, content_type="application/json; charset=utf-8").status_code == 201


def test_a_cross_site_origin_cannot_post(client):
    r = client.post("/api/games", json={"game": "murus", "players": TWO}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "forbidden_origin"
    same = client.post("/api/games", json={"game": "murus", "players": TWO}, headers={"Origin": "http://localhost"})
    assert same.status_code == 201
