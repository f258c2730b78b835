"""A TCP proxy of the tests' own between Burrow's processes and a Redis, on loopback, that makes the network fail.

``FaultyProxy(upstream_port).start()`` listens on a free port and forwards every connection to the upstream, both
ways, on threads. Faults, set and healed at any moment:

* ``latency(seconds)``: every chunk waits this long before it is passed on, each way (a round trip gains twice);
* ``stall()``: nothing is passed on any more, and connections stay open (a network that drops every packet, a
  Redis frozen): the clients' socket timeouts are all that ends their waits;
* ``cut()``: every open connection is closed and new ones are closed as soon as they come (a link down);
* ``heal()``: back to forwarding at once.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from tests.conftest import free_port

CHUNK = 65536


class FaultyProxy:
    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1"):
        self.upstream = (upstream_host, upstream_port)
        self.port = free_port()
        self.delay = 0.0
        self.mode = "forward"  # forward, stall, cut
        self._flowing = threading.Event()
        self._flowing.set()
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._closed = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> FaultyProxy:
        self._listener = socket.create_server(("127.0.0.1", self.port), backlog=512)
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()
        return self

    def latency(self, seconds: float) -> None:
        self.delay = seconds

    def stall(self) -> None:
        self.mode = "stall"
        self._flowing.clear()

    def cut(self) -> None:
        self.mode = "cut"
        self._flowing.set()
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            _close(sock)

    def heal(self) -> None:
        self.delay = 0.0
        self.mode = "forward"
        self._flowing.set()

    def close(self) -> None:
        self._closed = True
        self.cut()
        if self._listener is not None:
            _close(self._listener)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.mode == "cut":
                _close(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            server.settimeout(None)
            with self._lock:
                self._sockets.update((client, server))
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, target), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while True:
                data = source.recv(CHUNK)
                if not data:
                    break
                if self.delay:
                    time.sleep(self.delay)
                self._flowing.wait()  # a stall holds every chunk here until it heals (or the link is cut)
                if self.mode == "cut":
                    break
                target.sendall(data)
        except OSError:
            pass
        finally:
            _close(source)
            _close(target)
            with self._lock:
                self._sockets.discard(source)
                self._sockets.discard(target)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
