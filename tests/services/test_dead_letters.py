"""The dispatcher isolates failures: a poison entry of one game never stops the others; retries; dead letters."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.store.log import LOG_GROUP
from tests.conftest import run_jobs
from workers.dispatcher import Dispatcher

PLAYERS = [{"name": "Ana"}, {"name": "Bob"}]


@pytest.fixture
def quick(runtime):
    """Retries without waiting, dead letters after three failures."""
    runtime.settings = replace(runtime.settings, retry_ms=0, dead_letter_after=3)
    return runtime


def poison(runtime, gid: str) -> int:
    """Append an event that does not decode (not msgpack) to the game, as a bad import once did."""
    return runtime.store.append(gid, [("moved", b"\xc1 not msgpack")], expected_version=None).version


def pending(runtime, gid: str) -> int:
    return runtime.redis.xpending(runtime.store.keys.log_of(gid), LOG_GROUP)["pending"]


def test_a_poison_entry_never_stops_other_games(quick):
    rt = quick
    games = [rt.service.create("murus", PLAYERS)["id"] for _ in range(3)]
    good, bad = [games[0], games[2]], games[1]
    rt.service.command(games[0], 0, "a1-a3")
    bad_version = poison(rt, bad)
    rt.service.command(games[2], 0, "a1-a3")
    rt.service.command(games[0], 1, "a7-a5")
    dispatcher = Dispatcher(rt, consumer="d", claim_idle_ms=0)
    for _ in range(4):
        dispatcher.run_once(block_ms=1)
        run_jobs(rt)
    for gid in good:
        assert rt.projector.projected(gid) == rt.store.version(gid)
    assert pending(rt, games[0]) == 0  # every entry acknowledged, the poison one as a dead letter
    # The bad game's entries (its creation and the poison: the game no longer loads) are dead letters.
    letters = dispatcher.failures.dead_letters(0)
    assert sorted((d.gid, d.version, d.failures) for d in letters) == [(bad, 1, 3), (bad, bad_version, 3)]
    assert all("MessagePack data is malformed" in d.error for d in letters)
    assert dispatcher.failures.of(0) == {}
    # The other games keep flowing after the dead letter.
    rt.service.command(games[2], 1, "a7-a5")
    dispatcher.run_once(block_ms=1)
    run_jobs(rt)
    dispatcher.run_once(block_ms=1)
    assert rt.projector.projected(games[2]) == rt.store.version(games[2]) and pending(rt, games[2]) == 0


def test_a_failing_entry_waits_out_its_backoff(runtime):
    runtime.settings = replace(runtime.settings, retry_ms=60_000, dead_letter_after=3)
    gid = runtime.service.create("murus", PLAYERS)["id"]
    poison(runtime, gid)
    dispatcher = Dispatcher(runtime, consumer="d", claim_idle_ms=0)
    for _ in range(3):
        dispatcher.run_once(block_ms=1)
    # Claimed back each time (idle 0), but not tried again before the backoff: one failure per entry.
    assert [f.count for f in dispatcher.failures.of(0).values()] == [1, 1]
    assert dispatcher.failures.dead_letters(0) == []


def test_a_game_that_recovers_forgets_its_failures(quick, monkeypatch):
    rt = quick
    gid = rt.service.create("murus", PLAYERS)["id"]
    real_load, calls = rt.games.load, []

    def flaky(g):
        calls.append(g)
        if len(calls) == 1:
            raise RuntimeError("a passing fault")
        return real_load(g)

    monkeypatch.setattr(rt.games, "load", flaky)
    dispatcher = Dispatcher(rt, consumer="d", claim_idle_ms=0)
    dispatcher.run_once(block_ms=1)
    assert [f.count for f in dispatcher.failures.of(0).values()] == [1]
    dispatcher.run_once(block_ms=1)
    run_jobs(rt)
    dispatcher.run_once(block_ms=1)
    assert dispatcher.failures.of(0) == {} and dispatcher.failures.dead_letters(0) == []
    assert rt.projector.projected(gid) == 1 and pending(rt, gid) == 0


def test_a_damaged_game_answers_corrupt_game_and_the_others_still_answer(runtime, client):
    bad, good = (runtime.service.create("murus", PLAYERS)["id"] for _ in range(2))
    version = poison(runtime, bad)
    answer = client.get(f"/api/games/{bad}?min_version={version}")
    error = answer.get_json()["error"]
    assert answer.status_code == 500 and error["code"] == "corrupt_game"
    assert error["message"] == (f"game {bad} cannot be read: its event at version {version} is damaged; the "
                                "operator sees it in 'burrow doctor'")  # the cause (maybe a hidden card) is logged
    assert client.get(f"/api/games/{good}?min_version=1").status_code == 200
