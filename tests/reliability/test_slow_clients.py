"""Request hardening of ``burrow serve`` (burrow/serving.py, web/front.py): oversized bodies refused unread, slow
and idle connections dropped, and neither starves anyone else."""

from __future__ import annotations

import socket
import time

import pytest

from tests.reliability.live import Server

HEAD_SECONDS = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("slow")
    srv = Server(tmp / "serve.log", data=tmp / "data",
                 env={"BURROW_HEAD_SECONDS": str(HEAD_SECONDS), "BURROW_BODY_SECONDS": str(HEAD_SECONDS)}).start()
    yield srv
    srv.kill()


def connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(0.5)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False  # still open
    except OSError:
        return True  # reset


def test_a_huge_content_length_is_refused_before_the_body_is_read(server):
    with connect(server) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 209715200\r\n\r\n{")
        head = answer(sock)
        assert head.startswith(b"HTTP/1.1 413") and time.monotonic() - started < HEAD_SECONDS


def test_a_chunked_body_past_the_limit_is_cut_off(server):
    with connect(server) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 16384
        sent = 0
        try:
            while sent < 1024 * 1024:  # 1 MiB, far past the 64 KiB limit: the server stops reading long before
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:
            pass  # the server answered and closed
        assert answer(sock).startswith(b"HTTP/1.1 413")


def test_a_slow_body_gets_408(server):
    with connect(server) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"game\"")
        assert answer(sock).startswith(b"HTTP/1.1 408")


def test_slow_and_idle_connections_are_dropped_and_starve_nobody(server):
    idle = [connect(server) for _ in range(150)]  # never send a byte
    slow = [connect(server) for _ in range(150)]  # a request head that never ends
    for sock in slow:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    http = server.http()
    started = time.monotonic()
    assert http.get("/api/health")[0] == 200  # 300 stalled connections do not hold anyone else back
    assert time.monotonic() - started < HEAD_SECONDS
    time.sleep(HEAD_SECONDS + 1.0)
    assert all(closed_by_server(sock) for sock in idle + slow)
    for sock in idle + slow:
        sock.close()


def test_an_endless_request_head_is_cut_off(server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
        try:
            for _ in range(64):  # 1 MiB of headers, far past the 16 KiB a head may have
                sock.sendall(b"X-Pad: " + b"a" * 16000 + b"\r\n")
        except OSError:
            pass  # closed by the server
        sock.settimeout(5)
        try:
            head = answer(sock)
        except OSError:
            head = b""  # reset
        assert head == b"" or head.startswith(b"HTTP/1.1 4"), head  # closed, or refused (431) and closed
    assert server.http().get("/api/health")[0] == 200
