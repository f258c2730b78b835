"""Racing rematch requests make exactly one game (issue #31: two racing requests made two, 10 times of 10, and
the second stayed in "setup" for ever, counting against its creator's open games)."""

from __future__ import annotations

import threading

import pytest

from services import errors
from services.clients import client_id
from services.games.tables import Tables

CLIENT = "198.51.100.7"


def finished_game(runtime, client: str = CLIENT) -> dict:
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], client=client)
    runtime.service.command(g["id"], 0, "abort")
    return g


def race(runtime, gid: str, requests: int) -> tuple[list[dict], list[str]]:
    """``requests`` rematch requests at once, from both seats in turn: the answers, and the refusals' codes."""
    tables = Tables(runtime.service)
    barrier = threading.Barrier(requests)
    made, refused = [], []

    def ask(seat: int) -> None:
        barrier.wait()
        try:
            made.append(tables.rematch(gid, seat, client=CLIENT))
        except errors.ServiceError as exc:
            refused.append(exc.code)

    threads = [threading.Thread(target=ask, args=(i % 2,)) for i in range(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return made, refused


@pytest.mark.parametrize("requests", [2, 16])
def test_racing_rematch_requests_make_exactly_one_game(runtime, requests):
    ours = set()
    for _ in range(3):  # the race, three times over
        g = finished_game(runtime)
        before = set(runtime.store.game_ids())
        made, refused = race(runtime, g["id"], requests)
        new = set(runtime.store.game_ids()) - before
        assert len(new) == 1, new
        [rematch] = new
        ours |= {g["id"], rematch}
        assert {m["id"] for m in made} == {rematch} and runtime.games.load(g["id"]).state.rematch == rematch
        # One request per old seat gets its seat (the creator's, then Ben's join); the rest hear it is taken.
        assert len(made) == 2 and sorted(refused) == ["seat_taken"] * (requests - 2)
        game = runtime.games.load(rematch)
        assert game.status == "playing"
    counted = runtime.redis.zrange(runtime.service.open_games.key(client_id(CLIENT)), 0, -1)
    assert {gid.decode() for gid in counted} <= ours  # no orphan game counts against its creator's open games


def test_a_failed_rematch_lets_go_of_its_claim(runtime, monkeypatch):
    """A creator refused (its client's open games at the limit, say) leaves no claim behind: the next request
    makes the rematch at once."""
    g = finished_game(runtime)
    tables = Tables(runtime.service)
    real, calls = tables._create_rematch, []

    def refused_once(*args):
        calls.append(1)
        if len(calls) == 1:
            raise errors.TooMany("too many open games from this client")
        return real(*args)

    monkeypatch.setattr(tables, "_create_rematch", refused_once)
    with pytest.raises(errors.TooMany):
        tables.rematch(g["id"], 0)
    assert runtime.redis.get(runtime.store.keys.rematch_claim(g["id"])) is None
    assert tables.rematch(g["id"], 0)["id"] == runtime.games.load(g["id"]).state.rematch
