"""Challenges (services/people/challenges.py) on fakeredis and a real redis-server."""

from __future__ import annotations

import threading

import pytest

from services import errors
from services.people import People
from services.people.challenges import RATE, Challenges

ACCOUNTS = {"ann": "Ann", "ben": "Ben"}


@pytest.fixture
def challenges(runtime):
    people = People.on(runtime.redis, runtime.store.keys)

    def start(game, options, clock, usernames):
        return runtime.service.create(game, [{"name": u} for u in usernames], options, clock=clock)["id"]

    return Challenges(runtime.redis, runtime.store.keys, people.notifications, start,
                      lambda name: ACCOUNTS.get(name.lower()))


def test_a_challenge_reaches_its_recipient_and_accepting_starts_the_game(challenges, runtime):
    made = challenges.create("Ann", "ben", "murus", {}, {"initial": 300, "increment": 3})
    [note] = challenges.notifications.since("ben", "0-0")
    assert note.data == {"type": "challenge", "id": made["id"], "from": "Ann", "game": "murus"}
    assert challenges.of("Ben")["incoming"][0]["from"] == "Ann" and challenges.of("Ann")["outgoing"]
    with pytest.raises(errors.NotFound):
        challenges.accept("Ann", made["id"])  # not hers to accept
    started = challenges.accept("Ben", made["id"])
    game = runtime.games.load(started["game"])
    assert sorted(game.names) == ["Ann", "Ben"] and game.state.clock is not None
    told = challenges.notifications.since("ann", "0-0")[-1].data
    assert told["type"] == "game_started" and told["game"] == started["game"]
    assert challenges.of("Ben") == {"incoming": [], "outgoing": []}
    with pytest.raises(errors.NotFound):
        challenges.accept("Ben", made["id"])  # answered already


def test_a_decline_is_told_to_the_challenger(challenges):
    made = challenges.create("Ann", "Ben", "murus", {}, None)
    challenges.decline("Ben", made["id"])
    assert challenges.notifications.since("ann", "0-0")[-1].data == {"type": "challenge_declined",
                                                                     "id": made["id"], "by": "Ben"}


def test_racing_answers_one_acts(challenges, runtime):
    made = challenges.create("Ann", "Ben", "murus", {}, None)
    results = []

    def answer():
        try:
            results.append(challenges.accept("Ben", made["id"])["game"])
        except errors.NotFound:
            results.append(None)

    threads = [threading.Thread(target=answer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len([r for r in results if r]) == 1


def test_bad_challenges_are_refused_with_clear_messages(challenges):
    with pytest.raises(errors.NotFound, match="no player named 'zed'"):
        challenges.create("Ann", "zed", "murus", {}, None)
    with pytest.raises(errors.Unprocessable, match="yourself"):
        challenges.create("Ann", "ANN", "murus", {}, None)
    for _ in range(RATE):
        challenges.create("Ann", "Ben", "murus", {}, None)
    with pytest.raises(errors.TooMany, match=f"at most {RATE} challenges a minute"):
        challenges.create("Ann", "Ben", "murus", {}, None)
