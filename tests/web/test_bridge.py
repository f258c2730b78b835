"""The bridge from the ASGI front to Flask (web/bridge.py): the request as WSGI sees it, the whole answer back."""

from __future__ import annotations

import asyncio

from flask import Flask, Response, request

from web.bridge import Bridge, environ_of


def call(app, scope: dict, body: bytes = b"") -> list[dict]:
    sent: list[dict] = []

    async def main():
        parts = [body[:3], body[3:]]

        async def receive():
            chunk = parts.pop(0) if parts else b""
            return {"type": "http.request", "body": chunk, "more_body": bool(parts)}

        async def send(message):
            sent.append(message)

        await Bridge(app, threads=2)(scope, receive, send)

    asyncio.run(main())
    return sent


def scope(method="GET", path="/", query=b"", headers=()) -> dict:
    return {"type": "http", "method": method, "path": path, "query_string": query, "headers": list(headers),
            "client": ("203.0.113.9", 4000), "server": ("localhost", 8000), "scheme": "https",
            "http_version": "1.1", "root_path": ""}


def test_the_request_reaches_flask_as_wsgi_describes_it():
    app = Flask(__name__)

    @app.post("/échos")
    def echo():
        return {"path": request.path, "args": request.args.to_dict(), "json": request.get_json(),
                "remote": request.remote_addr, "secure": request.is_secure, "host": request.host,
                "accept": request.headers.get("Accept"), "length": request.content_length}

    body = b'{"move": "a1-a3"}'
    sent = call(app, scope("POST", "/échos", b"x=1&y=%C3%A9", [
        (b"host", b"localhost:8000"), (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()), (b"accept", b"text/html"), (b"accept", b"*/*")]), body)
    assert sent[0]["status"] == 200 and (b"content-type", b"application/json") in sent[0]["headers"]
    import json

    answer = json.loads(sent[1]["body"])
    assert answer == {"path": "/échos", "args": {"x": "1", "y": "é"}, "json": {"move": "a1-a3"},
                      "remote": "203.0.113.9", "secure": True, "host": "localhost:8000",
                      "accept": "text/html,*/*", "length": len(body)}


def test_a_streamed_answer_is_sent_whole_and_closed():
    app = Flask(__name__)
    closed = []

    @app.get("/parts")
    def parts():
        def chunks():
            try:
                yield b"one,"
                yield b"two"
            finally:
                closed.append(True)

        return Response(chunks(), status=201, mimetype="text/plain")

    sent = call(app, scope(path="/parts"))
    assert sent[0]["status"] == 201 and sent[1]["body"] == b"one,two" and closed == [True]


def test_environ_of_names_every_header_once():
    environ = environ_of(scope(headers=[(b"x-forwarded-for", b"a"), (b"x-forwarded-for", b"b")]), b"")
    assert environ["HTTP_X_FORWARDED_FOR"] == "a,b" and environ["REMOTE_ADDR"] == "203.0.113.9"
    assert environ["wsgi.url_scheme"] == "https" and environ["SERVER_PORT"] == "8000"


def test_an_error_in_the_app_is_raised_in_the_request_that_waits_for_it():
    def broken(environ, start_response):
        raise RuntimeError("the app failed")

    try:
        call(broken, scope())
    except RuntimeError as exc:
        assert str(exc) == "the app failed"
    else:
        raise AssertionError("the error was lost")


class Held:
    """A bridge of one thread over an app that holds ``/slow`` until ``release`` is set; ``request(path)`` makes a
    request through it, its answers' bodies in ``answers``."""

    def __init__(self):
        import threading

        self.release = threading.Event()
        self.answers: list[bytes] = []

        def app(environ, start_response):
            if environ["PATH_INFO"] == "/slow":
                self.release.wait(5)
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [environ["PATH_INFO"].encode()]

        self.bridge = Bridge(app, threads=1)

    async def request(self, path: str) -> None:
        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if message["type"] == "http.response.body":
                self.answers.append(message["body"])

        await self.bridge(scope(path=path), receive, send)


def test_a_request_given_up_while_its_answer_is_made_leaves_the_threads_serving():
    held = Held()

    async def main():
        slow = asyncio.ensure_future(held.request("/slow"))
        await asyncio.sleep(0.05)
        slow.cancel()  # the client went away: nobody waits for this answer any more
        held.release.set()
        await asyncio.wait_for(held.request("/next"), 5)  # the one thread answers the next request

    asyncio.run(main())
    assert held.answers == [b"/next"]


def test_an_answer_for_a_loop_that_closed_meanwhile_leaves_the_thread_serving():
    held = Held()

    async def stopped_server():
        slow = asyncio.ensure_future(held.request("/slow"))
        await asyncio.sleep(0.05)
        slow.cancel()

    asyncio.run(stopped_server())  # its loop is closed now, its request still being answered
    held.release.set()
    asyncio.run(asyncio.wait_for(held.request("/next"), 5))  # a new loop: the one thread answers it
    assert held.answers == [b"/next"]
