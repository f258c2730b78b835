"""The whole site in a test: requests through the web front (``web/front.py``: the guard, the stream route, Flask
behind), with answers shaped like Flask's test client's, so a test reads streams and API answers alike.

A stream never ends by itself: ``Site`` reads one for ``stream_seconds`` and then goes away, as a client would."""

from __future__ import annotations

import asyncio
import json as jsonlib
from urllib.parse import urlsplit

from starlette.testclient import TestClient
from werkzeug.datastructures import Headers

from web.app import create_app
from web.front import create_front


class OpenStream:
    """A client holding a request open on an ASGI ``front`` (made inside a running event loop): ``sent`` is what it
    has received so far; ``hang_up`` leaves and waits for the server to finish."""

    def __init__(self, front, scope: dict):
        self.sent: list[dict] = []
        self._gone = asyncio.Event()
        self.task = asyncio.ensure_future(front(scope, self._receive, self._send))

    async def _receive(self) -> dict:
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict) -> None:
        self.sent.append(message)

    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent)

    async def hang_up(self) -> None:
        self._gone.set()
        await asyncio.wait_for(self.task, 20)


class Answer:
    """An answer, as Flask's test client shows one: ``status_code``, ``json``, ``get_data``, ``headers``."""

    def __init__(self, status: int, headers: list[tuple[str, str]], data: bytes):
        self.status_code = status
        self.headers = Headers(headers)  # case-insensitive
        self.data = data

    @property
    def mimetype(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip()

    @property
    def is_json(self) -> bool:
        return self.mimetype == "application/json"

    @property
    def json(self):
        return jsonlib.loads(self.data) if self.is_json else None

    def get_data(self, as_text: bool = False):
        return self.data.decode() if as_text else self.data


class Site:
    """Requests to the whole site over one runtime, from ``client`` (an address)."""

    def __init__(self, runtime, client: str = "127.0.0.1", stream_seconds: float = 0.3, app=None):
        self.flask = app or create_app(runtime)
        self.front = create_front(self.flask, threads=4)
        self.address = client
        self.stream_seconds = stream_seconds
        self._clients: dict[str, TestClient] = {}

    def close(self) -> None:
        self.front.state.hub.stop()

    def http(self, address: str) -> TestClient:
        """The test client of a client at ``address``."""
        if address not in self._clients:
            self._clients[address] = TestClient(self.front, base_url="http://localhost", client=(address, 4000))
        return self._clients[address]

    def open(self, url: str, method: str = "GET", data=None, json=None, headers: dict | None = None,
             environ_base: dict | None = None, content_type: str | None = None) -> Answer:
        """One request; ``environ_base`` as Flask's (only ``REMOTE_ADDR``: the client's address)."""
        headers = dict(headers or {})
        if content_type is not None:
            headers["Content-Type"] = content_type
        address = (environ_base or {}).get("REMOTE_ADDR", self.address)
        if method in ("GET", "HEAD") and urlsplit(url).path.endswith(("/stream", "/notices")):
            return self.stream(url, method, headers, address)
        if json is not None:
            data = jsonlib.dumps(json).encode()
            headers.setdefault("Content-Type", "application/json")
        r = self.http(address).request(method, url, content=data, headers=headers)
        return Answer(r.status_code, list(r.headers.multi_items()), r.content)

    def get(self, url: str, **kwargs) -> Answer:
        return self.open(url, "GET", **kwargs)

    def post(self, url: str, **kwargs) -> Answer:
        return self.open(url, "POST", **kwargs)

    def open_stream(self, url: str, method: str = "GET", headers: dict | None = None,
                    address: str | None = None) -> OpenStream:
        """A client holding ``url`` open (call inside a running event loop)."""
        parts = urlsplit(url)
        scope = {"type": "http", "method": method, "path": parts.path, "raw_path": parts.path.encode(),
                 "query_string": parts.query.encode(), "http_version": "1.1", "root_path": "", "scheme": "http",
                 "headers": [(b"host", b"localhost"),
                             *((k.lower().encode(), str(v).encode()) for k, v in (headers or {}).items())],
                 "client": (address or self.address, 4000), "server": ("localhost", 80)}
        return OpenStream(self.front, scope)

    def stream(self, url: str, method: str = "GET", headers: dict | None = None, address: str | None = None
               ) -> Answer:
        """What a client reading ``url`` for ``stream_seconds`` receives, then gone."""
        sent: list[dict] = []

        async def main() -> None:
            stream = self.open_stream(url, method, headers, address)
            await asyncio.wait([stream.task], timeout=self.stream_seconds)
            await stream.hang_up()
            sent.extend(stream.sent)

        asyncio.run(main())
        start = next(m for m in sent if m["type"] == "http.response.start")
        headers_out = [(k.decode(), v.decode()) for k, v in start["headers"]]
        return Answer(start["status"], headers_out,
                      b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))
