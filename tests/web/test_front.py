"""The web front (web/front.py) driven directly as an ASGI app, on fakeredis and a real redis-server: the one
stream route (a client whose writes are stuck is dropped while another receives every version; streams end when
the server stops; idle ones get keep-alive lines), the requests counted for the live readers, and the guard in
front of everything (the client's address, the allowed hosts, bounded bodies)."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.testclient import TestClient

import web.front
from services.clients import client_id
from tests.services.test_live import new_game, play
from web.app import create_app
from web.front import create_front, host_name

WAIT = 20  # seconds: a bound, reached only when something is broken


def scope(path: str, client: str, method: str = "GET", query: bytes = b"", headers=()) -> dict:
    return {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": query,
            "headers": [(b"host", b"localhost"), *headers], "client": (client, 5000),
            "server": ("localhost", 80), "scheme": "http", "http_version": "1.1", "root_path": ""}


def stream_scope(gid: str, after: int, client: str) -> dict:
    return scope(f"/api/games/{gid}/stream", client, query=f"after={after}".encode())


def body(messages: list[dict]) -> str:
    return b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body").decode()


def ids(messages: list[dict]) -> list[int]:
    return [json.loads(line[6:])["version"] for line in body(messages).split("\n") if line.startswith("data: ")]


async def until(predicate, what: str) -> None:
    for _ in range(WAIT * 50):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def run(front, main) -> None:
    """``main()`` on a loop of its own; the hub's readers stop after it."""
    try:
        asyncio.run(main())
    finally:
        front.state.hub.stop()


def test_a_client_stuck_writing_is_dropped_and_another_receives_every_version(runtime, monkeypatch):
    monkeypatch.setattr(web.front, "SEND_SECONDS", 0.5)
    front = create_front(create_app(runtime), threads=2)
    hub = front.state.hub
    hub.buffer_bytes = 3000
    gid, _ = new_game(runtime)
    start = runtime.store.version(gid)

    async def main():
        stuck, gone = asyncio.Event(), asyncio.Event()
        stalled, steady = [], []

        async def never_disconnects():
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send_stuck(message):
            stalled.append(message)
            if len(stalled) >= 3:  # the headers, the retry line, then its first batch: stuck for good
                await stuck.wait()

        async def send(message):
            steady.append(message)

        dropped = asyncio.ensure_future(front(stream_scope(gid, start, "10.0.0.1"), never_disconnects, send_stuck))
        live = asyncio.ensure_future(front(stream_scope(gid, start, "10.0.0.2"), never_disconnects, send))
        await until(lambda: hub.open_streams() == 2, "both streams")
        last = start
        for _ in range(8):  # one at a time: the steady reader keeps up, the stuck one falls behind
            last = await asyncio.to_thread(play, runtime, gid, 1)
            await until(lambda v=last: ids(steady)[-1:] == [v], f"version {last} on the steady stream")
        await asyncio.wait_for(dropped, WAIT)  # its stream ended: the client reconnects with Last-Event-ID
        assert hub.open_streams("10.0.0.1") == 0 and hub.drops == 1
        assert ids(steady) == list(range(start + 1, last + 1))
        gone.set()  # the other client goes away: its stream ends and frees its place
        await asyncio.wait_for(live, WAIT)
        assert hub.open_streams() == 0

    run(front, main)


def test_open_streams_end_their_responses_when_the_server_stops(runtime):
    front = create_front(create_app(runtime), threads=2)
    gid, _ = new_game(runtime)

    async def main():
        sent = []

        async def never_disconnects():
            await asyncio.Event().wait()

        async def send(message):
            sent.append(message)

        streams = [asyncio.ensure_future(front(stream_scope(gid, 0, f"10.0.1.{i}"), never_disconnects, send))
                   for i in range(3)]
        await until(lambda: front.state.hub.open_streams() == 3, "three streams")
        front.state.streams.close()  # SIGTERM in burrow serve
        await asyncio.wait_for(asyncio.gather(*streams), WAIT)
        ends = [m for m in sent if m["type"] == "http.response.body" and not m.get("more_body", False)]
        assert len(ends) == 3 and front.state.hub.open_streams() == 0  # every response completed, places freed

    run(front, main)


def test_an_idle_stream_gets_keep_alive_lines(runtime, monkeypatch):
    monkeypatch.setattr(web.front, "KEEPALIVE_SECONDS", 0.05)
    front = create_front(create_app(runtime), threads=2)
    gid, _ = new_game(runtime)

    async def main():
        sent, gone = [], asyncio.Event()

        async def receive():
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        stream = asyncio.ensure_future(front(stream_scope(gid, runtime.store.version(gid), "10.0.2.1"), receive,
                                             send))
        await until(lambda: body(sent).count("\n: ping") + body(sent).startswith(": ping") >= 2, "keep-alives")
        gone.set()
        await asyncio.wait_for(stream, WAIT)

    run(front, main)


def test_a_bad_stream_request_is_a_json_error(runtime):
    front = create_front(create_app(runtime), threads=2)

    async def main():
        for path, query, status in [("/api/games/nosuchgame00/stream", b"", 404),
                                    ("/api/games/../stream", b"", 404),
                                    ("/api/games/abcdefabcdef/stream", b"after=-5", 400)]:
            sent = []

            async def receive():
                return {"type": "http.disconnect"}

            async def send(message, sent=sent):
                sent.append(message)

            await front(scope(path, "10.0.5.1", query=query), receive, send)
            assert sent[0]["status"] == status, path
            assert set(json.loads(body(sent))["error"]) == {"code", "message"}

    run(front, main)


def test_the_front_counts_the_requests_it_answers_for_the_live_readers(runtime):
    app = create_app(runtime)
    seen = []
    app.add_url_rule("/counted", "counted", lambda: seen.append(front.state.hub.answering.wait_idle(0)) or "ok")
    front = create_front(app, threads=2)

    async def main():
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        await front(scope("/counted", "10.0.3.1"), receive, send)
        assert sent[0]["status"] == 200

    run(front, main)
    assert seen == [False]  # busy while Flask answered it
    assert front.state.hub.answering.wait_idle(0)  # idle once answered


BODY = {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}
PROXY = "10.0.0.2"  # the peer the server sees: the (innermost) proxy


def through_front(runtime, **settings) -> TestClient:
    from dataclasses import replace

    runtime.settings = replace(runtime.settings, **settings)
    return TestClient(create_front(create_app(runtime), threads=2), base_url="http://localhost",
                      client=(PROXY, 4000))


@pytest.mark.parametrize("forwarded, counted_as", [
    ("203.0.113.5:4711", "203.0.113.5"),  # a proxy that writes the client's port: still one client
    ("[2001:db8::1]:4711", "2001:db8::1"),
    ("2001:db8::1", "2001:db8::1"),
    ("not an address", PROXY),  # nothing usable: the peer
])
def test_a_forwarded_address_counts_without_its_port(runtime, forwarded, counted_as):
    client = through_front(runtime, trusted_proxies=1)
    answer = client.post("/api/games", json=BODY, headers={"X-Forwarded-For": forwarded})
    assert answer.status_code == 201, answer.json()
    assert runtime.store.meta(answer.json()["id"])["client"] == client_id(counted_as)


def test_one_client_behind_a_proxy_with_a_new_port_each_time_is_one_client(runtime):
    client = through_front(runtime, trusted_proxies=1)
    runtime.service.open_games.limit = 2
    answers = [client.post("/api/games", json=BODY, headers={"X-Forwarded-For": f"203.0.113.5:{port}"})
               for port in (4000, 4001, 4002)]
    assert [a.status_code for a in answers] == [201, 201, 429]


def test_a_foreign_host_is_refused_and_allowed_hosts_are_configurable(runtime):
    client = through_front(runtime)
    assert client.get("/api/health").status_code == 200
    for host in ("127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200, host
    refused = client.get("/api/health", headers={"Host": "rebind.example:8000"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_host"
    assert client.get(f"/api/games/{'a' * 12}/stream", headers={"Host": "rebind.example"}).status_code == 400
    site = through_front(runtime, site_url="https://games.example.org")
    assert site.get("/api/health", headers={"Host": "games.example.org"}).status_code == 200
    anything = through_front(runtime, allowed_hosts=("*",))
    assert anything.get("/api/health", headers={"Host": "rebind.example"}).status_code == 200


def test_host_names_without_ports():
    assert [host_name(h) for h in ("Example.org:80", "[::1]:8000", "::1", "127.0.0.1", "")] == [
        "example.org", "::1", "::1", "127.0.0.1", ""]


def test_a_body_over_the_limit_is_refused_unread_and_a_small_one_reaches_flask(runtime):
    client = through_front(runtime)
    big = client.post("/api/games", content=b"{" + b" " * 70_000 + b"}",
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and big.json()["error"]["code"] == "too_large"
    assert client.post("/api/games", json=BODY).status_code == 201


def test_a_body_that_does_not_arrive_in_time_is_a_408(runtime):
    from dataclasses import replace

    runtime.settings = replace(runtime.settings, body_seconds=0.2)
    front = create_front(create_app(runtime), threads=2)

    async def main():
        sent = []

        async def receive():
            await asyncio.sleep(0.1)
            return {"type": "http.request", "body": b"{", "more_body": True}  # a byte now and then

        async def send(message):
            sent.append(message)

        request = scope("/api/games", "10.0.6.1", method="POST",
                        headers=[(b"content-type", b"application/json"), (b"content-length", b"100")])
        await asyncio.wait_for(front(request, receive, send), WAIT)
        assert sent[0]["status"] == 408 and json.loads(body(sent))["error"]["code"] == "timeout"

    run(front, main)
