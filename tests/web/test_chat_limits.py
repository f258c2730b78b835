"""Chat and its reports under attack (issue #44): message ids range-checked (a 4xx, never a Redis error), one
report per reporter and message, a reporter's rate, and unread reports never trimmed away."""

from __future__ import annotations

import pytest

from services.people import chat as chat_module
from tests.web.signin import make_account
from tests.web.site import Site
from tests.web.test_people import auth, create
from web.session import COOKIE


@pytest.mark.parametrize("after", ["99999999999999999999999-1", "1-99999999999999999999999",
                                   "18446744073709551616-0", "\u0661-1", "1-\u00b2"])
def test_a_message_id_out_of_range_is_a_400(client, after):
    g = create(client)
    token = auth(g["seats"][0]["token"])
    r = client.get(f"/api/games/{g['id']}/chat", query_string={"after": after, "room": "players"}, headers=token)
    assert r.status_code == 400, r.json
    r = client.post(f"/api/games/{g['id']}/chat/report", json={"room": "players", "id": after}, headers=token)
    assert r.status_code == 400 and r.json["error"]["field"] == "id"


def test_the_largest_stream_id_is_still_one(client):
    g = create(client)
    token = auth(g["seats"][0]["token"])
    last = f"{2**64 - 1}-{2**64 - 1}"
    r = client.get(f"/api/games/{g['id']}/chat", query_string={"after": last, "room": "players"}, headers=token)
    assert r.status_code == 200 and r.json == {"messages": []}


def post(client, g, seat: int, text: str) -> dict:
    r = client.post(f"/api/games/{g['id']}/chat", json={"text": text, "room": "players"},
                    headers=auth(g["seats"][seat]["token"]))
    assert r.status_code == 201, r.json
    return r.json


def report(client, g, seat: int, message_id: str, address: str = "127.0.0.1"):
    return client.post(f"/api/games/{g['id']}/chat/report", json={"room": "players", "id": message_id},
                       headers=auth(g["seats"][seat]["token"]), environ_base={"REMOTE_ADDR": address})


def test_one_report_per_reporter_and_message(client, runtime):
    g = create(client)
    mine = post(client, g, 1, "my own message")
    assert [report(client, g, 1, mine["id"]).status_code for _ in range(5)] == [204] * 5
    assert len(runtime.people.chat.reports()) == 1  # the same reporter again adds nothing
    assert report(client, g, 0, mine["id"]).status_code == 204  # another reporter is heard
    assert len(runtime.people.chat.reports()) == 2


def test_a_reporter_is_rate_limited(client, runtime):
    g = create(client)
    ids = []
    for i in range(chat_module.REPORT_RATE + 1):
        ids.append(runtime.people.chat.post(g["id"], "players", "Ben", f"seat:{g['id']}:1", f"m{i}")["id"])
        runtime.redis.delete(runtime.people.chat.keys.chat_rate(f"seat:{g['id']}:1"))
    answers = [report(client, g, 0, i).status_code for i in ids]
    assert answers == [204] * chat_module.REPORT_RATE + [429]
    assert len(runtime.people.chat.reports()) == chat_module.REPORT_RATE


def test_unread_reports_are_never_trimmed_away(runtime, monkeypatch):
    monkeypatch.setattr(chat_module, "REPORTS_KEPT", 3)  # read reports kept; a flood must not push out others
    chat = runtime.people.chat
    gid = runtime.service.create("murus", [{"name": "Ann"}, {"name": "Ben"}])["id"]
    victim = chat.post(gid, "players", "Ben", "b", "the rude one")
    chat.report(gid, "players", victim["id"], "Ann", "seat:a")
    for i in range(8):
        found = chat.post(gid, "players", "Ann", f"a{i}", f"m{i}")
        chat.report(gid, "players", found["id"], "Ben", f"seat:b{i}")
    unread = chat.unread(100)
    assert len(unread) == 9 and unread[0]["message"]["text"] == "the rude one"
    chat.mark_read(unread[-1]["id"])
    assert chat.unread(100) == [] and len(chat.reports(100)) == 3  # read ones beyond the kept are trimmed


@pytest.mark.parametrize("last", ["\u0661-1", "99999999999999999999999-1"])
def test_an_accounts_stream_refuses_a_last_event_id_that_is_no_stream_id(runtime, last):
    site = Site(runtime)
    try:
        session_id = runtime.accounts.open_session(make_account(runtime, "Ben"), "pytest")
        r = site.get("/api/me/stream", headers={"cookie": f"{COOKIE}={session_id}", "last-event-id": last})
        assert r.status_code == 400
    finally:
        site.close()
