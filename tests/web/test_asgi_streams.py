"""The ASGI front's stream handler (web/asgi.py) driven directly, on fakeredis and a real redis-server: a client
whose writes are stuck is dropped (its stream ends, its place is freed) while another stream receives every
version; a client that goes away is unsubscribed."""

from __future__ import annotations

import asyncio
import json

from tests.services.test_live import new_game, play
from web.app import create_app
from web.asgi import create_asgi

WAIT = 20  # seconds: a bound, reached only when something is broken


def scope(gid: str, after: int, client: str) -> dict:
    return {"type": "http", "method": "GET", "path": f"/api/games/{gid}/stream", "headers": [],
            "query_string": f"after={after}".encode(), "client": (client, 5000)}


def ids(messages: list[dict]) -> list[int]:
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body").decode()
    return [json.loads(line[6:])["version"] for line in body.split("\n") if line.startswith("data: ")]


async def until(predicate, what: str) -> None:
    for _ in range(WAIT * 50):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def test_a_client_stuck_writing_is_dropped_and_another_receives_every_version(runtime):
    front = create_asgi(create_app(runtime), threads=2)
    front.hub.buffer = 2
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

        dropped = asyncio.ensure_future(front(scope(gid, start, "10.0.0.1"), never_disconnects, send_stuck))
        live = asyncio.ensure_future(front(scope(gid, start, "10.0.0.2"), never_disconnects, send))
        await until(lambda: front.hub.open_streams() == 2, "both streams")
        last = start
        for _ in range(8):  # one at a time: the steady reader keeps up, the stuck one falls behind
            last = await asyncio.to_thread(play, runtime, gid, 1)
            await until(lambda v=last: ids(steady)[-1:] == [v], f"version {last} on the steady stream")
        await asyncio.wait_for(dropped, WAIT)  # its stream ended: the client reconnects with Last-Event-ID
        assert front.hub.open_streams("10.0.0.1") == 0 and front.hub.drops == 1
        await until(lambda: ids(steady)[-1:] == [last], "every version on the other stream")
        assert ids(steady) == list(range(start + 1, last + 1))
        gone.set()  # the other client goes away: its stream ends and frees its place
        await asyncio.wait_for(live, WAIT)
        assert front.hub.open_streams() == 0

    try:
        asyncio.run(main())
    finally:
        front.hub.stop()


def test_open_streams_end_their_responses_when_the_server_stops(runtime):
    front = create_asgi(create_app(runtime), threads=2)
    gid, _ = new_game(runtime)

    async def main():
        sent = []

        async def never_disconnects():
            await asyncio.Event().wait()

        async def send(message):
            sent.append(message)

        streams = [asyncio.ensure_future(front(scope(gid, 0, f"10.0.1.{i}"), never_disconnects, send))
                   for i in range(3)]
        await until(lambda: front.hub.open_streams() == 3, "three streams")
        front.close_streams()  # SIGTERM in burrow serve
        await asyncio.wait_for(asyncio.gather(*streams), WAIT)
        ends = [m for m in sent if m["type"] == "http.response.body" and not m.get("more_body", False)]
        assert len(ends) == 3 and front.hub.open_streams() == 0  # every response completed, every place freed

    try:
        asyncio.run(main())
    finally:
        front.hub.stop()


def test_an_idle_stream_gets_keep_alive_lines(runtime, monkeypatch):
    import web.asgi

    monkeypatch.setattr(web.asgi, "KEEPALIVE_SECONDS", 0.05)
    front = create_asgi(create_app(runtime), threads=2)
    gid, _ = new_game(runtime)

    async def main():
        sent, gone = [], asyncio.Event()

        async def receive():
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        stream = asyncio.ensure_future(front(scope(gid, runtime.store.version(gid), "10.0.2.1"), receive, send))
        await until(lambda: sum(b": keep-alive" in m.get("body", b"") for m in sent) >= 2, "keep-alive lines")
        gone.set()
        await asyncio.wait_for(stream, WAIT)

    try:
        asyncio.run(main())
    finally:
        front.hub.stop()


def test_the_front_counts_the_requests_it_answers_for_the_live_readers(runtime):
    app = create_app(runtime)
    seen = []
    app.add_url_rule("/counted", "counted", lambda: seen.append(front.hub.answering.wait_idle(0)) or "ok")
    front = create_asgi(app, threads=2)

    async def main():
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        request = {"type": "http", "method": "GET", "path": "/counted", "headers": [], "query_string": b"",
                   "client": ("10.0.3.1", 5000), "server": ("testserver", 80), "scheme": "http",
                   "http_version": "1.1", "root_path": "", "raw_path": b"/counted"}
        await front(request, receive, send)
        assert sent[0]["status"] == 200

    try:
        asyncio.run(main())
        assert seen == [False]  # busy while Flask answered it
        assert front.hub.answering.wait_idle(0)  # idle once answered
    finally:
        front.hub.stop()
