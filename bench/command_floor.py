"""The floor of the HTTP command path: the mandated stack doing nothing but the command's Lua append.

    python bench/command_floor.py --port 8001 --redis redis://127.0.0.1:6390/0 [--processes 2]

A Flask app of one route, ``POST /api/games/<gid>/commands``, that reads the JSON body (``move``,
``expected_version``, ``command_id``), appends one pre-encoded ``moved`` event with them (``EventStore.append``:
the same script, keys and arguments as the service's append) and answers ``{"version"}``; behind the same front as
``burrow serve`` (the guard and the bridge of ``web/front.py`` and ``web/bridge.py``), on the same server
(Hypercorn, configured by ``burrow/serving.py``), in as many processes sharing one socket. No game is loaded, no
token checked, no rule asked: what ``POST /api/games/<gid>/commands`` costs beyond this is Burrow's own work
(``bench/command_path.py`` prints both).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as ``python bench/command_floor.py``

from flask import Flask, jsonify, request
from starlette.applications import Starlette
from starlette.routing import Mount

from burrow.serving import serve_here
from services.config import Settings
from services.store.connection import connect
from services.store.streams import EventStore, Keys
from web.bridge import Bridge
from web.front import Guard


def moved() -> tuple[str, bytes]:
    """The event every floor command appends (a Murus move, pre-encoded)."""
    from domain.murus import Moved
    from services.store import codec

    return codec.encode(Moved(seat=0, move="b1-d1", kind="distribute", frm="b1", to="d1",
                              cells={"b1": "", "c1": "R", "d1": "R"}))


def floor_app(store: EventStore) -> Flask:
    """The one-route Flask app."""
    app = Flask("floor")
    event = moved()

    @app.post("/api/games/<gid>/commands")
    def command(gid: str):
        body = json.loads(request.get_data())
        version = body["expected_version"]
        result = store.append(gid, [event], expected_version=version, command_id=f"0:{body['command_id']}",
                              result=f"{version + 1}-{version + 1}".encode())
        return jsonify({"version": result.version})

    @app.get("/")
    def ready():
        return jsonify({"ok": True})

    return app


def front(store: EventStore, settings: Settings, threads: int = 32) -> Starlette:
    """The floor app behind the same guard and bridge as Burrow's front."""
    app = Starlette(routes=[Mount("/", app=Bridge(floor_app(store), threads))])
    app.add_middleware(Guard, settings=settings)
    return app


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--redis", required=True, help="the events' Redis URL")
    p.add_argument("--prefix", default="floor")
    p.add_argument("--processes", type=int, default=2)
    args = p.parse_args(argv)
    settings = Settings()
    sock = socket.create_server(("127.0.0.1", args.port), backlog=4096)
    children = []
    for _ in range(args.processes - 1):  # forked before any loop or thread: each serves the shared socket
        pid = os.fork()
        if pid == 0:
            children = []
            break
        children.append(pid)
    store = EventStore(connect(args.redis), Keys(args.prefix))
    try:
        serve_here(front(store, settings), settings, sock, lambda: None)
    finally:
        for pid in children:
            os.kill(pid, 15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
