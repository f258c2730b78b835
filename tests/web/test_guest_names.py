"""A guest cannot take a name that looks like an account's (issue #44): UTS #39 confusable skeletons, mixed
scripts refused; other names from every script still welcome."""

from __future__ import annotations

import pytest

from services.accounts.confusables import is_mixed_script, name_keys, skeleton
from tests.web.signin import make_account


@pytest.mark.parametrize("name", ["alice", "ALICE", "\uff41\uff4c\uff49\uff43\uff45", "aIice", "alice\u0301",
                                  "a l i c e", "\uff21\uff2c\uff29\uff23\uff25"])
def test_a_guest_cannot_take_a_name_that_looks_like_an_accounts(client, runtime, name):
    make_account(runtime, "alice")
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": name}, {"name": "Ben"}]})
    assert r.status_code == 422 and r.json["error"]["code"] == "name_reserved", (name, r.json)
    assert r.json["error"]["field"] == "players[0].name"


def test_a_name_mixing_scripts_is_refused_naming_them(client, runtime):
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": "\u0430lice"}, {"name": "Ben"}]})
    assert r.status_code == 422 and r.json["error"]["code"] == "name_mixed_scripts"
    assert "Cyrillic" in r.json["error"]["message"] and "Latin" in r.json["error"]["message"]


def test_an_open_seat_is_refused_a_lookalike_too(client, runtime):
    make_account(runtime, "alice")
    g = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ben"}, {"open": True}]}).json
    r = client.post(f"/api/games/{g['id']}/seats/1", json={"name": "a\u0406ice"})  # Cyrillic І among Latin
    assert r.status_code == 422
    r = client.post(f"/api/games/{g['id']}/seats/1", json={"name": "aIice"})
    assert r.status_code == 422 and r.json["error"]["code"] == "name_reserved"


@pytest.mark.parametrize("name", ["Ana", "Zoë", "José María", "李小龙", "山田 太郎", "Анна", "Ελένη", "R2-D2",
                                  "Ali 2"])
def test_other_names_are_welcome(client, runtime, name):
    make_account(runtime, "alice")
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": name}, {"name": "Ben"}]})
    assert r.status_code == 201, (name, r.json)


def test_skeletons_follow_uts_39():
    assert skeleton("paypal") == skeleton("\u0440\u0430ypal")  # Cyrillic р and а
    assert skeleton("m") == "rn"  # a source of several characters' prototype
    assert skeleton("1") == skeleton("l") == skeleton("I")
    assert name_keys("Bob1") & name_keys("bobl")
    assert not name_keys("Ana") & name_keys("Anna")
    assert is_mixed_script("\u0430lice") and not is_mixed_script("李 Lee") and not is_mixed_script("Ali 2")
