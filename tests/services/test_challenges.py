"""Challenges (services/people/challenges.py) on fakeredis and a real redis-server."""

from __future__ import annotations

import threading

import pytest

from services import errors
from services.people import People
from services.people.challenges import MAX_INCOMING, MAX_OUTGOING, RATE, Challenges
from services.people.person import Person

ACCOUNTS = {"ann": "Ann", "ben": "Ben"}
ANN, BEN = Person.of_account("Ann"), Person.of_account("Ben")
GUEST = Person("guest:0123456789abcdef", "Zoe")


@pytest.fixture
def challenges(runtime):
    people = People.on(runtime.redis, runtime.store.keys)

    def start(game, options, clock, people):
        return runtime.service.create(game, [{"name": p.name} for p in people], options, clock=clock)["id"]

    return Challenges(runtime.redis, runtime.store.keys, people.notifications, start,
                      lambda name: ACCOUNTS.get(name.lower()))


def test_a_challenge_reaches_its_recipient_and_accepting_starts_the_game(challenges, runtime):
    made = challenges.create(ANN, "ben", "murus", {}, {"initial": 300, "increment": 3})
    [note] = challenges.notifications.since("ben", "0-0")
    assert note.data == {"type": "challenge", "id": made["id"], "from": "Ann", "game": "murus", "options": {},
                         "clock": {"initial": 300, "increment": 3}, "side": "random"}
    assert challenges.of(BEN)["incoming"][0]["from"] == "Ann" and challenges.of(ANN)["outgoing"]
    with pytest.raises(errors.NotFound):
        challenges.accept(ANN, made["id"])  # not hers to accept
    started = challenges.accept(BEN, made["id"])
    game = runtime.games.load(started["game"])
    assert sorted(game.names) == ["Ann", "Ben"] and game.state.clock is not None
    started_note, accepted = (n.data for n in challenges.notifications.since("ann", "0-0")[-2:])
    assert started_note["type"] == "game_started" and started_note["game"] == started["game"]
    assert accepted == {"type": "challenge_accepted", "id": made["id"], "game": started["game"], "by": "Ben"}
    assert challenges.of(BEN) == {"incoming": [], "outgoing": []}
    with pytest.raises(errors.NotFound):
        challenges.accept(BEN, made["id"])  # answered already


def test_a_decline_is_told_to_the_challenger(challenges):
    made = challenges.create(ANN, "Ben", "murus", {}, None)
    challenges.decline(BEN, made["id"])
    assert challenges.notifications.since("ann", "0-0")[-1].data == {"type": "challenge_declined",
                                                                     "id": made["id"], "by": "Ben"}


def test_racing_answers_one_acts(challenges, runtime):
    made = challenges.create(ANN, "Ben", "murus", {}, None)
    results = []

    def answer():
        try:
            results.append(challenges.accept(BEN, made["id"])["game"])
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
        challenges.create(ANN, "zed", "murus", {}, None)
    with pytest.raises(errors.Unprocessable, match="yourself"):
        challenges.create(ANN, "ANN", "murus", {}, None)
    with pytest.raises(errors.Unprocessable, match="side"):
        challenges.create(ANN, "Ben", "murus", {}, None, side=2)
    with pytest.raises(errors.Unauthorized):
        challenges.create(GUEST, "Ben", "murus", {}, None)  # a guest invites; it challenges nobody by name
    for _ in range(MAX_OUTGOING):
        challenges.create(ANN, "Ben", "murus", {}, None)
    with pytest.raises(errors.TooMany, match=f"at most {MAX_OUTGOING} open challenges"):
        challenges.create(ANN, "Ben", "murus", {}, None)
    for made in challenges.of(ANN)["outgoing"]:
        challenges.cancel(ANN, made["id"])
    with pytest.raises(errors.TooMany, match=f"at most {RATE} challenges a minute"):
        challenges.create(ANN, "Ben", "murus", {}, None)


def test_the_challenger_sees_and_cancels_a_pending_challenge(challenges):
    made = challenges.create(ANN, "Ben", "squirrels", {}, {"initial": 180, "increment": 2}, side=1)
    [pending] = challenges.of(ANN)["outgoing"]
    assert {k: pending[k] for k in ("id", "from", "to", "game", "clock", "side")} == \
        {"id": made["id"], "from": "Ann", "to": "Ben", "game": "squirrels",
         "clock": {"initial": 180, "increment": 2}, "side": 1}
    assert pending["created"].startswith("20")  # an ISO time
    with pytest.raises(errors.NotFound):
        challenges.cancel(BEN, made["id"])  # not his to cancel
    challenges.cancel(ANN, made["id"])
    assert challenges.notifications.since("ben", "0-0")[-1].data == {"type": "challenge_cancelled",
                                                                     "id": made["id"]}
    assert challenges.of(BEN) == challenges.of(ANN) == {"incoming": [], "outgoing": []}
    with pytest.raises(errors.NotFound):
        challenges.accept(BEN, made["id"])


def test_the_challengers_side_is_kept(challenges, runtime):
    for side in (0, 1):
        made = challenges.create(ANN, "Ben", "murus", {}, None, side=side)
        game = runtime.games.load(challenges.accept(BEN, made["id"])["game"])
        assert game.names.index("Ann") == side


def test_an_invite_is_accepted_by_anyone_but_its_maker_once(challenges, runtime):
    made = challenges.create(ANN, None, "murus", {}, None, side=0)
    assert made["url"] == f"/challenge/{made['id']}"
    assert challenges.get(None, made["id"])["to"] is None  # its page shows it to anyone
    with pytest.raises(errors.NotFound):
        challenges.accept(ANN, made["id"])
    game = runtime.games.load(challenges.accept(GUEST, made["id"])["game"])
    assert game.names == ["Ann", "Zoe"]
    with pytest.raises(errors.NotFound):
        challenges.accept(BEN, made["id"])
    assert challenges.notifications.since(GUEST.key, "0-0")[-1].data["type"] == "game_started"


def test_a_named_challenge_is_shown_only_to_its_players(challenges):
    made = challenges.create(ANN, "Ben", "murus", {}, None)
    assert challenges.get(BEN, made["id"])["from"] == "Ann"
    for stranger in (None, GUEST):
        with pytest.raises(errors.NotFound):
            challenges.get(stranger, made["id"])


def test_a_recipient_has_a_bounded_number_of_challenges_waiting(challenges):
    senders = [Person.of_account(f"P{i}") for i in range(MAX_INCOMING)]
    for sender in senders:
        challenges.create(sender, "Ben", "murus", {}, None)
    with pytest.raises(errors.TooMany, match="too many challenges waiting"):
        challenges.create(ANN, "Ben", "murus", {}, None)
    assert len(challenges.of(BEN)["incoming"]) == MAX_INCOMING
    challenges.decline(BEN, challenges.of(BEN)["incoming"][0]["id"])
    challenges.create(ANN, "Ben", "murus", {}, None)
