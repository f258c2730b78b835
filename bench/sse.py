"""A small asyncio Server-Sent Events client over raw sockets: one process holds thousands of streams.

Used by ``bench/watchers.py`` and the live-stream tests. HTTP/1.1, chunked or not; every message is parsed
(``id``, ``event``, ``data``), comments (keep-alives) are skipped.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from dataclasses import dataclass, field


class Refused(Exception):
    """The server answered the stream request with an error status."""

    def __init__(self, status: int, body: bytes):
        super().__init__(f"HTTP {status}: {body[:200]!r}")
        self.status = status
        self.body = body


@dataclass
class Message:
    id: int | None
    event: str
    data: dict | None
    received: float  # time.time() when its last byte arrived


@dataclass
class Stream:
    """One open stream: ``messages()`` yields them as they come; ``close()`` ends it."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    chunked: bool
    _buffer: bytes = b""
    _body_left: int = 0
    closed: bool = field(default=False)

    async def _body(self) -> bytes:
        """The next piece of the body; b"" at its end."""
        if not self.chunked:
            return await self.reader.read(65536)
        if self._body_left == 0:
            line = await self.reader.readline()
            if not line:
                return b""
            size = int(line.strip().split(b";")[0] or b"0", 16)
            if size == 0:
                return b""
            self._body_left = size
        data = await self.reader.read(self._body_left)
        if not data:
            return b""
        self._body_left -= len(data)
        if self._body_left == 0:
            await self.reader.readexactly(2)  # the chunk's CRLF
        return data

    async def next(self, parse: bool = True) -> Message | None:
        """The next message (keep-alives skipped); None when the stream ends."""
        while True:
            end = self._buffer.find(b"\n\n")
            if end >= 0:
                block, self._buffer = self._buffer[:end], self._buffer[end + 2:]
                fields: dict[str, str] = {}
                for line in block.decode().split("\n"):
                    if not line or line.startswith(":"):
                        continue
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
                if "data" not in fields:
                    continue
                data = json.loads(fields["data"]) if parse else None
                return Message(int(fields["id"]) if "id" in fields else None, fields.get("event", "message"),
                               data, time.time())
            try:
                piece = await self._body()
            except (ConnectionError, asyncio.IncompleteReadError):
                piece = b""
            if not piece:
                self.closed = True
                return None
            self._buffer += piece

    def close(self) -> None:
        self.closed = True
        self.writer.close()


async def open_stream(port: int, gid: str, *, last_event_id: int | None = None, after: int | None = None,
                      host: str = "127.0.0.1", headers: dict[str, str] | None = None,
                      rcvbuf: int | None = None) -> Stream:
    """Open ``GET /api/games/<gid>/stream``; raises ``Refused`` for an error status. ``rcvbuf``: a small socket
    receive buffer (a client that stalls fills it sooner)."""
    sock = None
    if rcvbuf is not None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, port))
        reader, writer = await asyncio.open_connection(sock=sock)
    else:
        reader, writer = await asyncio.open_connection(host, port)
    path = f"/api/games/{gid}/stream" + (f"?after={after}" if after is not None else "")
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream"]
    if last_event_id is not None:
        lines.append(f"Last-Event-ID: {last_event_id}")
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    answer_headers = {k.strip().lower(): v.strip() for k, _, v in
                      (line.partition(b":") for line in head.split(b"\r\n")[1:] if line)}
    chunked = answer_headers.get(b"transfer-encoding", b"").lower() == b"chunked"
    stream = Stream(reader, writer, chunked)
    if status != 200:
        body = b""
        if b"content-length" in answer_headers:
            body = await reader.readexactly(int(answer_headers[b"content-length"]))
        stream.close()
        raise Refused(status, body)
    return stream
