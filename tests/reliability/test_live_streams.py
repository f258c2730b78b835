"""Live streams against a running ``burrow serve``, embedded and on a private redis-server (docs/guarantees.md,
"Live updates"): more open streams than the server has threads, a stalled reader, the per-client cap, reconnects
with ``Last-Event-ID``. Behaviour only, never timings: every wait below is a generous bound."""

from __future__ import annotations

import asyncio
import itertools

import pytest
import redis

from bench.sse import Refused, Stream, open_stream
from tests.conftest import RedisProcess
from tests.reliability.conftest import require_redis_server
from tests.reliability.live import Http, Server

WAIT = 30  # seconds: a bound on waiting for a message, only reached when something is broken
_addresses = itertools.count(1)


def address() -> dict[str, str]:
    """A client address of its own (the server trusts one proxy's X-Forwarded-For), so tests never share a cap."""
    return {"X-Forwarded-For": f"10.14.{next(_addresses)}.1"}


@pytest.fixture(scope="module", params=["embedded", "redis"])
def server(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"live-{request.param}")
    redis_process = None
    url = None
    if request.param == "redis":
        require_redis_server()
        redis_process = RedisProcess().start()
        url = redis_process.url
    env = {"BURROW_TRUSTED_PROXIES": "1", "BURROW_AI_TIME": "0.05"}
    srv = Server(tmp / "serve.log", redis_url=url, data=tmp / "data", env=env).start()
    srv.redis_url = url
    yield srv
    srv.kill()
    if redis_process is not None:
        redis_process.stop()


def new_game(http: Http) -> tuple[str, dict[int, str], int]:
    body = {"game": "murus", "players": [{"name": "A"}, {"name": "B"}], "seed": 14}
    status, body, _ = http.request("POST", "/api/games", body, headers=address())
    assert status == 201, body
    return body["id"], {s["seat"]: s["token"] for s in body["seats"]}, body["version"]


def move(http: Http, gid: str, tokens: dict[int, str], version: int) -> int:
    """One legal move by the seat to act in the game at ``version``; returns the version it reached."""
    status, doc = http.get(f"/api/games/{gid}?min_version={version}")
    assert status == 200, doc
    seat = doc["to_act"][0]
    status, mine = http.get(f"/api/games/{gid}?min_version={doc['version']}", tokens[seat])
    assert status == 200 and mine["legal"], mine
    status, answer = http.post(f"/api/games/{gid}/commands", {"move": mine["legal"][0]}, tokens[seat])
    assert status == 200, answer
    return answer["version"]


async def read_until(stream: Stream, version: int) -> list[int]:
    """The ids of the messages received until ``version`` (the stream's end stops it too)."""
    seen = []
    while not seen or seen[-1] < version:
        message = await asyncio.wait_for(stream.next(), WAIT)
        if message is None:
            break
        seen.append(message.id)
        assert message.data["version"] == message.id
    return seen


def test_more_open_streams_than_threads_a_command_answers_and_every_stream_receives_it(server):
    http = Http(server.port)
    games = [new_game(http) for _ in range(4)]

    async def run():
        clients = [address() for _ in range(10)]
        before = redis.Redis.from_url(server.redis_url).info("clients") if server.redis_url else None
        streams = []
        for i in range(100):  # the server runs 32 threads for the API (the default): streams hold none of them
            gid, _, version = games[i % len(games)]
            streams.append((gid, await open_stream(server.port, gid, after=version, headers=clients[i % 10])))
        connections = redis.Redis.from_url(server.redis_url).info("clients") if server.redis_url else None
        status, health = await asyncio.to_thread(http.get, "/api/health")
        assert status == 200 and health["ok"]
        reached = {}
        for gid, tokens, version in games:
            reached[gid] = await asyncio.to_thread(move, http, gid, tokens, version)
        for gid, stream in streams:
            message = await asyncio.wait_for(stream.next(), WAIT)
            assert message.id == reached[gid] and message.data["document"]["version"] == reached[gid]
            assert message.data["document"]["you"] is None and message.data["type"] == "moved"
        if connections is not None:  # 100 open streams hold no Redis connection of their own: at most the
            # reader and the 4 stream-opening threads' pooled connections are new
            assert connections["connected_clients"] <= before["connected_clients"] + 5, (before, connections)
        for _, stream in streams:
            stream.close()

    asyncio.run(run())


def test_a_stalled_reader_does_not_hold_back_another_and_misses_nothing_once_it_reads(server):
    http = Http(server.port)
    gid, tokens, start = new_game(http)

    async def run():
        stalled = await open_stream(server.port, gid, after=start, headers=address(), rcvbuf=1024)  # never read
        reader = await open_stream(server.port, gid, after=start, headers=address())
        last = start
        for _ in range(30):
            last = await asyncio.to_thread(move, http, gid, tokens, last)
        assert await read_until(reader, last) == list(range(start + 1, last + 1))
        seen = await read_until(stalled, last)  # now it reads: what it gets is in order, without a gap
        assert seen == list(range(start + 1, start + 1 + len(seen)))
        if seen[-1:] != [last]:  # it was dropped meanwhile: a reconnect from the last id it got brings the rest
            stalled.close()
            since = seen[-1] if seen else start
            again = await open_stream(server.port, gid, last_event_id=since, headers=address())
            seen += await read_until(again, last)
            again.close()
        assert seen == list(range(start + 1, last + 1))
        stalled.close()
        reader.close()

    asyncio.run(run())


def test_the_per_client_cap_answers_429_and_a_closed_stream_frees_its_place(server):
    http = Http(server.port)
    gid, _, version = new_game(http)
    me, other = address(), address()

    async def run():
        streams = [await open_stream(server.port, gid, after=version, headers=me) for _ in range(20)]
        with pytest.raises(Refused) as refused:
            await open_stream(server.port, gid, after=version, headers=me)
        assert refused.value.status == 429
        assert b'"too_many"' in refused.value.body and b"at most 20 open streams" in refused.value.body
        (await open_stream(server.port, gid, after=version, headers=other)).close()  # another client: its own cap
        streams.pop().close()
        for _ in range(WAIT * 10):  # the server notices the closed connection
            try:
                streams.append(await open_stream(server.port, gid, after=version, headers=me))
                break
            except Refused:
                await asyncio.sleep(0.1)
        else:
            pytest.fail("a closed stream did not free its place")
        for stream in streams:
            stream.close()

    asyncio.run(run())


def test_a_reconnect_with_last_event_id_receives_the_versions_it_missed(server):
    http = Http(server.port)
    gid, tokens, last = new_game(http)
    for _ in range(6):
        last = move(http, gid, tokens, last)

    async def run():
        again = await open_stream(server.port, gid, last_event_id=last - 4, after=0, headers=address())
        seen = []
        while not seen or seen[-1].id < last:
            seen.append(await asyncio.wait_for(again.next(), WAIT))
        assert [m.id for m in seen] == list(range(last - 3, last + 1))  # Last-Event-ID wins over ?after=
        assert seen[-1].data["document"]["version"] == last
        again.close()
        status, body, _ = await asyncio.to_thread(http.request, "GET", f"/api/games/{gid}/stream",
                                                  headers={"Last-Event-ID": "x"})
        assert status == 400 and body["error"]["code"] == "bad_request"
        status, body = await asyncio.to_thread(http.get, "/api/games/nosuchgame00/stream")
        assert status == 404 and body["error"]["code"] == "not_found"

    asyncio.run(run())
