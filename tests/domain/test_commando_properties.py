"""Mission commando properties: random play for 2-5 agents ends, replays, keeps its invariants and its secrets."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import commando
from domain.base import IllegalMove, Setup
from domain.commando.constants import FULL_DECK
from domain.commando.notation import NUMBERED, WORDS
from domain.commando.state import State
from tests.domain.test_commando_helpers import fold

STEP_BOUND = 3000
UNIVERSE = [*WORDS, *(f"{verb} {n}" for verb in NUMBERED for n in range(7))]
"""Every command text worth trying (numbers beyond any seat, weapon count or map move included)."""

games = st.fixed_dictionaries({
    "seats": st.integers(2, 5),
    "seed": st.integers(0, 2**32 - 1),
    "max_plies": st.one_of(st.none(), st.integers(1, 80)),
    "start_money": st.integers(0, 8),
})


def new_game(params) -> tuple[random.Random, list, State]:
    rng = random.Random(params["seed"])
    options = {"max_plies": params["max_plies"], "start_money": params["start_money"]}
    events = commando.initial(Setup(seats=params["seats"], options=options), rng)
    return rng, events, fold(events)


def check_invariants(state: State) -> None:
    board = state.board
    for agent in state.agents:
        assert min(agent.money, agent.weapons, agent.accessories, agent.maps) >= 0
        assert agent.accessories <= state.options["accessory_limit"]
        assert 0 <= agent.square < len(board.kind)
    # an agent waiting at the wall has not landed yet; a fight's loser leaves the square when it is resolved
    squares = [a.square for seat, a in enumerate(state.agents)
               if a.square != board.start and not board.is_green(a.square)
               and not (state.phase == "wall" and seat == state.turn)]
    if state.fight is None:
        assert len(squares) == len(set(squares)), "two agents share a square"
    cards = [*state.deck, *state.discard, *([state.card] if state.card else [])]
    assert sorted(cards) == sorted(FULL_DECK)
    if state.phase != "finished":
        assert commando.to_act(state)
        for seat in commando.to_act(state):
            assert commando.legal(state, seat)


@settings(max_examples=150, deadline=None)
@given(games)
def test_random_play_ends_replays_and_keeps_invariants(params):
    rng, events, state = new_game(params)
    for _ in range(STEP_BOUND):
        check_invariants(state)
        if commando.status(state) == "finished":
            break
        seat = rng.choice(commando.to_act(state))
        new = commando.decide(state, seat, commando.parse(rng.choice(commando.legal(state, seat))), rng)
        assert new
        state = fold(new, state)
        events.extend(new)
    assert commando.status(state) == "finished"
    if params["max_plies"] is not None:
        assert state.turns <= params["max_plies"]
    assert fold(events) == state, "replaying the events gives the live state"
    stored = msgspec.json.encode(events)
    assert len(stored) > 0 and commando.result(state) is not None


@settings(max_examples=20, deadline=None)
@given(games)
def test_legal_and_decide_agree_on_every_command(params):
    rng, _, state = new_game(params)
    for _ in range(STEP_BOUND):
        if commando.status(state) == "finished":
            break
        for seat in range(state.seats):
            legal = commando.legal(state, seat)
            assert seat in commando.to_act(state) or not legal
            for text in UNIVERSE:
                try:
                    commando.decide(state, seat, commando.parse(text), random.Random(0))
                    accepted = True
                except IllegalMove as error:
                    assert str(error)
                    accepted = False
                assert accepted == (text in legal), (text, legal, state.phase)
        seat = rng.choice(commando.to_act(state))
        state = fold(commando.decide(state, seat, commando.parse(rng.choice(commando.legal(state, seat))), rng),
                     state)


def hidden_variant(state: State, viewer: int | None, rng: random.Random) -> State:
    """The same game with everything ``viewer`` may not know changed: deck order, others' commitments."""
    deck = list(state.deck)
    rng.shuffle(deck)
    fight = state.fight
    if fight is not None and not fight.revealed:
        commits = list(fight.commits)
        for i, seat in enumerate((fight.attacker, fight.defender)):
            if seat != viewer and commits[i] is not None:
                commits[i] = rng.randint(0, state.agents[seat].weapons)
        fight = msgspec.structs.replace(fight, commits=tuple(commits))
    return msgspec.structs.replace(state, deck=tuple(deck), fight=fight)


@settings(max_examples=50, deadline=None)
@given(games)
def test_views_and_events_never_show_another_seats_secrets(params):
    rng, _, state = new_game(params)
    other_rng = random.Random(params["seed"] + 1)
    viewers = [None, *range(state.seats)]
    for _ in range(STEP_BOUND):
        if commando.status(state) == "finished":
            break
        for viewer in viewers:
            variant = hidden_variant(state, viewer, other_rng)
            assert commando.view(variant, viewer) == commando.view(state, viewer)
            if viewer is not None:
                assert commando.legal(variant, viewer) == commando.legal(state, viewer)
        seat = rng.choice(commando.to_act(state))
        text = rng.choice(commando.legal(state, seat))
        seed = rng.random()
        new = commando.decide(state, seat, commando.parse(text), random.Random(seed))
        if text.startswith("commit") and len(commando.to_act(state)) == 2:
            # another count committed first: every other viewer sees the very same events
            for other_text in commando.legal(state, seat):
                other = commando.decide(state, seat, commando.parse(other_text), random.Random(seed))
                for viewer in viewers:
                    if viewer != seat:
                        assert [commando.redact(e, viewer) for e in other] == [commando.redact(e, viewer)
                                                                              for e in new]
        for event in new:
            for viewer in viewers:
                redacted = commando.redact(event, viewer)
                assert getattr(redacted, "order", None) is None
                if viewer != getattr(event, "seat", viewer) and hasattr(event, "count") and \
                        type(event).__name__ == "WeaponsCommitted":
                    assert redacted.count is None
        state = fold(new, state)
