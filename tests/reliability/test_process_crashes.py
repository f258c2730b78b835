"""Whole processes killed under load: the server (web + workers), Redis itself, and the embedded mode.

Each test plays games through HTTP on a live ``burrow serve`` from several threads, kills a process with SIGKILL
while commands are in flight, restarts it, and then requires that every acknowledged command (a 200) is still
there, exactly as answered, and that the projections converge by themselves (``burrow replay --verify`` agrees).
"""

from __future__ import annotations

import json

import pytest
import redis

from burrow.cli import main as burrow
from services.store.streams import Keys
from tests.conftest import free_port
from tests.reliability.live import Http, Players, Server, assert_acknowledged_present, wait_until

pytestmark = pytest.mark.slow  # processes killed under load: crash drills, the full run's

AOF = ("--appendonly", "yes", "--appendfsync", "everysec")  # production's persistence (README, docker-compose)
ENV = {"BURROW_CLAIM_IDLE_MS": "300", "BURROW_AI_TIME": "0.05"}
GAMES = [[{"name": "Ana"}, {"name": "Bob"}]] * 4 + [[{"name": "Cy"}, {"name": "Bot", "ai": "easy"}]]
ACKS_BEFORE_CRASH = 30
CONVERGE_SECONDS = 60


def create_games(http: Http) -> list[dict]:
    games = []
    for players in GAMES:
        status, game = http.post("/api/games", {"game": "murus", "players": players})
        assert status == 201, game
        games.append(game)
    return games


def settled(client: redis.Redis, keys: Keys, gid: str) -> bool:
    """Projections at the game's version, and no AI seat left waiting to play (its job was not lost)."""
    version = client.xlen(keys.game(gid))
    raw = client.get(keys.view(gid))
    line = client.hget(keys.lobby_versions(keys.partition(gid)), gid)
    if raw is None or line is None or int(line) != version:
        return False
    view = json.loads(raw)
    spectator = view["docs"]["spectator"]
    ai_to_act = [s for s in spectator["to_act"] if spectator["players"][s].get("ai")]
    return view["version"] == version and not (ai_to_act and spectator["status"] != "finished")


def assert_converges(url: str, keys: Keys, gids: list[str], monkeypatch, capsys) -> None:
    client = redis.Redis.from_url(url)
    wait_until(lambda: all(settled(client, keys, gid) for gid in gids), CONVERGE_SECONDS,
               what="projections to converge")
    monkeypatch.setenv("BURROW_PREFIX", keys.prefix)
    for gid in gids:
        assert burrow(["replay", gid, "--verify", "--redis", url]) == 0, capsys.readouterr().out
    capsys.readouterr()


def test_server_killed_under_load_keeps_every_acknowledged_command(redis_server, tmp_path, monkeypatch, capsys):
    store = redis_server(*AOF)
    port = free_port()
    server = Server(tmp_path / "serve.log", redis_url=store.url, env=ENV, port=port).start()
    try:
        players = Players(port, create_games(server.http()), seed=1).start()
        wait_until(lambda: players.count() >= ACKS_BEFORE_CRASH, 120, what="load")
        server.kill()  # web, dispatcher and worker threads at once, commands in flight
        wait_until(lambda: players.outcomes["connection"] > 0, 30, what="clients to notice")
        players.finish()
        server = Server(tmp_path / "serve-2.log", redis_url=store.url, env=ENV, port=port).start()
        assert_acknowledged_present(server.http(), players.acked)
        assert_converges(store.url, Keys(), [g["id"] for g in players.games], monkeypatch, capsys)
        game = players.games[0]
        status, answer = server.http().get(f"/api/games/{game['id']}", game["seats"][0]["token"])
        assert status == 200 and answer["version"] >= max(a["version"] for g, _, a in players.acked
                                                          if g == game["id"])
    finally:
        server.kill()


def test_redis_killed_with_aof_everysec_loses_no_acknowledged_event(redis_server, tmp_path, monkeypatch, capsys):
    """Redis writes the AOF (write(2), not yet fsync) before it answers, so a killed Redis process loses nothing
    it acknowledged; only an OS crash or power cut could lose the last second (docs/guarantees.md)."""
    store = redis_server(*AOF)
    server = Server(tmp_path / "serve.log", redis_url=store.url, env=ENV).start()
    try:
        players = Players(server.port, create_games(server.http()), seed=2).start()
        wait_until(lambda: players.count() >= ACKS_BEFORE_CRASH, 120, what="load")
        store.kill()
        acked_before = players.count()
        wait_until(lambda: players.outcomes[503] >= 3, 60, what="503 answers while Redis is down")
        store.start()  # same port, same directory: Redis replays its AOF
        wait_until(lambda: players.count() >= acked_before + 10, 120, what="the service to recover by itself")
        players.finish()
        error = players.samples[503]["error"]
        assert error["code"] == "store_unavailable" and "unreachable" in error["message"]
        assert_acknowledged_present(server.http(), players.acked)
        assert_converges(store.url, Keys(), [g["id"] for g in players.games], monkeypatch, capsys)
    finally:
        server.kill()


def test_redis_briefly_down_every_endpoint_answers_503_then_recovers(redis_server, tmp_path, monkeypatch, capsys):
    store = redis_server(*AOF)
    server = Server(tmp_path / "serve.log", redis_url=store.url, env=ENV).start()
    try:
        http = server.http()
        game = create_games(http)[0]
        gid, token = game["id"], game["seats"][0]["token"]
        status, answer = http.post(f"/api/games/{gid}/commands", {"move": "a1-a3", "command_id": "c1"}, token)
        assert status == 200
        store.kill()
        status, health, _ = http.request("GET", "/api/health")
        assert status == 503 and health["ok"] is False and "unreachable" in health["problems"][0], health
        probes = [("GET", "/api/games", None), ("GET", f"/api/games/{gid}", None),
                  ("GET", f"/api/games/{gid}/events", None), ("GET", f"/api/games/{gid}/stream", None),
                  ("POST", "/api/games", {"game": "murus", "players": [{"name": "a"}, {"name": "b"}]}),
                  ("POST", f"/api/games/{gid}/commands", {"move": "a7-a5"})]
        for method, path, body in probes:
            status, reply, headers = http.request(method, path, body, token=token)
            assert status == 503, (path, status, reply)
            assert reply["error"]["code"] == "store_unavailable" and reply["error"]["message"], (path, reply)
            assert int(headers["retry-after"]) >= 1, (path, headers)
            assert "Traceback" not in json.dumps(reply)
        store.start()
        wait_until(lambda: http.get("/api/health")[0] == 200, 30, what="health")
        status, again = http.post(f"/api/games/{gid}/commands", {"move": "a1-a3", "command_id": "c1"}, token)
        assert status == 200 and again == answer  # the acknowledged command survived, retried: same result
        seat = 1  # seat 0 has moved
        status, mine = http.get(f"/api/games/{gid}?min_version={answer['version']}", game["seats"][seat]["token"])
        status, after = http.post(f"/api/games/{gid}/commands", {"move": mine["legal"][0]},
                                  game["seats"][seat]["token"])
        assert status == 200, after
        # the dispatcher and the worker threads reconnected by themselves: the new version gets projected
        assert_converges(store.url, Keys(), [gid], monkeypatch, capsys)
    finally:
        server.kill()


def test_embedded_server_killed_mid_game_keeps_every_acknowledged_move(tmp_path):
    data = tmp_path / "data"
    port = free_port()
    server = Server(tmp_path / "serve.log", data=data, env=ENV, port=port).start()
    try:
        players = Players(port, create_games(server.http()), seed=3).start()
        wait_until(lambda: players.count() >= ACKS_BEFORE_CRASH, 120, what="load")
        server.kill()
        players.finish()
        server = Server(tmp_path / "serve-2.log", data=data, env=ENV, port=port).start()
        assert f"({len(GAMES)} games loaded)" in server.log()
        http = server.http()
        assert_acknowledged_present(http, players.acked)
        for game in players.games:  # and play goes on
            status, doc = http.get(f"/api/games/{game['id']}")
            assert status == 200 and doc["version"] >= game["version"]
        players = Players(port, players.games, seed=4).start()
        wait_until(lambda: players.count() >= 5, 60, what="play to go on")
        players.finish()
        assert_acknowledged_present(http, players.acked)
    finally:
        server.kill()
