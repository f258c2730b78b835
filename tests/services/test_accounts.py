"""Accounts in the store (fakeredis and a real Redis): one name, one account however sign-ups race; sessions with
their expiry; and, in the embedded mode, accounts, sessions and account seats surviving a restart (the journal)."""

from __future__ import annotations

import threading

import pytest

from burrow.runtime import build
from services import errors
from services.accounts.sessions import LIFETIME_MS, agent_summary
from services.accounts.store import UsernameTaken
from services.config import Settings


def test_racing_sign_ups_for_one_name_give_one_account(runtime):
    store = runtime.accounts.store
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def sign_up(i: int) -> None:
        barrier.wait()
        try:
            store.create(["Racer", "racer", "RACER", "rAcEr"][i % 4], [])
            outcomes.append("made")
        except UsernameTaken:
            outcomes.append("taken")

    threads = [threading.Thread(target=sign_up, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["made"] + ["taken"] * 7
    assert len(runtime.redis.hgetall(runtime.store.keys.usernames())) == 1


def test_an_account_is_its_events(runtime):
    store = runtime.accounts.store
    made = store.create("Ana", [])
    assert (made.username, made.version, made.password) == ("Ana", 1, None)
    assert store.by_username("ANA") == made and store.load("nope") is None
    stale = made
    from services.accounts.events import PasswordSet

    store.append(made, [PasswordSet(hash="$argon2id$x")])
    with pytest.raises(errors.Conflict):
        store.append(stale, [PasswordSet(hash="$argon2id$y")])  # decided on an old version
    assert store.load(made.id).password == "$argon2id$x"
    assert runtime.redis.xlen(runtime.store.keys.account(made.id)) == 2


def test_a_session_keeps_only_its_hash_with_an_expiry(runtime):
    service = runtime.accounts
    account = service.store.create("Ana", [])
    session_id, session = service.sessions.open(account.id, "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0")
    assert session.agent == "Firefox on Linux"
    keys = [k.decode() for k in runtime.redis.scan_iter("*")]
    assert not any(session_id in k for k in keys) and any(session.hash in k for k in keys)
    ttl = runtime.redis.pttl(runtime.store.keys.session(session.hash))
    assert LIFETIME_MS - 60_000 < ttl <= LIFETIME_MS
    assert service.signed_in(session_id)[1].id == account.id
    assert service.signed_in(session_id + "x") is None and service.signed_in("") is None


def test_agent_summaries_name_browser_and_system_only():
    assert agent_summary("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit Safari/604.1") == \
        "Safari on iOS"
    android = "Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile Safari/537.36"
    assert agent_summary(android) == "Chrome on Android"
    assert agent_summary(None) == "a browser"


def test_accounts_sessions_and_seats_survive_an_embedded_restart(tmp_path):
    settings = Settings(prefix="jr", data_dir=str(tmp_path / "data"))
    first = build(settings)
    service = first.accounts
    session_id, account = service.sign_up("Ana", "correct horse", "127.0.0.1", "pytest")
    gone_id, _ = service.sign_in("Ana", "correct horse", "127.0.0.1", "pytest")
    service.sessions.revoke(service.signed_in(gone_id)[0])
    created = first.service.create("murus", [{"me": True}, {"name": "Ben"}], account="Ana")

    again = build(settings)  # a new in-process Redis, loaded from the journals
    restored = again.accounts
    assert again is not first and restored is not service
    session, account_again = restored.signed_in(session_id)
    assert account_again.username == "Ana" and account_again.password == account.password
    assert restored.signed_in(gone_id) is None
    rows, _ = restored.seats.page(account.id, 10)
    assert [(r["id"], r["seat"], r["token"]) for r in rows] == [(created["id"], 0, created["seats"][0]["token"])]
    with pytest.raises(UsernameTaken):
        restored.store.create("ANA", [])
    assert again.games.load(created["id"]).meta["players"][0]["account"] == "Ana"


def test_expired_sessions_leave_the_accounts_list(runtime):
    service = runtime.accounts
    account = service.store.create("Ana", [])
    kept, _ = service.sessions.open(account.id, None)
    _, gone = service.sessions.open(account.id, None)
    runtime.redis.delete(runtime.store.keys.session(gone.hash))  # as its expiry would
    assert [s.hash for s in service.sessions.of_account(account.id)] == [service.signed_in(kept)[0].hash]
    assert runtime.redis.zcard(runtime.store.keys.account_sessions(account.id)) == 1
