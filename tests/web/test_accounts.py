"""Accounts through the API (docs/api.md, "Accounts and ratings"): sign-up, sessions, sign-in's equal answers and
its limits, one's games on any device, seats as accounts, profiles and leaderboards."""

from __future__ import annotations

import pytest

from services.accounts import passwords
from tests.conftest import run_jobs
from tests.web.signin import signed_in
from web.app import create_app

PASSWORD = "correct horse battery"


def sign_up(client, name="Ana", password=PASSWORD):
    return client.post("/api/accounts", json={"username": name, "password": password})


def cookie_of(response) -> str:
    return next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("burrow_session="))


def test_sign_up_answers_with_a_session_cookie(client):
    r = sign_up(client)
    assert r.status_code == 201 and r.json == {"username": "Ana"}
    cookie = cookie_of(r)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert client.get("/api/me").json["username"] == "Ana"


def test_the_cookie_is_secure_over_https(runtime):
    client = create_app(runtime).test_client()
    r = client.post("/api/accounts", json={"username": "Ana", "password": PASSWORD}, base_url="https://localhost")
    assert "; Secure" in cookie_of(r)


def test_usernames_are_unique_ignoring_case(client):
    assert sign_up(client, "Ana").status_code == 201
    r = sign_up(client, "aNA")
    assert r.status_code == 409 and r.json["error"]["code"] == "username_taken"


@pytest.mark.parametrize("body, field", [
    ({"username": "ab", "password": PASSWORD}, "username"),
    ({"username": "1abc", "password": PASSWORD}, "username"),
    ({"username": "a" * 21, "password": PASSWORD}, "username"),
    ({"username": "an a", "password": PASSWORD}, "username"),
    ({"username": "Ana", "password": "short"}, "password"),
    ({"username": "Ana", "password": 12345678}, "password"),
    ({"username": "Ana", "password": "x" * 2000}, "password"),
    ({"username": "Ana", "password": PASSWORD, "admin": True}, "admin"),
])
def test_bad_sign_ups_name_the_field(client, body, field):
    r = client.post("/api/accounts", json=body)
    assert r.status_code == 422 and r.json["error"]["field"] == field and field in r.json["error"]["message"]


def test_no_password_is_stored(client, runtime):
    sign_up(client)
    client.post("/api/session", json={"username": "Ana", "password": "a wrong one"})
    for key in runtime.redis.scan_iter("*"):
        assert PASSWORD.encode() not in runtime.redis.dump(key), key


def test_sign_out_revokes_the_session_on_the_server(runtime):
    client = create_app(runtime).test_client()
    stolen = cookie_of(sign_up(client)).split(";")[0].split("=", 1)[1]
    assert client.delete("/api/session").status_code == 204
    thief = create_app(runtime).test_client()
    thief.set_cookie("burrow_session", stolen)
    assert thief.get("/api/me").status_code == 401


def test_every_sign_in_makes_a_new_session_and_everywhere_ends_them_all(runtime):
    first = create_app(runtime).test_client()
    sign_up(first)
    second = create_app(runtime).test_client()
    r = second.post("/api/session", json={"username": "ana", "password": PASSWORD})
    assert r.status_code == 200 and r.json == {"username": "Ana"}
    assert cookie_of(r) != first.get_cookie("burrow_session").value
    sessions = second.get("/api/me/sessions").json["sessions"]
    assert len(sessions) == 2 and [s["current"] for s in sessions].count(True) == 1
    assert {"id", "created", "last_seen", "agent"} <= set(sessions[0])
    other = next(s for s in sessions if not s["current"])
    assert second.delete(f"/api/me/sessions/{other['id']}").status_code == 204
    assert first.get("/api/me").status_code == 401 and second.get("/api/me").status_code == 200
    first.post("/api/session", json={"username": "Ana", "password": PASSWORD})
    assert second.delete("/api/me/sessions").status_code == 204
    assert first.get("/api/me").status_code == 401 and second.get("/api/me").status_code == 401


def test_unknown_names_and_wrong_passwords_get_the_same_answer_by_the_same_work(client, monkeypatch):
    sign_up(client)
    verified = []
    real = passwords._hasher

    class Counting:
        def hash(self, password):
            return real.hash(password)

        def verify(self, hashed, password):
            verified.append(hashed)
            return real.verify(hashed, password)

    monkeypatch.setattr(passwords, "_hasher", Counting())
    wrong = client.post("/api/session", json={"username": "Ana", "password": "not the password"})
    unknown = client.post("/api/session", json={"username": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401 and wrong.json == unknown.json
    assert wrong.json["error"]["code"] == "bad_credentials"
    assert len(verified) == 2 and all(h.startswith("$argon2id$") for h in verified)
    assert verified[0] != verified[1]  # the account's hash, then the dummy one
    # one verification each, at the same cost: the same time, whatever the machine's load
    assert verified[0].split("$")[:4] == verified[1].split("$")[:4]


def test_the_hashes_are_argon2id_with_the_production_cost():
    """RFC 9106's second recommended option (t=3, 64 MiB, p=4); the other tests here hash at the lowest cost
    (``tests/conftest.py``)."""
    from argon2 import PasswordHasher, extract_parameters

    made = extract_parameters(PasswordHasher.from_parameters(passwords.PARAMETERS).hash("a password"))
    assert (made.type.name, made.time_cost, made.memory_cost, made.parallelism) == ("ID", 3, 65536, 4)


def test_the_eleventh_wrong_password_is_refused_for_known_and_unknown_names_alike(client):
    sign_up(client)
    for name in ("Ana", "Nobody"):
        for _ in range(10):
            assert client.post("/api/session", json={"username": name, "password": "nope nope"}).status_code == 401
        r = client.post("/api/session", json={"username": name, "password": PASSWORD})
        assert r.status_code == 429 and r.json["error"]["code"] == "too_many_attempts", name


def test_fifty_failures_from_one_address_stop_it(runtime):
    client = create_app(runtime).test_client()
    for i in range(50):
        r = client.post("/api/session", json={"username": f"name{i}", "password": "nope nope"})
        assert r.status_code == 401
    r = client.post("/api/session", json={"username": "other", "password": "nope nope"})
    assert r.status_code == 429
    elsewhere = create_app(runtime).test_client()
    r = elsewhere.post("/api/session", json={"username": "other", "password": "nope nope"},
                       environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert r.status_code == 401


def test_a_password_change_needs_the_current_one_and_ends_other_sessions(runtime):
    here, there = create_app(runtime).test_client(), create_app(runtime).test_client()
    sign_up(here)
    there.post("/api/session", json={"username": "Ana", "password": PASSWORD})
    r = here.post("/api/me/password", json={"password": "a new password", "current_password": "wrong"})
    assert r.status_code == 422 and r.json["error"]["field"] == "current_password"
    r = here.post("/api/me/password", json={"password": "a new password", "current_password": PASSWORD})
    assert r.status_code == 204 and there.get("/api/me").status_code == 401
    assert here.get("/api/me").status_code == 200
    assert here.post("/api/session", json={"username": "Ana", "password": "a new password"}).status_code == 200


# -- seats as accounts ------------------------------------------------------------------------------------------

def test_me_sits_the_account_and_its_seats_are_on_any_device(client, runtime):
    app = client.application
    ana = signed_in(app, runtime, "Ana")
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}]}).json
    ben = signed_in(app, runtime, "Ben")
    taken = ben.post(f"/api/games/{g['id']}/seats/1", json={})
    assert taken.status_code == 200 and taken.json["name"] == "Ben"
    doc = client.get(f"/api/games/{g['id']}?min_version=3").json
    assert [(p["name"], p["account"]) for p in doc["players"]] == [("Ana", "Ana"), ("Ben", "Ben")]
    phone = signed_in(app, runtime, "Ana")  # another device: another session of the same account
    mine = phone.get("/api/me/games").json
    assert mine["next"] is None and len(mine["games"]) == 1
    entry = mine["games"][0]
    assert {k: entry[k] for k in ("id", "game", "seat", "status", "your_turn")} == \
        {"id": g["id"], "game": "murus", "seat": 0, "status": "playing", "your_turn": True}
    r = phone.post(f"/api/games/{g['id']}/commands", headers={"Authorization": f"Bearer {entry['token']}"},
                   json={"move": "a1-a3"})
    assert r.status_code == 200
    assert ben.get("/api/me/games").json["games"][0]["token"] == taken.json["token"]


def test_me_needs_a_session_and_one_seat_per_account(client, runtime):
    r = client.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"name": "Ben"}]})
    assert r.status_code == 401 and r.json["error"]["field"] == "players[0]"
    ana = signed_in(client.application, runtime, "Ana")
    r = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"me": True}]})
    assert r.status_code == 422 and r.json["error"]["field"] == "players[1]"
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}]}).json
    r = ana.post(f"/api/games/{g['id']}/seats/1", json={})
    assert r.status_code == 409 and r.json["error"]["code"] == "already_seated"


def test_a_guest_cannot_take_an_accounts_name(client, runtime):
    signed_in(client.application, runtime, "Victim")
    r = client.post("/api/games", json={"game": "murus", "players": [{"name": "victim"}, {"name": "Eve"}]})
    assert r.status_code == 422 and r.json["error"]["code"] == "name_reserved"
    assert r.json["error"]["field"] == "players[0].name"
    g = client.post("/api/games", json={"game": "murus", "players": [{"name": "Eve"}, {"open": True}]}).json
    r = client.post(f"/api/games/{g['id']}/seats/1", json={"name": "VICTIM"})
    assert r.status_code == 422 and r.json["error"]["code"] == "name_reserved"
    players = [{"name": "Eve"}, {"name": "Victim", "ai": "easy"}]
    r = client.post("/api/games", json={"game": "murus", "players": players})
    assert r.status_code == 201  # an AI seat is no guest: it is shown as an AI, with no account


# -- profiles and leaderboards -----------------------------------------------------------------------------------

def test_a_rated_game_shows_on_both_profiles(client, runtime):
    app = client.application
    ana, bob = signed_in(app, runtime, "Ana"), signed_in(app, runtime, "Bob")
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}]}).json
    bob_token = bob.post(f"/api/games/{g['id']}/seats/1", json={}).json["token"]
    for token, move in ((g["seats"][0]["token"], "a1-a3"), (bob_token, "a7-a5"), (bob_token, "resign")):
        assert client.post(f"/api/games/{g['id']}/commands", headers={"Authorization": f"Bearer {token}"},
                           json={"move": move}).status_code == 200
    run_jobs(runtime)
    profile = client.get("/api/players/ana").json
    assert profile["username"] == "Ana" and profile["created"]
    assert profile["ratings"]["murus"] == {"rating": 1662, "rd": 290, "provisional": True, "games": 1, "wins": 1,
                                           "draws": 0, "losses": 0}
    assert [point[1] for point in profile["history"]["murus"]] == [1662]
    assert client.get("/api/players/Bob").json["ratings"]["murus"]["rating"] == 1338
    assert ana.get("/api/me").json["ratings"]["murus"]["rating"] == 1662
    games = client.get("/api/players/Ana/games").json
    assert [(x["id"], x["outcome"]) for x in games["games"]] == [(g["id"], "win")]
    assert "token" not in games["games"][0]
    board = client.get("/api/leaderboard/murus").json
    assert [(p["rank"], p["username"], p["provisional"]) for p in board["players"]] == \
        [(None, "Ana", True), (None, "Bob", True)]  # both provisional: listed, unranked
    doc = client.get(f"/api/games/{g['id']}").json
    assert doc["result"]["rating_changes"] == [162, -162]
    assert [p["rating"] for p in doc["players"]] == [{"rating": 1500, "rd": 350, "provisional": True}] * 2


def test_unknown_players_and_games_are_404(client):
    assert client.get("/api/players/Nobody").status_code == 404
    assert client.get("/api/players/Nobody/games").status_code == 404
    assert client.get("/api/leaderboard/chess").status_code == 404
    assert client.get("/api/me/games").status_code == 401


def test_pages_of_ones_games_follow_each_other(client, runtime):
    ana = signed_in(client.application, runtime, "Ana")
    made = [ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"name": f"G{i}"}]}).json["id"]
            for i in range(5)]
    seen, cursor = [], None
    while True:
        page = ana.get("/api/me/games", query_string={"limit": 2, **({"cursor": cursor} if cursor else {})}).json
        seen += [x["id"] for x in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == list(reversed(made))
    assert ana.get("/api/me/games?cursor=nonsense").status_code == 400
    for limit in ("0", "101", "²", "1e3", "-1", "9" * 30):
        assert ana.get("/api/players/Ana/games", query_string={"limit": limit}).status_code == 400, limit


def test_a_rematch_keeps_the_accounts_at_their_seats(client, runtime):
    app = client.application
    ana, bob = signed_in(app, runtime, "Ana"), signed_in(app, runtime, "Bob")
    g = ana.post("/api/games", json={"game": "murus", "players": [{"me": True}, {"open": True}]}).json
    bob_token = bob.post(f"/api/games/{g['id']}/seats/1", json={}).json["token"]
    client.post(f"/api/games/{g['id']}/commands", headers={"Authorization": f"Bearer {bob_token}"},
                json={"move": "abort"})
    r = client.post(f"/api/games/{g['id']}/rematch", headers={"Authorization": f"Bearer {g['seats'][0]['token']}"})
    assert r.status_code == 201, r.json
    new = r.json["id"]
    r = client.post(f"/api/games/{g['id']}/rematch", headers={"Authorization": f"Bearer {bob_token}"})
    assert r.status_code == 201 and r.json["id"] == new
    doc = client.get(f"/api/games/{new}?min_version=4").json
    assert [(p["name"], p["account"]) for p in doc["players"]] == [("Bob", "Bob"), ("Ana", "Ana")]
    assert [x["id"] for x in bob.get("/api/me/games").json["games"]][0] == new
    assert [x["id"] for x in ana.get("/api/me/games").json["games"]][0] == new


def test_pages_and_the_account_menu(client, runtime):
    for path in ("/signup", "/signin", "/account", "/leaderboard", "/leaderboard/squirrels"):
        r = client.get(path)
        assert r.status_code == 200 and b'href="/signin"' in r.data, path
    assert client.get("/@/Nobody").status_code == 404 and client.get("/leaderboard/chess").status_code == 404
    ana = signed_in(client.application, runtime, "Ana")
    page = ana.get("/@/ana")
    assert page.status_code == 200 and b'data-username="Ana"' in page.data
    assert b'class="me" href="/@/Ana"' in page.data and b'id="sign-out"' in page.data


def test_the_language_chosen_is_the_accounts_on_every_device(client, runtime):
    laptop = signed_in(client.application, runtime, "Ana")
    assert laptop.post("/api/me/language", json={"lang": "fr"}).status_code == 204  # the switch's POST
    phone = signed_in(client.application, runtime, "Ana")  # no cookie of the switch on this one
    page = phone.get("/", headers={"Accept-Language": "en"})
    assert b'<html lang="fr"' in page.data
    assert b'<html lang="en"' in client.get("/", headers={"Accept-Language": "en"}).data


def test_a_get_saves_no_language_and_appends_nothing(client, runtime):
    """A cross-site top-level GET (``/account?lang=zh`` opened from another site) carries the cookie: it must not
    change the account, nor write anything to its never-trimmed stream."""
    laptop = signed_in(client.application, runtime, "Ana")
    account = runtime.accounts.store.by_username("Ana")
    before = runtime.redis.xlen(runtime.store.keys.account(account.id))
    for lang in ("zh", "fr") * 10:
        assert laptop.get(f"/account?lang={lang}").status_code == 200
    assert runtime.redis.xlen(runtime.store.keys.account(account.id)) == before
    assert runtime.accounts.store.by_username("Ana").language is None


def test_the_language_is_a_value_saving_it_appends_no_event(client, runtime):
    laptop = signed_in(client.application, runtime, "Ana")
    account = runtime.accounts.store.by_username("Ana")
    before = runtime.redis.xlen(runtime.store.keys.account(account.id))
    for lang in ("zh", "fr") * 5:
        assert laptop.post("/api/me/language", json={"lang": lang}).status_code == 204
    assert runtime.redis.xlen(runtime.store.keys.account(account.id)) == before
    assert runtime.accounts.store.by_username("Ana").language == "fr"
    r = laptop.post("/api/me/language", json={"lang": "xx"})
    assert r.status_code == 422 and r.json["error"]["field"] == "lang"
    assert client.post("/api/me/language", json={"lang": "fr"}).status_code == 401
    foreign = laptop.post("/api/me/language", json={"lang": "zh"}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403


def test_one_address_makes_only_so_many_accounts_an_hour(tmp_path):
    from burrow.runtime import build
    from services.config import Limits, Settings

    limits = Limits(accounts_per_hour_per_client=2)
    client = create_app(build(Settings(prefix="signups", data_dir=str(tmp_path), limits=limits),
                              journal=False)).test_client()
    assert [sign_up(client, name).status_code for name in ("Ann", "Bea", "Cat")] == [201, 201, 429]
    assert sign_up(client, "Cat").json["error"]["code"] == "too_many_accounts"
    r = client.post("/api/accounts", json={"username": "Cat", "password": PASSWORD},
                    environ_base={"REMOTE_ADDR": "203.0.113.7"})
    assert r.status_code == 201
