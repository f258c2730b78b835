"""Logs an operator can search (docs/operations.md, "Logs"): ``burrow serve`` writes one JSON line per request
and per job; a command's request id follows it into the AI turn the dispatcher makes of it; and no line carries
a seat token, a password or a session id."""

from __future__ import annotations

import json
import re

import pytest

from tests.reliability.live import Server, wait_until
from tests.reliability.test_process_crashes import ENV

pytestmark = pytest.mark.slow
PASSWORD = "correct horse battery staple 42"


def lines(server: Server) -> list[dict]:
    """The JSON lines of the server's log (its start-up sentences, ``burrow: …``, are for people)."""
    out = []
    for line in server.log().splitlines():
        if line.strip() and not line.startswith("burrow: "):
            out.append(json.loads(line))  # every other line is one JSON object
    return out


def test_one_json_line_per_request_and_job_with_the_request_id_and_no_secret(redis_server, tmp_path):
    store = redis_server()
    server = Server(tmp_path / "serve.log", redis_url=store.url, env={**ENV, "BURROW_LOG_FORMAT": "json"}).start()
    try:
        http = server.http()
        status, body, headers = http.request("POST", "/api/accounts", {"username": "Ana", "password": PASSWORD})
        assert status == 201, body
        session = re.search(r"burrow_session=([^;]+)", headers["set-cookie"])[1]
        assert http.request("GET", "/api/me", headers={"Cookie": f"burrow_session={session}"})[0] == 200
        status, game, _ = http.request("POST", "/api/games", {"game": "murus", "players": [
            {"name": "Eve"}, {"name": "Bot", "ai": "easy"}]}, headers={"X-Request-ID": "make-42"})
        assert status == 201, game
        token = game["seats"][0]["token"]
        status, answer, headers = http.request("POST", f"/api/games/{game['id']}/commands", {"move": "a1-a3"},
                                               token=token, headers={"X-Request-ID": "cmd-rid-42"})
        assert status == 200 and headers["x-request-id"] == "cmd-rid-42"
        weird = http.request("GET", "/api/catalog", headers={"X-Request-ID": "not an id\\u0000"})[2]
        assert re.fullmatch(r"[0-9a-f]{16}", weird["x-request-id"])  # a malformed id is replaced by ours

        def ai_job_logged() -> list[dict]:
            return [x for x in lines(server) if x.get("event") == "job" and x.get("queue") == "ai"
                    and x.get("rid") == "cmd-rid-42"]

        [job] = wait_until(ai_job_logged, 60, what="the AI turn's job line")
        assert job["outcome"] == "ok" and job["job"] == "workers.jobs.ai_turn" and job["seconds"] >= 0
        requests = [x for x in lines(server) if x.get("event") == "request"]
        [command] = [x for x in requests if x["rid"] == "cmd-rid-42"]
        assert command["route"] == "/api/games/<gid>/commands" and command["status"] == 200
        assert command["method"] == "POST" and command["ms"] >= 0 and command["level"] == "info"
        assert {"/api/accounts", "/api/me", "/api/games", "/api/catalog"} <= {x["route"] for x in requests}
        assert all(game["id"] not in x["route"] for x in requests)  # templates, never paths
        text = server.log()
        for secret in (token, PASSWORD, session, *(s["token"] for s in game["seats"] if "token" in s)):
            assert secret not in text
    finally:
        server.kill()
