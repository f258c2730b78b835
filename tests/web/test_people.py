"""Meeting people through the API (docs/api.md "Meeting people"): presence (``online``), the players' chat
room, and
claiming a clocked game of an opponent away on their turn. fakeredis and a real redis-server."""

from __future__ import annotations

import json
import time

import pytest

import services.games.round
import web.api
from services.people import chat as chat_module

PLAYERS = [{"name": "Ana"}, {"name": "Ben <b>"}]


def auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client, **extra) -> dict:
    r = client.post("/api/games", json={"game": "murus", "players": PLAYERS, **extra})
    assert r.status_code == 201, r.json
    return r.json


def doc(client, g, seat=None) -> dict:
    token = g["seats"][seat]["token"] if seat is not None else None
    return client.get(f"/api/games/{g['id']}?min_version=100000", headers=auth(token)).json


def past_first_moves(client, g) -> None:
    """Both seats make their first move and the first seat a second one: the second seat's turn, its clock
    running (no clock runs before its seat's first move; a first move has 30 s)."""
    for seat, text in ((0, "a1-a3"), (1, "a7-a5"), (0, None)):
        token = g["seats"][seat]["token"]
        text = text or doc(client, g, seat)["legal"][0]
        r = client.post(f"/api/games/{g['id']}/commands", json={"move": text}, headers=auth(token))
        assert r.status_code == 200, r.json


def test_a_seat_is_online_while_its_page_is_open(client, runtime):
    g = create(client)
    assert doc(client, g)["online"] == [False, False]  # a spectator's read marks nobody
    assert client.post(f"/api/games/{g['id']}/presence", headers=auth(g["seats"][1]["token"])).status_code == 204
    assert doc(client, g)["online"] == [False, True]
    assert doc(client, g, 0)["online"] == [True, True]  # reading its own document: its page is open
    assert client.post(f"/api/games/{g['id']}/presence").status_code == 401
    runtime.people.presence.seat_seen(g["id"], 1, at=int(time.time() * 1000) - 31_000)
    assert doc(client, g)["online"] == [True, False]  # 30 s without a word: gone


def presence_notices(runtime, gid: str) -> list[dict]:
    """The ``presence`` notices published to game ``gid``'s pages, oldest first."""
    entries = runtime.redis.xrange(runtime.store.keys.notifications_log())
    told = [json.loads(f[b"data"]) for _, f in entries if f[b"to"] == f"game:{gid}".encode()]
    return [n for n in told if n["type"] == "presence"]


def test_reading_a_document_publishes_nothing_and_a_pages_first_beat_tells_the_others(client, runtime):
    g = create(client)
    gid, ana = g["id"], auth(g["seats"][0]["token"])
    assert doc(client, g, 0)["online"] == [True, False]  # a page reads its document first: Ana is online...
    assert presence_notices(runtime, gid) == []  # ...and a GET told nobody
    assert doc(client, g)["online"] == [True, False]
    assert client.post(f"/api/games/{gid}/presence", headers=ana).status_code == 204  # then its first beat
    assert presence_notices(runtime, gid) == [{"type": "presence", "seat": 0}]  # the others' dots turn on
    client.post(f"/api/games/{gid}/presence", headers=ana)
    doc(client, g, 0)
    assert len(presence_notices(runtime, gid)) == 1  # still here: nothing new to tell
    runtime.people.presence.seat_beat(gid, 0, at=int(time.time() * 1000) - 31_000)  # the page went quiet
    client.post(f"/api/games/{gid}/presence", headers=ana)
    assert len(presence_notices(runtime, gid)) == 2  # back: told again


def test_the_players_room_is_its_seats_and_keeps_what_they_say(client, runtime):
    g = create(client)
    ana, ben = (auth(s["token"]) for s in g["seats"])
    url = f"/api/games/{g['id']}/chat"
    posted = client.post(url, json={"text": "  good   luck  ", "room": "players"}, headers=ana)
    assert posted.status_code == 201 and posted.json["text"] == "good luck" and posted.json["from"] == "Ana"
    client.post(url, json={"text": "<script>x</script>", "room": "players"}, headers=ben)
    read = client.get(f"{url}?room=players", headers=ana).json["messages"]
    assert [(m["from"], m["text"]) for m in read] == [("Ana", "good luck"), ("Ben <b>", "<script>x</script>")]
    after = client.get(f"{url}?room=players&after={read[0]['id']}", headers=ben).json["messages"]
    assert [m["text"] for m in after] == ["<script>x</script>"]
    assert client.get(f"{url}?room=players").status_code == 401  # a spectator cannot read it
    assert client.post(url, json={"text": "hi", "room": "players"}).status_code == 401
    assert client.get(f"{url}?room=spectators").status_code == 401  # signed-in players only
    assert runtime.store.version(g["id"]) == g["version"]  # chat is no game event


@pytest.mark.parametrize("text, status", [("x" * 141, 422), ("", 422), ("   ", 422), (5, 422), ("a\u0000b", 422)])
def test_chat_text_is_bounded(client, text, status):
    g = create(client)
    r = client.post(f"/api/games/{g['id']}/chat", json={"text": text, "room": "players"},
                    headers=auth(g["seats"][0]["token"]))
    assert r.status_code == status and r.json["error"]["field"] == "text"


def test_chat_is_rate_limited_per_sender(client):
    g = create(client)
    url = f"/api/games/{g['id']}/chat"
    answers = [client.post(url, json={"text": f"m{i}", "room": "players"}, headers=auth(g["seats"][0]["token"]))
               for i in range(chat_module.RATE + 1)]
    assert [a.status_code for a in answers] == [201] * chat_module.RATE + [429]
    assert "at most 5 messages in 10 s" in answers[-1].json["error"]["message"]
    other = client.post(url, json={"text": "me too", "room": "players"}, headers=auth(g["seats"][1]["token"]))
    assert other.status_code == 201  # another sender is not held back


def test_a_reported_message_reaches_the_operators_with_what_came_before(client, runtime):
    g = create(client)
    url = f"/api/games/{g['id']}/chat"
    ana, ben = (auth(s["token"]) for s in g["seats"])
    client.post(url, json={"text": "hello", "room": "players"}, headers=ana)
    bad = client.post(url, json={"text": "something rude", "room": "players"}, headers=ben).json
    assert client.post(f"{url}/report", json={"room": "players", "id": bad["id"]}, headers=ana).status_code == 204
    [report] = runtime.people.chat.reports()
    assert report["message"]["text"] == "something rude" and report["reporter"] == "Ana"
    assert [m["text"] for m in report["context"]] == ["hello"]
    assert client.post(f"{url}/report", json={"room": "players", "id": "1-0"}, headers=ana).status_code == 404


class Later:
    def __init__(self, seconds: float):
        self.seconds = seconds

    def time(self) -> float:
        return time.time() + self.seconds


def test_a_player_may_claim_a_clocked_game_of_an_opponent_away_a_minute_on_their_turn(client, monkeypatch):
    g = create(client, clock={"initial": 600})
    ana, ben = (auth(s["token"]) for s in g["seats"])
    cmd = f"/api/games/{g['id']}/commands"
    past_first_moves(client, g)  # Ben's turn now, his clock running
    client.post(f"/api/games/{g['id']}/presence", headers=ben)
    refused = client.post(cmd, json={"move": "claim victory"}, headers=ana)
    assert refused.status_code == 422 and "away for a minute" in refused.json["error"]["message"]
    assert "claim victory" not in doc(client, g, 0)["table"]
    monkeypatch.setattr(services.games.round, "time", Later(61))
    monkeypatch.setattr(web.api, "now_ms", lambda: int(Later(61).time() * 1000))
    assert doc(client, g, 0)["table"][-2:] == ["claim victory", "claim draw"]  # Ben silent a minute, his turn
    assert "claim victory" not in doc(client, g, 1)["table"]  # not his to claim
    won = client.post(cmd, json={"move": "claim victory"}, headers=ana)
    assert won.status_code == 200, won.json
    result = doc(client, g)["result"]
    assert result["winners"] == [0] and result["termination"] == "abandoned"
    assert result["reason"] == "Ben <b> left the game. Ana wins."


def test_no_claim_without_a_clock_or_while_the_opponent_is_here(client, runtime, monkeypatch):
    plain = create(client)
    clocked = create(client, clock={"initial": 600})
    for g in (plain, clocked):
        past_first_moves(client, g)
    monkeypatch.setattr(services.games.round, "time", Later(61))
    runtime.people.presence.seat_seen(clocked["id"], 1, at=int(Later(61).time() * 1000) - 5_000)  # here
    for g in (plain, clocked):
        r = client.post(f"/api/games/{g['id']}/commands", json={"move": "claim draw"},
                        headers=auth(g["seats"][0]["token"]))
        assert r.status_code == 422, (g, r.json)


def test_an_open_game_whose_creator_left_five_minutes_ago_leaves_the_open_list(client, runtime):
    g = create(client, players=[{"name": "Ana"}, {"open": True}])
    runtime.projector.project_game(g["id"])
    runtime.projector.project_lobby(g["id"])
    assert [line["id"] for line in client.get("/api/games?status=open").json["games"]] == [g["id"]]
    presence, now = runtime.people.presence, int(time.time() * 1000)
    lines = client.get("/api/games?status=open").json["games"]
    assert presence.creators_here(lines, now + 301_000) == []  # nobody seen since it was made, 5 min ago
    presence.seat_seen(g["id"], 0, at=now + 200_000)  # Ana's page was open a little later
    assert [line["id"] for line in presence.creators_here(lines, now + 301_000)] == [g["id"]]
    assert presence.creators_here(lines, now + 501_000) == []
