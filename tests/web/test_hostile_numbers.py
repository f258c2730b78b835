"""Numbers a client gives in options and positions are bounded where they are parsed (issue #31, the audit): a
number too large for the game is a 422 naming the field, never a 500 or a document too large to send."""

from __future__ import annotations

from pathlib import Path

import pytest

TWO = [{"name": "Ana"}, {"name": "Ben"}]
MH2 = (Path(__file__).parents[2] / "domain/squirrels/mh2-cards.csv").read_text(encoding="utf-8").splitlines()


def create(client, game, **body):
    return client.post("/api/games", json={"game": game, "players": TWO, **body})


@pytest.mark.parametrize("number", [2**64, 2**64 + 7, 10**30, 1_000_000])
def test_a_card_pool_number_too_large_is_a_422(client, number):
    rows = [MH2[0], *(f"{number + i}," + line.split(",", 1)[1] for i, line in enumerate(MH2[1:60]))]
    r = create(client, "squirrels", options={"card_pool": "\n".join(rows)})
    assert r.status_code == 422, r.get_json()
    assert "card_pool" in r.get_json()["error"]["message"] and "at most 999999" in r.get_json()["error"]["message"]


def test_a_card_pool_of_large_but_bounded_numbers_makes_a_game(client):
    rows = [MH2[0], *(f"{999_000 + i}," + line.split(",", 1)[1] for i, line in enumerate(MH2[1:]))]
    assert create(client, "squirrels", options={"card_pool": "\n".join(rows)}).status_code == 201


CARD = {"name": "Nut", "rarity": "common", "colors": "G"}


def squirrels_position(card_id: int, **card) -> dict:
    """A valid position but for the size of its one card's id (or number)."""
    return {"grid": {"a1": "squirrel", "b1": card_id}, "cards": {str(card_id): {**CARD, **card}}}


@pytest.mark.parametrize("position, field", [
    (squirrels_position(2**52), f"position.cards.{2**52}"),
    (squirrels_position(7, number=2**52), "position.cards.7.number"),
    ({**squirrels_position(7), "cards": {"7": CARD, "8": CARD}, "piles": [[2**52], []]}, "position.piles.0"),
])
def test_squirrels_position_ids_are_bounded(client, position, field):
    r = create(client, "squirrels", position=position)
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"]["message"].startswith(field)


def test_a_squirrels_position_with_bounded_ids_makes_a_game(client):
    assert create(client, "squirrels", position=squirrels_position(999_999, number=999_999)).status_code == 201


@pytest.mark.parametrize("field", ["weapons", "money", "maps"])
def test_commando_amounts_in_a_position_are_bounded(client, field):
    """Issue #31: a position accepted weapons up to 2^53 - 1, and 2·10^6 of them made a 33 MB document."""
    r = create(client, "commando", position={"turn": 0, "agents": [{"square": 50, field: 2_000_000}, {}]})
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"]["message"] == f"position.agents[0].{field}: must be at most 1000, not 2000000"


def test_a_thousand_weapons_make_one_legal_entry_and_a_small_document(client):
    created = create(client, "commando", position={"turn": 0, "agents": [{"square": 50, "weapons": 1000},
                                                                         {"square": 52}]}).get_json()
    gid, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/games/{gid}/commands", json={"move": "map 2"}, headers=auth).status_code == 200
    doc = client.get(f"/api/games/{gid}", headers=auth)
    assert doc.get_json()["legal"] == ["commit 0..1000"] and len(doc.get_data()) < 20_000
    refused = client.post(f"/api/games/{gid}/commands", json={"move": "commit 1001"}, headers=auth)
    assert refused.status_code == 422 and "you hold only 1000 weapons" in refused.get_json()["error"]["message"]
    assert client.post(f"/api/games/{gid}/commands", json={"move": "commit 1000"}, headers=auth).status_code == 200
