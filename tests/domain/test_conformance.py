"""One conformance suite for every registered game (``domain/registry.py``) and the tests' tic-tac-toe.

Each game is checked against the decider shape (``domain.base.Decider``) and the properties every decider owes:
random legal play ends, for every seat count and option set (the catalog's ``bool`` and ``choice`` options); the
legal commands are exactly what ``decide`` accepts (sampled, with near misses from ``support.py``); replaying the
events, also through the msgspec JSON round trip, gives the live state; a viewer's view, feed and legal list do
not depend on another seat's secrets; notation and position round trips; ``evolve`` refuses a bad event with
``BadEvent`` and nothing else; the registration (``domain/game_type.py``) names parts that work: its AI plays a
legal command at every catalog level, its perft counts the legal moves (also through ``burrow perft``), its board
script exists, and a game whose views hide something declares its hidden parts. Game-specific properties live in
each game's own test files.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Union

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import ai, registry
from domain.base import (
    MAX_PLIES,
    REVEAL_ALL,
    RULES,
    BadEvent,
    BadNotation,
    DomainError,
    Event,
    Setup,
    allows,
    commands,
    decider_problems,
    event_type,
)
from tests.domain.step_clock import StepClock
from tests.domain.support import Support, fold, support_for

GAMES = [*registry.GAME_NAMES, "tictactoe"]
BOARDS = Path(__file__).resolve().parents[2] / "web" / "static" / "boards"
QUICK = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=6)


class Game:
    """A game module under test, with its support and what the suite derives from its catalog."""

    def __init__(self, name: str, support: Support):
        self.name = name
        self.type = registry.game_type(name)
        self.module = registry.game_module(name)
        self.support = support
        self.seat_counts = list(range(self.module.SEATS[0], self.module.SEATS[1] + 1))
        self.decoder = msgspec.json.Decoder(list[Union[self.module.EVENTS]])  # noqa: UP007 - from a tuple

    def option_sets(self) -> list[dict]:
        """Every combination of the catalog's ``bool`` and ``choice`` options, each with every ``max_plies``."""
        axes = []
        for option in self.module.CATALOG.options:
            if option.type == "bool":
                axes.append([(option.name, False), (option.name, True)])
            elif option.type == "choice":
                axes.append([(option.name, choice.value) for choice in option.choices])
        limits = self.support.max_plies if "max_plies" in self.module.OPTIONS else (None,)
        return [{**dict(combo), **({} if limit is None else {"max_plies": limit})}
                for combo in itertools.product(*axes) for limit in limits]

    def play(self, seats: int, options: dict, seed: int, visit=None):
        """A random legal game to its end: (final state, every event). ``visit(state, events)`` sees every state
        a command is played from; the shape of ``to_act``/``legal`` is checked on the way."""
        module, rng = self.module, random.Random(seed)
        events = module.initial(Setup(seats=seats, options=options), rng)
        assert event_type(events[0]) == "game_created"
        state = fold(module, events)
        for _ in range(self.support.steps):
            if module.status(state) == "finished":
                break
            assert module.status(state) in ("setup", "playing")
            acting = module.to_act(state)
            assert acting and set(acting) <= set(range(seats))
            for seat in range(seats):
                assert bool(module.legal(state, seat)) == (seat in acting), (seat, acting)
            if visit:
                visit(state, events)
            seat = rng.choice(acting)
            new = module.decide(state, seat, module.parse(rng.choice(commands(module.legal(state, seat)))), rng)
            assert new
            state = fold(module, new, state)
            events = events + new
            if self.support.check:
                self.support.check(state)
        assert module.status(state) == "finished", "random play did not end"
        return state, events


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    if request.param == "tictactoe":
        request.getfixturevalue("tictactoe")
    return Game(request.param, support_for(request.param))


def test_every_game_has_the_decider_shape(game):
    module = game.module
    assert decider_problems(module) == []
    assert module.NAME == game.name == module.CATALOG.name
    assert tuple(module.SEATS) == tuple(module.CATALOG.seats)
    assert module.CATALOG.defaults() == module.OPTIONS
    tags = [event.__struct_config__.tag for event in module.EVENTS]
    assert len(tags) == len(set(tags)) and "game_created" in tags and "game_ended" in tags


def test_the_registration_names_the_games_own_parts(game):
    registration = game.type
    assert registration.name == game.name and registration.catalog is game.module.CATALOG
    assert registration.module() is game.module
    if registration.board is not None:
        assert (BOARDS / registration.board).is_file(), f"no web/static/boards/{registration.board}"
    if not game.support.public:  # views differ between seats: the registration says what a position can hide
        assert registration.hidden_information and all(isinstance(part, str) for part in registration.hidden)


def test_the_registered_ai_plays_a_legal_command_at_every_level(game):
    if game.type.ai is None:
        assert not game.module.CATALOG.levels
        pytest.skip("this game has no AI players")
    module, seats = game.module, game.seat_counts[0]
    for level in game.module.CATALOG.levels:
        rng = random.Random(7)
        state = fold(module, module.initial(Setup(seats=seats), rng))
        for _ in range(4):  # the opening and a few plies on, one AI command each
            if module.status(state) == "finished":
                break
            seat = module.to_act(state)[0]
            text = ai.choose(game.name, module.view(state, seat), seat, level, rng, 0.05, StepClock(0.005))
            assert allows(module.legal(state, seat), text), (level, text)
            state = fold(module, module.decide(state, seat, module.parse(text), rng), state)


def test_the_registered_perft_counts_the_legal_moves_and_burrow_perft_prints_it(game, capsys):
    if game.type.perft is None:
        pytest.skip("this game has no perft")
    from burrow import cli

    module = game.module
    state = fold(module, module.initial(Setup(seats=game.seat_counts[0]), random.Random(0)))
    (seat,) = module.to_act(state)
    assert game.type.perft(state, 0) == 1
    assert game.type.perft(state, 1) == len(module.legal(state, seat))
    assert cli.main(["perft", game.name, "--depth", "2"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [(int(depth), int(nodes.replace(",", ""))) for depth, nodes, *_ in rows] == [
        (1, game.type.perft(state, 1)), (2, game.type.perft(state, 2))]


def test_decider_problems_names_what_a_module_lacks():
    import types

    broken = types.ModuleType("broken")
    broken.NAME, broken.SEATS, broken.OPTIONS, broken.EVENTS = "broken", (3, 2), {}, (int,)
    broken.evolve = lambda state: state
    problems = decider_problems(broken)
    assert "SEATS must be (min, max) with 1 <= min <= max, not (3, 2)" in problems
    assert "EVENTS holds <class 'int'>, not an Event class" in problems
    assert "evolve(state) should take (state, event)" in problems and "initial() is missing" in problems


def test_random_play_ends_for_every_seat_count_and_option_set(game):
    """Every combination once: the game ends with a typed outcome, nobody left to act, and replays."""
    module = game.module
    for index, (seats, options) in enumerate(itertools.product(game.seat_counts, game.option_sets())):
        state, events = game.play(seats, options, seed=index)
        result = module.result(state)
        assert set(result) == {"winners", "reason", "termination"}
        assert set(result["winners"]) <= set(range(seats))
        assert isinstance(result["reason"], str) and result["reason"]
        assert result["termination"] in (RULES, MAX_PLIES)
        if result["termination"] == MAX_PLIES:
            assert options.get("max_plies") is not None
        assert module.to_act(state) == [] and all(module.legal(state, s) == [] for s in range(seats))
        assert fold(module, events) == state


@QUICK
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_replay_and_the_json_round_trip_give_the_live_state(game, seed, data):
    seats = data.draw(st.sampled_from(game.seat_counts))
    options = data.draw(st.sampled_from(game.option_sets()))
    state, events = game.play(seats, options, seed)
    assert fold(game.module, events) == state
    stored = msgspec.json.encode(events)
    assert fold(game.module, game.decoder.decode(stored)) == state


def near_misses(game: Game, state, seats: int, seat: int, rng: random.Random) -> set[str]:
    """Candidates for the legal-equals-decide check: the game's near misses, every seat's legal commands, and
    a few mangled ones."""
    texts = set(game.support.candidates(state, seat, rng)) if game.support.candidates else set()
    for other in range(seats):
        texts |= set(commands(game.module.legal(state, other)))
    known = sorted(texts)
    texts |= {text[:-1] for text in rng.sample(known, min(5, len(known)))}
    texts |= {"", "zz9", *(text + " " + text for text in known[:2])}
    return texts


@QUICK
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_legal_is_exactly_what_decide_accepts(game, seed, data):
    seats = data.draw(st.sampled_from(game.seat_counts))
    options = data.draw(st.sampled_from(game.option_sets()))
    module, rng = game.module, random.Random(seed ^ 0x5EED)
    checked = []

    def visit(state, events):
        if rng.random() > 0.25 and checked:
            return
        checked.append(state)
        for seat in range(seats):
            legal = module.legal(state, seat)
            assert len(legal) == len(set(legal)) and len(commands(legal)) == len(set(commands(legal)))
            candidates = near_misses(game, state, seats, seat, rng)
            sample = rng.sample(sorted(candidates), min(len(candidates), 60)) + commands(legal)[:40]
            for text in sample:
                try:
                    module.decide(state, seat, module.parse(text), random.Random(0))
                    accepted = True
                except DomainError as refusal:
                    assert str(refusal), f"{text!r} refused without a reason"
                    accepted = False
                assert accepted == allows(legal, text), (seat, text)

    game.play(seats, options, seed, visit)
    assert checked


@QUICK
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_notation_and_position_round_trip(game, seed, data):
    seats = data.draw(st.sampled_from(game.seat_counts))
    options = data.draw(st.sampled_from(game.option_sets()))
    module, rng = game.module, random.Random(seed)

    def visit(state, events):
        for seat in module.to_act(state):
            for text in commands(module.legal(state, seat))[:50]:
                assert module.format(module.parse(text)) == text
        if module.status(state) != "playing" or not game.support.positionable(state) or rng.random() > 0.3:
            return
        position = module.dump_position(state)
        again = fold(module, module.initial(Setup(seats=seats, options=options, position=position),
                                            random.Random(seed)))
        assert module.dump_position(again) == position
        assert module.status(again) == "playing"

    game.play(seats, options, seed, visit)


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=16))
def test_parse_round_trips_or_raises_bad_notation(game, text):
    try:
        command = game.module.parse(text)
    except BadNotation as refusal:
        assert str(refusal)
        return
    assert game.module.parse(game.module.format(command)) == command


def _seen(module, events, state, viewer) -> tuple:
    """What ``viewer`` sees: the view, the feed, the legal commands (JSON bytes, compared exactly)."""
    encode = msgspec.json.encode
    legal = module.legal(state, viewer) if isinstance(viewer, int) else []
    return encode(module.view(state, viewer)), [encode(module.redact(e, viewer)) for e in events], legal


@QUICK
@given(seed=st.integers(0, 2**32 - 1))
def test_another_seats_secrets_change_nothing_a_viewer_sees(game, seed):
    """Two histories that differ only in what a viewer may not know look the same to it (views, the event feed,
    its legal commands); a game without secrets shows every viewer the same."""
    module = game.module
    if game.support.public:
        seats = game.seat_counts[0]
        viewers = [*range(seats), None, REVEAL_ALL]

        def visit(state, events):
            views = [msgspec.json.encode(module.view(state, v)) for v in viewers]
            assert all(view == views[0] for view in views)
            assert all(module.redact(e, v) == e for e in events[-3:] for v in viewers)

        game.play(seats, game.option_sets()[0], seed, visit)
        return
    pair = game.support.secret_pair(random.Random(seed))
    if pair is None:
        return
    first, second, viewers = pair
    states = [fold(module, first), fold(module, second)]
    assert first != second and module.view(states[0], REVEAL_ALL) != module.view(states[1], REVEAL_ALL) or \
        [module.redact(e, REVEAL_ALL) for e in first] != [module.redact(e, REVEAL_ALL) for e in second]
    for viewer in viewers:
        assert _seen(module, first, states[0], viewer) == _seen(module, second, states[1], viewer), viewer


class Alien(Event, frozen=True, tag="alien"):
    """An event of no game."""

    seat: int = 0


GARBAGE = (None, -1, 10**9, "zz9", "", [], {}, [None], {"x": None}, 1.5, True)


@QUICK
@given(seed=st.integers(0, 2**32 - 1))
def test_evolve_refuses_a_bad_event_with_bad_event_only(game, seed):
    """An unknown event, an event before ``game_created`` or a malformed one (any field replaced by garbage of
    the right type, as the store's decoder would let it through): ``evolve`` raises ``BadEvent`` or, for garbage
    that still makes sense, folds it; never anything else."""
    module, rng = game.module, random.Random(seed)
    state, events = game.play(game.seat_counts[-1], game.option_sets()[0], seed)
    with pytest.raises(BadEvent):
        module.evolve(None, Alien())
    with pytest.raises(BadEvent):
        module.evolve(state, Alien())
    if len(events) > 1:
        with pytest.raises(BadEvent):
            module.evolve(None, events[1])
    before = None
    for event in events:
        if rng.random() < 0.5:
            for field in event.__struct_fields__:
                bad = msgspec.structs.replace(event, **{field: rng.choice(GARBAGE)})
                try:  # only what the store's decoder lets through: the field's type is right
                    msgspec.convert(msgspec.to_builtins(bad), type(event))
                except msgspec.ValidationError:
                    continue
                try:
                    module.evolve(before, bad)
                except BadEvent as refusal:
                    assert str(refusal)
        before = module.evolve(before, event)


def test_a_game_stored_before_termination_existed_replays_to_the_same_outcome(game):
    """Games stored before ``result.termination`` have ``game_ended`` events without it: replaying them infers it
    from the state, for a turn-limit draw as for a rules ending."""
    module = game.module
    ended = next(e for e in module.EVENTS if e.__struct_config__.tag == "game_ended")
    field = next((f for f in msgspec.structs.fields(ended) if f.name == "termination"), None)
    if field is None or field.default is not None:
        pytest.skip("this game has recorded the termination from its first game")
    seen = set()
    for seed in range(40):
        options = {"max_plies": 6} if "max_plies" in module.OPTIONS and seed % 2 else {}
        state, events = game.play(game.seat_counts[0], options, seed)
        legacy = [msgspec.structs.replace(e, termination=None) if isinstance(e, ended) else e for e in events]
        assert module.result(fold(module, legacy)) == module.result(state)
        seen.add(module.result(state)["termination"])
        if seen == {RULES, MAX_PLIES}:
            break
    assert RULES in seen and (MAX_PLIES in seen or "max_plies" not in module.OPTIONS)
