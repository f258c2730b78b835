"""Quick pairing (services/people/seeks.py) on fakeredis and a real redis-server: compatible seeks pair at once,
six racing seeks of two seats make three games with each seeker in exactly one, ranges and lapses."""

from __future__ import annotations

import threading

import pytest

from services import errors
from services.people import People
from services.people.person import Person
from services.people.seeks import Seeks


@pytest.fixture
def seeks(runtime):
    people = People.on(runtime.redis, runtime.store.keys)
    started: list[tuple[str, list[str]]] = []
    lock = threading.Lock()

    def start(game, options, clock, people):
        gid = runtime.service.create(game, [{"name": p.name} for p in people], options)["id"]
        with lock:
            started.append((gid, [p.key for p in people]))
        return gid

    made = Seeks(runtime.redis, runtime.store.keys, people.notifications, people.presence, start)
    made.started = started
    return made


def seek(seeks, who, rating=1500.0, rng=(0.0, 3000.0), seats=2, game="murus", clock=None, rated=True):
    return seeks.seek(Person.of_account(who), game, {}, clock, seats, rating, rng, rated)


def test_two_compatible_seeks_pair_at_once_and_both_are_told(seeks):
    assert seek(seeks, "ann")["status"] == "waiting"
    assert [s["username"] for s in seeks.open("murus")] == ["ann"]
    paired = seek(seeks, "ben")
    assert paired["status"] == "paired" and seeks.open() == []
    [(gid, players)] = seeks.started
    assert paired["game"] == gid and sorted(players) == ["ann", "ben"]
    for name in ("ann", "ben"):
        [note] = seeks.notifications.since(name, "0-0")
        assert note.data == {"type": "game_started", "game": gid, "seat": players.index(name)}


def test_incompatible_seeks_wait(seeks):
    seek(seeks, "ann", game="murus")
    seek(seeks, "ben", game="mouseguard")  # another game
    seek(seeks, "cy", clock={"initial": 300, "increment": 3})  # another clock
    seek(seeks, "dee", rating=2200.0, rng=(2000.0, 2400.0))  # ann (1500) is outside dee's range
    seek(seeks, "eve", rating=1500.0, rng=(1400.0, 1600.0))  # and dee outside eve's; but ann fits
    assert seeks.started and sorted(seeks.started[0][1]) == ["ann", "eve"]
    assert sorted(s["username"] for s in seeks.open()) == ["ben", "cy", "dee"]


def test_one_cannot_pair_with_oneself_and_holds_three_seeks_at_most(seeks):
    for _ in range(3):
        assert seek(seeks, "ann")["status"] == "waiting"
    with pytest.raises(errors.TooMany, match="at most 3 open seeks"):
        seek(seeks, "ann")
    assert seeks.started == []
    first = seeks.open()[0]["id"]
    seeks.cancel(Person.of_account("ann"), first)
    with pytest.raises(errors.NotFound):
        seeks.cancel(Person.of_account("ben"), seeks.open()[0]["id"])  # not his
    assert seek(seeks, "ann")["status"] == "waiting"


def test_a_seek_lapses_when_its_seeker_is_gone(seeks, runtime):
    seek(seeks, "ann")
    runtime.redis.zadd(runtime.store.keys.accounts_seen(), {"ann": 1})  # no page nor stream for ages
    assert seeks.open() == []
    assert seek(seeks, "ben")["status"] == "waiting"  # not paired with a seeker who left
    assert seeks.started == []


def test_six_racing_seeks_make_three_games_each_seeker_in_exactly_one(seeks):
    names = [f"p{i}" for i in range(6)]
    barrier = threading.Barrier(len(names))
    answers = {}

    def go(name):
        barrier.wait()
        answers[name] = seek(seeks, name)

    threads = [threading.Thread(target=go, args=(n,)) for n in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(seeks.started) == 3
    seated = sorted(p for _, players in seeks.started for p in players)
    assert seated == names
    assert sum(a["status"] == "paired" for a in answers.values()) == 3 and seeks.open() == []


def test_rated_seeks_pair_only_with_rated_ones_and_a_guests_seek_is_never_rated(seeks):
    seek(seeks, "ann", rated=False)
    assert seek(seeks, "ben")["status"] == "waiting"  # rated: not with ann's unrated seek
    guest = Person("guest:00112233aabbccdd", "Zoe")
    paired = seeks.seek(guest, "murus", {}, None, 2, None, (0.0, 3000.0), True)  # asked rated: a guest is not
    assert paired["status"] == "paired"
    [(gid, keys)] = seeks.started
    assert sorted(keys) == sorted(["ann", guest.key])
    [shown] = seeks.open()
    assert shown["username"] == "ben" and shown["rated"] is True and shown["guest"] is False
