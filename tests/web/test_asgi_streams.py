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


def run(front, main) -> None:
    """``main()`` on a loop of its own; the hub's readers stop after it."""
    try:
        asyncio.run(main())
    finally:
        front.hub.stop()


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

    run(front, main)


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

    run(front, main)


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

    run(front, main)


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

    run(front, main)
    assert seen == [False]  # busy while Flask answered it
    assert front.hub.answering.wait_idle(0)  # idle once answered


class RecordingTransport:
    """What uvicorn's response cycle writes to, recorded (a socket that takes everything)."""

    def __init__(self):
        self.written = bytearray()

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return False

    def chunks(self) -> list[int]:
        """The versions in the chunked body written so far, in order."""
        body = bytes(self.written).split(b"\r\n\r\n", 1)[-1].decode()
        return [json.loads(line[6:])["version"] for line in body.split("\n") if line.startswith("data: ")]


def uvicorn_send(request: dict):
    """The ``send`` that uvicorn's httptools protocol gives an app: its ``RequestResponseCycle.send``."""
    import logging

    from uvicorn.protocols.http.flow_control import FlowControl
    from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

    transport = RecordingTransport()
    cycle = RequestResponseCycle(request, transport, FlowControl(transport), logging.getLogger("test"),
                                 logging.getLogger("test"), False, [], asyncio.Event(), False, True, lambda: None)
    return cycle, transport


def test_under_uvicorn_new_versions_are_written_by_the_wake_up_itself_in_order(runtime):
    front = create_asgi(create_app(runtime), threads=2)
    gid, _ = new_game(runtime)
    start = runtime.store.version(gid)

    async def main():
        gone = asyncio.Event()

        async def receive():
            await gone.wait()
            return {"type": "http.disconnect"}

        request = {**scope(gid, start, "10.0.4.1"), "http_version": "1.1"}
        cycle, transport = uvicorn_send(request)
        stream = asyncio.ensure_future(front(request, receive, cycle.send))
        await until(lambda: front.hub.open_streams() == 1, "the stream")
        last = start
        for _ in range(5):
            last = await asyncio.to_thread(play, runtime, gid, 1)
            await until(lambda v=last: transport.chunks()[-1:] == [v], f"version {last}")
        assert transport.chunks() == list(range(start + 1, last + 1))
        assert front.direct_writes >= 1  # written from the wake-up, with no task switch
        gone.set()
        await asyncio.wait_for(stream, WAIT)

    run(front, main)


def test_under_uvicorn_a_client_that_does_not_read_falls_back_to_send_and_is_dropped(runtime):
    front = create_asgi(create_app(runtime), threads=2)
    front.hub.buffer = 2
    gid, _ = new_game(runtime)
    start = runtime.store.version(gid)

    async def main():
        async def never_disconnects():
            await asyncio.Event().wait()

        request = {**scope(gid, start, "10.0.4.2"), "http_version": "1.1"}
        cycle, transport = uvicorn_send(request)
        stream = asyncio.ensure_future(front(request, never_disconnects, cycle.send))
        await until(lambda: front.hub.open_streams() == 1, "the stream")
        first = await asyncio.to_thread(play, runtime, gid, 1)
        await until(lambda: transport.chunks()[-1:] == [first], "the first version")
        cycle.flow.pause_writing()  # the client stopped reading: the socket's buffers are full
        written = len(transport.written)
        for _ in range(5):
            await asyncio.to_thread(play, runtime, gid, 1)
        await asyncio.wait_for(stream, WAIT)  # stuck in send, fell behind, dropped: the stream ended
        assert len(transport.written) == written  # nothing written past the pause
        assert front.hub.drops == 1 and front.hub.open_streams() == 0

    run(front, main)
