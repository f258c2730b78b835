"""The one write unit (``services/games/round.py``) and the one retry budget (``services/store/optimistic.py``), on
fakeredis and a real Redis: a cached state is trusted only by the append's version check, a lost version is
decided again, the budget ends in one "too busy" answer, and accounts write through the same helper."""

from __future__ import annotations

import random

import pytest

from domain.base import OutOfTurn, Setup
from domain.table import Resigned, TableSet, table_of
from services import errors
from services.accounts.events import LanguageChosen, PasswordSet
from services.games.commands import GameService
from services.games.states import States
from services.store import optimistic
from services.store.optimistic import BUDGET, Again, retry
from services.store.streams import ConcurrencyError

PLAYERS = [{"name": "Ana"}, {"name": "Ben"}]


def other_process(runtime) -> GameService:
    """A second writer over the same store, with a cache of its own (another web process)."""
    return GameService(States(runtime.store))


def test_a_decision_on_a_stale_cache_is_made_again_on_the_stream(runtime):
    g = runtime.service.create("murus", PLAYERS)
    cached = runtime.service.states.load(g["id"])  # cached here at version 1
    other_process(runtime).command(g["id"], 0, "a1-a3")  # the stream moves on to version 2 elsewhere
    seen = []

    def decide(game, now):
        seen.append(game.version)
        return [Resigned(seat=1)]

    written = runtime.service.round.change(g["id"], decide)
    assert seen == [cached.version, cached.version + 1]  # the cache, then the stream's tail
    assert written.game.version == runtime.store.version(g["id"]) == 3
    assert written.events == [Resigned(seat=1)] and len(written.states) == 1
    assert runtime.service.states.cached(g["id"]).version == 3  # remembered


def test_a_refusal_on_a_stale_cache_is_never_given(runtime):
    """Ben's move, refused as "not his turn" on this process's old state, is judged again on the stream, where it
    is his turn."""
    g = runtime.service.create("murus", PLAYERS)
    runtime.service.states.load(g["id"])  # cached here at version 1: Ana's turn
    rival = other_process(runtime)
    rival.command(g["id"], 0, "a1-a3")
    game = rival.states.load(g["id"])
    answer = runtime.service.command(g["id"], 1, game.legal(1)[0])
    assert answer["version"] == 3


def test_nothing_to_do_on_a_stale_cache_is_checked_on_the_stream(runtime):
    """A clock check that finds no deadline on a cached state reads the stream before answering "none"."""
    g = runtime.service.create("murus", PLAYERS)
    calls = []

    def nothing(game, now):
        calls.append(game.version)
        return []

    runtime.service.states.load(g["id"])
    written = runtime.service.round.change(g["id"], nothing)
    assert written.events == [] and calls == [1, 1]  # the cache, then the stream


def test_a_write_that_always_loses_ends_in_one_too_busy_answer(runtime):
    g = runtime.service.create("murus", PLAYERS)
    rival = other_process(runtime)
    attempts = []

    def lose() -> None:  # another writer takes the version each time, just before this append
        attempts.append(1)
        rival.round.change(g["id"], lambda game, now: [TableSet()])

    with pytest.raises(errors.Conflict) as refused:
        runtime.service.round.change(g["id"], lambda game, now: [Resigned(seat=0)], before=lose)
    assert "too busy" in refused.value.message and len(attempts) == BUDGET
    assert refused.value.details["version"] == runtime.store.version(g["id"]) == 1 + BUDGET
    game = runtime.service.states.load(g["id"])
    assert game.status != "finished"  # the resignation was never written


def test_a_clients_version_is_a_conflict_not_a_retry(runtime):
    g = runtime.service.create("murus", PLAYERS)
    other_process(runtime).command(g["id"], 0, "a1-a3")
    with pytest.raises(errors.Conflict) as refused:
        runtime.service.command(g["id"], 1, "resign", expected_version=1)
    assert refused.value.details["version"] == 2 and "not 1" in refused.value.message


def test_the_domain_answers_a_command_in_one_call():
    table = table_of("murus")
    state = None
    for event in table.initial(Setup(seats=2), random.Random(0)):
        state = table.evolve(state, event, 0)
    with pytest.raises(OutOfTurn):
        table.command(state, 1, "a1-a3", None, now=0)
    assert table.command(state, 0, " resign ", None, now=0) == [Resigned(seat=0)]
    assert len(table.command(state, 0, "a1-a3", random.Random(0), now=0)) >= 1


def test_retry_makes_an_attempt_again_until_it_is_written_then_says_too_busy():
    tries = []

    def attempt() -> str:
        tries.append(1)
        if len(tries) == 1:
            raise Again
        if len(tries) == 2:
            raise ConcurrencyError(3)
        return "written"

    assert retry(attempt, lambda: AssertionError("never")) == "written" and len(tries) == 3

    def never() -> str:
        raise Again

    with pytest.raises(LookupError):
        retry(never, lambda: LookupError("too busy"))
    assert optimistic.BUDGET == BUDGET > 1


def test_an_accounts_change_is_decided_again_on_the_account_as_it_is_now(runtime):
    store = runtime.accounts.store
    made = store.create("Ana", [])
    store.append(made, [PasswordSet(hash="$argon2id$x")])  # ``made`` is now stale
    seen = []

    def choose(now):
        seen.append(now.version)
        return [LanguageChosen(lang="fr")] if now.language != "fr" else []

    after = store.change(made, choose)
    assert seen == [1, 2] and after.language == "fr" and after.password == "$argon2id$x"
    assert store.change(after, choose) == after  # nothing to write: unchanged
