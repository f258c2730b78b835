"""Foraging Squirrels properties (hypothesis): random play for 2–4 players ends, replays, conserves every card,
``legal`` and ``decide`` agree, and views are the same for every viewer (nothing is hidden)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Union

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.squirrels as game
from domain.base import REVEAL_ALL, DomainError, Setup
from domain.squirrels.board import CELLS, COLORS, DIRECTIONS, SQUIRREL

DECODER = msgspec.json.Decoder(Union[game.EVENTS])  # noqa: UP007 - a union built from the tuple
GAMES = {"seed": st.integers(0, 2**32 - 1), "seats": st.sampled_from([2, 3, 4]),
             "packs": st.sampled_from(["set", "draft"])}


def check_every_card_in_one_place(state) -> None:
    if SQUIRREL not in state.grid:
        return  # packs opened, not dealt yet
    places = [c for c in state.grid if c is not None and c != SQUIRREL]
    places += [c for pile in state.piles for c in pile] + list(state.set_aside)
    counts = Counter(places)
    assert set(counts) == set(state.cards) and max(counts.values()) == 1


def random_game(seed: int, seats: int, packs: str, visit=None):
    """Play a random legal game; ``visit(state)`` sees every state between turns. Returns (state, events)."""
    rng = random.Random(seed)
    events = game.initial(Setup(seats, {"packs": packs}), rng)
    state = None
    for event in events:
        state = game.evolve(state, event)
        check_every_card_in_one_place(state)
    for _ in range(30):  # every turn collects one of the 24 food cards, so 24 turns at most
        if game.status(state) != "playing":
            break
        if visit:
            visit(state)
        seat = game.to_act(state)[0]
        new = game.decide(state, seat, game.parse(rng.choice(game.legal(state, seat))), rng)
        for event in new:
            state = game.evolve(state, event)
            check_every_card_in_one_place(state)
        events += new
    return state, events


@settings(max_examples=150, deadline=None)
@given(**GAMES)
def test_random_play_ends_and_replay_equals_live_state(seed, seats, packs):
    state, events = random_game(seed, seats, packs)
    assert game.status(state) == "finished" and game.to_act(state) == []
    result = game.result(state)
    assert result["winners"] and set(result["winners"]) <= set(range(seats))
    replayed = None
    for event in events:
        replayed = game.evolve(replayed, DECODER.decode(msgspec.json.encode(event)))
    assert replayed == state


def candidates(state, rng: random.Random) -> list[str]:
    """Every plain move and a sample of digs, most of them near-legal."""
    texts = [f"{c} {d}" for c in COLORS for d in DIRECTIONS]
    occupied = [CELLS[i] for i, c in enumerate(state.grid) if c is not None]
    for _ in range(25):
        frm = rng.choice(occupied if rng.random() < 0.8 else CELLS)
        to = rng.choice(CELLS)
        move = rng.choice(texts[:24])
        texts.append(f"dig {frm} {to}; {move}" if rng.random() < 0.5 else f"{move}; dig {frm} {to}")
    return texts


@settings(max_examples=60, deadline=None)
@given(**GAMES)
def test_legal_and_decide_agree(seed, seats, packs):
    rng = random.Random(seed ^ 0x5EED)

    def visit(state):
        seat = state.turn
        legal = game.legal(state, seat)
        assert len(legal) == len(set(legal)) and legal
        for text in rng.sample(legal, min(len(legal), 40)):
            assert game.format(game.parse(text)) == text
            game.decide(state, seat, game.parse(text), rng)
        allowed = set(legal)
        for text in candidates(state, rng):
            try:
                game.decide(state, seat, game.parse(text), rng)
                accepted = True
            except DomainError:
                accepted = False
            assert accepted is (text in allowed), text
        other = (seat + 1) % state.seats
        assert game.legal(state, other) == []

    random_game(seed, seats, packs, visit)


@settings(max_examples=40, deadline=None)
@given(**GAMES)
def test_views_are_public_and_rebuild_the_position(seed, seats, packs):
    def visit(state):
        views = [game.view(state, v) for v in [*range(seats), None, REVEAL_ALL]]
        assert all(v == views[0] for v in views)
        position = game.dump_position(state)
        assert {k: views[0][k] for k in position} == position

    random_game(seed, seats, packs, visit)
