"""Sign-in, sign-up and password changes under attack (issue #44): strings that are not Unicode refused before
anything is spent, failures reserved before the hash is checked (racing wrong passwords cannot overshoot the
limit), every password check limited per name and per address, hashing behind a bounded gate, sessions per
account capped, guesses of the current password limited and the session ended after them."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time

import pytest

from services import errors
from services.accounts import events as ev
from services.accounts import passwords
from services.accounts.gate import HashGate
from services.accounts.sessions import MAX_PER_ACCOUNT
from web.app import create_app

PASSWORD = "correct horse battery"
LONE = "\ud800"  # a lone surrogate: JSON may carry it as an escape, UTF-8 cannot encode it


def sign_up(client, name="Ana", password=PASSWORD, address="127.0.0.1"):
    return client.post("/api/accounts", json={"username": name, "password": password},
                       environ_base={"REMOTE_ADDR": address})


def raw_post(client, url: str, text: str):
    """A body with a ``\\ud800`` escape (Flask's ``json=`` would refuse to encode the string itself)."""
    return client.post(url, data=text, content_type="application/json")


@pytest.mark.parametrize("url, body, field", [
    ("/api/session", '{"username": "Ana", "password": "a\\ud800bcdefgh"}', "password"),
    ("/api/session", '{"username": "An\\ud800a", "password": "abcdefghij"}', "username"),
    ("/api/accounts", '{"username": "Ana", "password": "a\\ud800bcdefgh"}', "password"),
    ("/api/accounts", '{"username": "An\\ud800a", "password": "abcdefghij"}', "username"),
    ("/api/me/password", f'{{"password": "a\\ud800bcdefgh", "current_password": "{PASSWORD}"}}', "password"),
    ("/api/me/password", '{"password": "abcdefghijk", "current_password": "a\\ud800b"}', "current_password"),
])
def test_a_lone_surrogate_is_a_4xx_and_spends_nothing(runtime, url, body, field):
    """Through HTTP the one body parser refuses it (400: not valid JSON) before any route sees it; a 500 was the
    bug. Nothing is counted, spent or hashed."""
    client = create_app(runtime).test_client()
    if url == "/api/me/password":
        sign_up(client)
    before = set(runtime.redis.scan_iter(match="*signups*"))
    r = raw_post(client, url, body)
    assert r.status_code in (400, 422), r.json
    if r.status_code == 422:
        assert r.json["error"]["field"] == field
    assert set(runtime.redis.scan_iter(match="*signups*")) == before  # no sign-up of the address spent
    assert not list(runtime.redis.scan_iter(match="*attempts*"))  # no attempt counted


@pytest.mark.parametrize("call, field", [
    (lambda a: a.sign_in("Ana", "a" + LONE + "bcdefgh", "127.0.0.1", "pytest"), "password"),
    (lambda a: a.sign_in("An" + LONE + "a", "abcdefghij", "127.0.0.1", "pytest"), "username"),
    (lambda a: a.sign_up("Ana", "a" + LONE + "bcdefgh", "127.0.0.1", "pytest"), "password"),
    (lambda a: a.sign_up("An" + LONE + "a", "abcdefghij", "127.0.0.1", "pytest"), "username"),
])
def test_a_lone_surrogate_reaching_the_service_is_a_422_naming_the_field(runtime, call, field):
    """Whatever parser is in front, the service itself refuses a string UTF-8 cannot hold, before spending."""
    with pytest.raises(errors.Unprocessable) as refused:
        call(runtime.accounts)
    assert refused.value.details["field"] == field
    assert not list(runtime.redis.scan_iter(match="*signups*"))
    assert not list(runtime.redis.scan_iter(match="*attempts*"))


def test_a_lone_surrogate_in_a_password_change_reaching_the_service_is_a_422(runtime):
    accounts = runtime.accounts
    _, account = accounts.sign_up("Ana", PASSWORD, "127.0.0.1", "pytest")
    for password, current, field in (("a" + LONE + "bcdefgh", PASSWORD, "password"),
                                     ("abcdefghijk", "a" + LONE + "b", "current_password")):
        with pytest.raises(errors.Unprocessable) as refused:
            accounts.set_password(account, password, current)
        assert refused.value.details["field"] == field


def slow_verify(monkeypatch, gate: threading.Barrier | None = None):
    """``passwords.verify`` made slow as argon2 is in production (every racer checks its limit before any
    failure of the others would be counted, were it counted after the hash)."""
    real = passwords.verify

    def verify(hashed, password):
        if gate is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                gate.wait(timeout=2)
        return real(hashed, password)

    monkeypatch.setattr(passwords, "verify", verify)


def race(n: int, call) -> list:
    start = threading.Barrier(n)
    results: list = [None] * n

    def one(i: int) -> None:
        start.wait()
        try:
            results[i] = call(i)
        except errors.ServiceError as exc:
            results[i] = exc.status

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_racing_wrong_passwords_get_at_most_ten_401s(runtime, monkeypatch):
    accounts = runtime.accounts
    accounts.gate = HashGate(slots=30, waiting=0)  # the gate is not what this test is about
    accounts.sign_up("Ana", PASSWORD, "127.0.0.9", "pytest")
    slow_verify(monkeypatch, threading.Barrier(10))  # ten hashes under way at once
    results = race(30, lambda i: accounts.sign_in("Ana", "wrong wrong", f"198.51.100.{i}", "pytest"))
    assert results.count(401) <= passwords.PER_USERNAME
    assert set(results) <= {401, 429}


def test_correct_sign_ins_are_limited_too_per_name(runtime):
    accounts = runtime.accounts
    accounts.sign_up("Ana", PASSWORD, "127.0.0.9", "pytest")
    answers = []
    for i in range(passwords.CHECKS_PER_USERNAME + 1):
        try:
            accounts.sign_in("Ana", PASSWORD, f"198.51.100.{i}", "pytest")
            answers.append(200)
        except errors.ServiceError as exc:
            answers.append(exc.status)
    assert answers == [200] * passwords.CHECKS_PER_USERNAME + [429]


def test_every_sign_in_from_one_address_is_limited_right_passwords_too(runtime):
    accounts = runtime.accounts
    hashed = passwords.hash_password(PASSWORD)
    names = [f"name{i}" for i in range(passwords.CHECKS_PER_CLIENT + 1)]
    for name in names:
        accounts.store.create(name, [ev.PasswordSet(hash=hashed)])
    for name in names[:-1]:
        accounts.sign_in(name, PASSWORD, "203.0.113.7", "pytest")
    with pytest.raises(passwords.TooManyAttempts) as refused:
        accounts.sign_in(names[-1], PASSWORD, "203.0.113.7", "pytest")
    assert refused.value.details["retry_after"] >= 1
    accounts.sign_in(names[-1], PASSWORD, "203.0.113.8", "pytest")  # another address is not held back


def test_the_429_carries_retry_after(client):
    for _ in range(passwords.PER_USERNAME):
        client.post("/api/session", json={"username": "Nobody", "password": "wrong wrong"})
    r = client.post("/api/session", json={"username": "Nobody", "password": "wrong wrong"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1


def test_a_full_hash_gate_answers_503_with_retry_after_and_counts_nothing(runtime, monkeypatch):
    accounts = runtime.accounts
    accounts.sign_up("Ana", PASSWORD, "127.0.0.9", "pytest")
    accounts.gate = HashGate(slots=1, waiting=0)
    inside, release = threading.Event(), threading.Event()
    real = passwords.verify

    def held(hashed, password):
        inside.set()
        release.wait(5)
        return real(hashed, password)

    monkeypatch.setattr(passwords, "verify", held)
    first = threading.Thread(target=lambda: accounts.sign_in("Ana", PASSWORD, "198.51.100.1", "pytest"))
    first.start()
    assert inside.wait(5)
    try:
        with pytest.raises(errors.Unavailable) as busy:
            accounts.sign_in("Ana", "wrong wrong", "198.51.100.2", "pytest")
        assert busy.value.details["retry_after"] >= 1
    finally:
        release.set()
        first.join()
    # the refused try was not counted: after the first one's check, nine more tries still get their 401
    monkeypatch.setattr(passwords, "verify", real)
    statuses = []
    for i in range(passwords.CHECKS_PER_USERNAME - 1):
        with pytest.raises(errors.ServiceError) as refused:
            accounts.sign_in("Ana", "wrong wrong", f"198.51.100.{10 + i}", "pytest")
        statuses.append(refused.value.status)
    assert statuses == [401] * (passwords.CHECKS_PER_USERNAME - 1)


def test_the_gate_over_http_is_a_503_with_retry_after(runtime, monkeypatch):
    client = create_app(runtime).test_client()
    runtime.accounts.gate = HashGate(slots=0, waiting=0)
    r = client.post("/api/session", json={"username": "Ana", "password": "wrong wrong"})
    assert r.status_code == 503 and r.json["error"]["code"] == "busy" and int(r.headers["Retry-After"]) >= 1


def test_sessions_per_account_are_capped_the_oldest_dropped(runtime, monkeypatch):
    accounts = runtime.accounts
    _, account = accounts.sign_up("Ana", PASSWORD, "127.0.0.9", "pytest")
    # A session's age is its creation's millisecond: sessions made in the same one are equally old, so each is
    # made a millisecond after the one before (a fast machine makes several in one).
    real, ticks = time.time, itertools.count()
    monkeypatch.setattr(time, "time", lambda: real() + next(ticks) / 1000)
    opened = [accounts.open_session(account, "pytest") for _ in range(MAX_PER_ACCOUNT + 5)]
    live = accounts.sessions.of_account(account.id)
    assert len(live) == MAX_PER_ACCOUNT
    assert accounts.signed_in(opened[-1]) is not None
    assert accounts.signed_in(opened[0]) is None  # the oldest went first


def test_guessing_the_current_password_is_limited_and_ends_the_session(runtime):
    here, there = create_app(runtime).test_client(), create_app(runtime).test_client()
    sign_up(here)
    there.post("/api/session", json={"username": "Ana", "password": PASSWORD})
    body = {"password": "a new password", "current_password": "a guess"}
    answers = [here.post("/api/me/password", json=body).status_code for _ in range(passwords.CURRENT_GUESSES)]
    assert answers == [422] * (passwords.CURRENT_GUESSES - 1) + [401]
    assert here.get("/api/me").status_code == 401  # that session ended
    # the account's other sessions may not go on guessing either, not even with the right one, for a while
    r = there.post("/api/me/password", json={"password": "a new password", "current_password": PASSWORD})
    assert r.status_code == 429 and r.json["error"]["code"] == "too_many_attempts"
