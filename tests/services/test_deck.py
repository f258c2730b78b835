"""The deck of one's own mistakes (services/learn/deck.py) on fakeredis and a real Redis: cards from an analysed
game's mistakes by a queued job, FSRS's schedule moved by reviews, the deck a projection of its events (rebuilt
the same), bounds and hostile answers."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime

import pytest

from services import errors
from services.learn import deck as decks
from tests.conftest import run_jobs
from tests.domain.test_ai_analysis import BLUNDER_POSITION
from tests.web.signin import make_account


@pytest.fixture
def rt(runtime):
    runtime.settings = dataclasses.replace(runtime.settings, analysis_time=0.05)  # the decks' jobs' budget
    runtime.analyses.budget = 0.05  # built once, with the runtime: its budget is its own
    return runtime


class Clock:
    def __init__(self, start: float = 1_800_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now


def account_game(rt) -> tuple[str, str, str]:
    """A finished Murus game between the accounts ana (Romans, who blunders with e2-e4) and bo."""
    ana, bo = make_account(rt, "ana"), make_account(rt, "bo")
    created = rt.service.create("murus", [{"name": "ana"}, {"name": "bo"}], position=BLUNDER_POSITION,
                                accounts={0: "ana", 1: "bo"})
    gid = created["id"]
    rt.service.command(gid, 0, "e2-e4")
    rt.service.command(gid, 1, "d3-f1")
    return gid, ana.id, bo.id


def test_the_blunder_of_an_account_becomes_a_due_card_of_its_deck_by_queued_jobs(rt):
    gid, ana, bo = account_game(rt)
    run_jobs(rt)  # the game's end queues its analysis; the analysis's end queues the extraction
    assert rt.analyses.read(gid)["plies"][0]["class"] == "blunder"
    deck = decks.of(rt)
    mine = deck.due(ana)
    assert (mine["due"], mine["total"]) == (1, 1)
    card = mine["cards"][0]
    assert card["id"] == f"{gid}-1" and card["game"] == "murus" and card["seat"] == 0
    assert card["from"] == {"game": gid, "version": 1} and card["played"] == "e2-e4"
    assert card["view"]["position"]["cells"]["e2"] == "RR"  # the position before the blunder, as Ana saw it
    assert deck.due(bo) == {"due": 0, "total": 0, "cards": []}  # Bo made no mistake
    run_jobs(rt)
    assert deck.due(ana)["total"] == 1  # the extraction again adds nothing


def test_answers_are_judged_at_once_and_move_the_schedule(rt):
    gid, ana, _ = account_game(rt)
    run_jobs(rt)
    clock = Clock()
    deck = decks.Deck(rt.games, rt.jobs, 0.05, clock=clock)
    card_id = deck.due(ana)["cards"][0]["id"]
    stored = json.loads(rt.redis.hget(rt.store.keys.deck_cards(ana), card_id))
    assert "e2-e4" not in stored["best"] and stored["best"]
    wrong = deck.answer(ana, card_id, "e2-e4")  # the move played again
    assert wrong["correct"] is False and wrong["best"] == stored["best"]
    first_due = datetime.fromisoformat(wrong["next_due"])
    clock.now = first_due.timestamp() + 60
    right = deck.answer(ana, card_id, "  " + stored["best"][0].upper() + " ")  # case and spacing forgiven
    assert right["correct"] is True
    assert datetime.fromisoformat(right["next_due"]) > first_due
    clock.now = datetime.fromisoformat(right["next_due"]).timestamp() - 1
    assert deck.due(ana)["due"] == 0  # not yet due
    clock.now += 2
    assert deck.due(ana)["due"] == 1


def test_the_deck_is_a_projection_of_its_events_rebuilt_the_same(rt):
    gid, ana, _ = account_game(rt)
    run_jobs(rt)
    deck = decks.Deck(rt.games, rt.jobs, 0.05, clock=Clock())
    card_id = deck.due(ana)["cards"][0]["id"]
    deck.answer(ana, card_id, "e2-e4")
    deck.answer(ana, card_id, "a1-a3")
    keys = rt.store.keys
    before = (rt.redis.hgetall(keys.deck_cards(ana)), rt.redis.zrange(keys.deck_due(ana), 0, -1, withscores=True))
    assert rt.redis.xlen(keys.deck_events(ana)) == 3  # one card added, two reviews
    rt.redis.delete(keys.deck_cards(ana), keys.deck_due(ana))
    assert deck.due(ana)["total"] == 0
    assert deck.rebuild() == 3
    after = (rt.redis.hgetall(keys.deck_cards(ana)), rt.redis.zrange(keys.deck_due(ana), 0, -1, withscores=True))
    assert after == before


def test_a_card_of_another_account_or_none_is_404_and_bad_moves_422(rt):
    gid, ana, bo = account_game(rt)
    run_jobs(rt)
    deck = decks.of(rt)
    card_id = deck.due(ana)["cards"][0]["id"]
    with pytest.raises(errors.NotFound):
        deck.answer(bo, card_id, "a1-a3")
    for bad in ("nosuchcard", "x" * 5000, ""):
        with pytest.raises(errors.NotFound):
            deck.answer(ana, bad, "a1-a3")
    for move in (None, 3, "", " ", "m" * 201, ["a1-a3"]):
        with pytest.raises(errors.Unprocessable):
            deck.answer(ana, card_id, move)
    assert rt.redis.xlen(rt.store.keys.deck_events(ana)) == 1  # nothing appended by any of them


def test_a_deck_holds_at_most_its_bound(rt, monkeypatch):
    monkeypatch.setattr(decks, "MAX_CARDS", 2)
    deck = decks.of(rt)
    account = make_account(rt, "cy").id
    made = [decks.CardAdded(id=f"g{i}-1", game="murus", gid=f"g{i}", version=1, seat=0, view={}, played="a1-a3",
                            best=["a1-c3"], kind="mistake") for i in range(4)]
    assert [deck.add(account, card) for card in made] == ["ok", "ok", "full", "full"]
    assert deck.add(account, made[0]) == "exists"
    assert deck.due(account)["total"] == 2 and rt.redis.xlen(rt.store.keys.deck_events(account)) == 2


def test_solutions_are_the_moves_rated_within_the_margin_of_the_best(rt):
    gid, _, _ = account_game(rt)
    game = rt.games.at_version(gid, 1)
    deck = decks.Deck(rt.games, rt.jobs, 0.2)
    found = deck.solutions(game, 0, "a1-a3", "e2-e4")
    assert found[0] == "a1-a3" and "e2-e4" not in found
    # Every move that lets the Gauls through at once (the tower leaving e2) is far below the best: never one.
    assert not {"e2-c2", "e2-g2", "e2-g4"} & set(found)
