"""Backups that restore (docs/operations.md, "Backups"): a deployment with games (finished, rated, in play, with
an AI seat), accounts, ratings, chat and a tournament is backed up with ``burrow backup`` while it runs, restored
with ``burrow restore`` into an empty redis-server, and everything is the same there: every game's events, and
its replay equals its projection; every rating, standing and leaderboard; the accounts; the chat; the
tournament's document."""

from __future__ import annotations

import pytest

from burrow.cli import main as burrow
from burrow.runtime import build
from services.config import Settings
from services.store.transfer import export_lines
from tests.conftest import run_jobs
from tests.services.test_ratings import account, duel


@pytest.fixture
def deployment(rt):
    """The runtime of ``rt`` with something of everything in it."""
    for name in ("Ana", "Bob", "Cy", "Di"):
        account(rt, name)
    gids = [duel(rt, "Ana", "Bob"), duel(rt, "Cy", "Ana", resigner=0), duel(rt, "Bob", "Di")]
    playing = rt.service.create("murus", [{"name": "Eve"}, {"name": "Bot", "ai": "easy"}], client="10.0.0.1")
    seat = rt.seats.seat_for(playing["id"], playing["seats"][0]["token"])
    rt.service.command(playing["id"], seat, "a1-a3")
    gids.append(playing["id"])
    rt.people.chat.post(gids[0], "players", "Ana", "ana-key", "good game")
    rt.people.chat.post(gids[0], "players", "Bob", "bob-key", "thanks, you too")
    tid = rt.tournaments.create("Ana", {"game": "murus", "system": "round_robin", "clock": {"initial": 300}})
    for name in ("Ana", "Bob", "Cy"):
        rt.tournaments.join(tid, name)
    for _ in range(3):
        run_jobs(rt)  # projections, ratings, the AI's answer, the tournament's document
    # Something of everything, or the comparisons below would compare nothing.
    assert rt.ratings.of_player("Ana")[0].get("murus") and len(rt.people.chat.read(gids[0], "players")) == 2
    assert len(rt.tournaments.document(tid)["players"]) == 3 and rt.projector.stored(gids[-1]) is not None
    return rt, gids, tid


def test_a_backup_restores_into_an_empty_redis(deployment, redis_server, tmp_path, monkeypatch, capsys):
    rt, gids, tid = deployment
    prefix = rt.settings.prefix
    monkeypatch.setenv("BURROW_PREFIX", prefix)
    file = tmp_path / "burrow.backup"
    assert burrow(["backup", "--redis", rt.settings.redis_url, "-o", str(file)]) == 0, capsys.readouterr().err
    empty = redis_server()
    assert burrow(["restore", str(file), "--redis", empty.url]) == 0, capsys.readouterr().err
    assert burrow(["restore", str(file), "--redis", empty.url]) == 1  # never over a store that is there
    assert "empty" in capsys.readouterr().err
    restored = build(Settings(redis_url=empty.url, prefix=prefix, queue_name=f"{prefix}-q"), journal=False)

    for gid in gids:
        assert list(export_lines(restored.store, gid)) == list(export_lines(rt.store, gid))
        assert restored.projector.stored(gid) == rt.projector.stored(gid)
        assert burrow(["replay", gid, "--verify", "--redis", empty.url]) == 0, capsys.readouterr().out
    assert restored.ratings.read() == rt.ratings.read()
    for name in ("Ana", "Bob", "Cy", "Di"):
        assert restored.ratings.of_player(name) == rt.ratings.of_player(name)
        assert restored.accounts.store.by_username(name) == rt.accounts.store.by_username(name)
    assert restored.people.chat.read(gids[0], "players") == rt.people.chat.read(gids[0], "players")
    assert restored.tournaments.document(tid) == rt.tournaments.document(tid)
    assert restored.projector.page(None, 50, None) == rt.projector.page(None, 50, None)
    # A restored deployment plays on: the AI seat still to answer is answered there.
    run_jobs(restored)
    assert restored.store.version(gids[-1]) >= rt.store.version(gids[-1])


def test_a_file_that_is_no_backup_is_refused(redis_server, tmp_path, capsys):
    bad = tmp_path / "not.backup"
    bad.write_text('{"burrow": 1, "id": "g"}\n')
    assert burrow(["restore", str(bad), "--redis", redis_server().url]) == 1
    assert "not a Burrow backup" in capsys.readouterr().err
