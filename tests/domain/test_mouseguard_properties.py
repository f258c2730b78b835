"""Property tests of Mouse Guard: random play, legal/decide agreement, replay, non-interference."""

from __future__ import annotations

import random
from collections import Counter
from typing import Union

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import mouseguard as mg
from domain.base import DomainError, Setup
from domain.mouseguard.board import CORNERS, N_POINTS, NAMES, NEIGHBOURS, SQUARES_AROUND
from tests.domain.test_mouseguard_helpers import fold

OPTIONS = st.fixed_dictionaries({
    "edge_points": st.booleans(), "exit_extra_step": st.booleans(),
    "diplomacy_metric": st.sampled_from(["squares", "chebyshev"])})
DECODER = msgspec.json.Decoder(list[Union[mg.EVENTS]])  # noqa: UP007 - a union built from a tuple


def random_game(seed: int, options: dict, plies: int):
    """Yield (state, seat, command text, events) along a random legal game of at most ``plies`` plies."""
    rng = random.Random(seed)
    state = fold(mg.initial(Setup(seats=2, options={**options, "max_plies": plies}), rng))
    while mg.status(state) != "finished":
        seat = rng.choice(mg.to_act(state))
        text = rng.choice(mg.legal(state, seat))
        events = mg.decide(state, seat, mg.parse(text), rng)
        yield state, seat, text, events
        state = fold(events, state)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), options=OPTIONS)
def test_random_play_never_raises_ends_and_replays(seed, options):
    log, last = [], None
    rng = random.Random(seed)
    first = mg.initial(Setup(seats=2, options={**options, "max_plies": 80}), rng)
    log += first
    for state, seat, text, events in random_game(seed, options, 80):
        assert mg.legal(state, seat), "a seat to act always has a legal command"
        log += events
        last = fold(events, state)
        cards = Counter(last.deck) + Counter(last.discard) + Counter(last.hands[0]) + Counter(last.hands[1])
        assert cards == {"sword": 10, "stronghold": 10, "diplomacy": 10}
        on_board = Counter(cell for cell in last.board if cell >= 0)
        assert last.phase == "setup" or on_board[0] + last.captured[0] == 4 and on_board[1] + last.captured[1] == 4
    assert mg.status(last) == "finished" and mg.to_act(last) == []
    encoded = msgspec.json.encode(log)
    replayed = fold(DECODER.decode(encoded))
    assert mg.dump_position(replayed) == mg.dump_position(last) and replayed.result == last.result


def candidate_commands(state, seat) -> set[str]:
    """A superset of the legal commands, rich in near misses."""
    colour = state.colour_of(seat)
    own = [loc for loc, cell in enumerate(state.board) if cell == colour]
    enemy = [loc for loc, cell in enumerate(state.board) if cell == 1 - colour]
    texts = {f"pass {card}" for card in ("sword", "stronghold", "diplomacy")}
    texts |= {f"rescue {NAMES[p]}" for p in range(N_POINTS)}
    for frm in [loc for loc in own if loc < N_POINTS] + [loc for loc in enemy if loc < N_POINTS][:1]:
        for to in NEIGHBOURS[frm]:
            if to < 0:
                continue
            step = f"{NAMES[frm]}-{NAMES[to]}"
            texts.add(step)
            for a in NEIGHBOURS[to]:
                texts |= {f"{step} sword {NAMES[a]} {NAMES[b]}" for b in NEIGHBOURS[a] if a >= 0 and b >= 0}
            texts |= {f"{step} stronghold {NAMES[s]}" for s in SQUARES_AROUND[to] + SQUARES_AROUND[frm]}
            for target in enemy + own[:1]:
                if target < N_POINTS:
                    texts.add(f"{step} diplomacy {NAMES[target]}")
                else:
                    texts |= {f"{step} diplomacy {NAMES[target]} {NAMES[c]}" for c in CORNERS[target - N_POINTS]}
    for square in [loc for loc in own + enemy if loc >= N_POINTS]:
        for corner in CORNERS[square - N_POINTS]:
            texts.add(f"exit {NAMES[square]} {NAMES[corner]}")
            texts |= {f"exit {NAMES[square]} {NAMES[corner]} {NAMES[s]}" for s in NEIGHBOURS[corner] if s >= 0}
    return texts


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), options=OPTIONS)
def test_legal_and_decide_agree(seed, options):
    for index, (state, seat, _, _) in enumerate(random_game(seed, options, 40)):
        if mg.status(state) == "setup" or index % 6:
            continue
        allowed = mg.legal(state, seat)
        assert len(allowed) == len(set(allowed))
        accepted = set()
        for text in candidate_commands(state, seat) | set(allowed):
            try:
                mg.decide(state, seat, mg.parse(text), random.Random(0))
            except DomainError:
                continue
            accepted.add(text)
        assert accepted == set(allowed)
        other = 1 - seat
        assert mg.legal(state, other) == []


def _encoded_view(state, viewer) -> bytes:
    return msgspec.json.encode(mg.view(state, viewer))


def _hidden_variant(state, mine: str, rng: random.Random):
    """The position of ``state`` with the same public parts, ``mine`` hand and next deck cards, but another
    opponent hand and deck order."""
    position = mg.dump_position(state)
    theirs = "white" if mine == "black" else "black"
    keep = position["deck"][:4]  # what ``me`` may draw soon stays put, so both worlds stay alike for longer
    pool = position["hands"][theirs] + position["deck"][4:]
    rng.shuffle(pool)
    position["hands"][theirs], position["deck"] = pool[:3], keep + pool[3:]
    return position


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), prefix=st.integers(0, 12), mine=st.sampled_from(["black", "white"]))
def test_non_interference_of_hidden_cards(seed, prefix, mine):
    """Two games differing only in the opponent's hand and the deck order look the same to ``me``."""
    state = None
    for state, _, _, _ in random_game(seed, {}, prefix + 3):
        if mg.status(state) == "playing" and state.plies >= prefix:
            break
    if state is None or mg.status(state) != "playing":
        return
    rng = random.Random(seed)
    base = mg.dump_position(state)
    events_1 = mg.initial(Setup(seats=2, position=base), random.Random(seed))
    events_2 = mg.initial(Setup(seats=2, position=_hidden_variant(state, mine, rng)), random.Random(seed))
    worlds = [fold(events_1), fold(events_2)]
    me = worlds[0].seat_of(0 if mine == "black" else 1)
    feeds = [[msgspec.json.encode(mg.redact(e, me)) for e in events] for events in (events_1, events_2)]
    for _ in range(30):
        own = [w.hands[w.colour_of(me)] for w in worlds]
        if own[0] != own[1] or mg.status(worlds[0]) == "finished":
            break  # ``me`` drew different cards: from now on the worlds differ for ``me`` too
        assert _encoded_view(worlds[0], me) == _encoded_view(worlds[1], me)
        assert _encoded_view(worlds[0], None) == _encoded_view(worlds[1], None)
        assert feeds[0] == feeds[1]
        seat = mg.to_act(worlds[0])[0]
        common = sorted(set(mg.legal(worlds[0], seat)) & set(mg.legal(worlds[1], seat)))
        if seat == me:
            assert mg.legal(worlds[0], me) == mg.legal(worlds[1], me)
        if not common:
            break
        text = rng.choice(common)
        step = rng.randrange(10**6)
        for index, world in enumerate(worlds):
            events = mg.decide(world, seat, mg.parse(text), random.Random(step))
            feeds[index] += [msgspec.json.encode(mg.redact(e, me)) for e in events]
            worlds[index] = fold(events, world)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), me=st.sampled_from([0, 1]))
def test_non_interference_of_secret_placements(seed, me):
    """Until both have placed, the other seat's placement is invisible to ``me`` and to spectators."""
    rng = random.Random(seed)
    state = fold(mg.initial(Setup(seats=2), random.Random(seed)))
    choices = mg.legal(state, 1 - me)
    first, second = rng.sample(choices, 2)
    worlds, feeds = [], []
    for text in (first, second):
        events = mg.decide(state, 1 - me, mg.parse(text), rng)
        worlds.append(fold(events, state))
        feeds.append([msgspec.json.encode(mg.redact(e, me)) for e in events])
    for viewer in (me, None):
        assert _encoded_view(worlds[0], viewer) == _encoded_view(worlds[1], viewer)
    assert feeds[0] == feeds[1]
    assert _encoded_view(worlds[0], 1 - me) != _encoded_view(worlds[1], 1 - me)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), me=st.sampled_from([0, 1]), my_placement_first=st.booleans())
def test_non_interference_of_the_deck_through_the_deal(seed, me, my_placement_first):
    """Two setups whose decks differ except for the cards dealt to ``me`` look the same to ``me`` through the
    reveal and the deal (MG-4), and the same to spectators."""
    rng = random.Random(seed)
    base = mg.dump_position(fold(mg.initial(Setup(seats=2), random.Random(seed))))
    state = fold(mg.initial(Setup(seats=2, position=base), random.Random(seed)))
    mine = state.colour_of(me)
    deck = list(base["deck"])
    kept = {index for index in range(6) if index % 2 == mine}  # the deal alternates, Black first
    others = [card for index, card in enumerate(deck) if index not in kept]
    rng.shuffle(others)
    variant = [deck[index] if index in kept else others.pop() for index in range(len(deck))]
    worlds = [state, fold(mg.initial(Setup(seats=2, position={**base, "deck": variant}), random.Random(seed)))]
    feeds: list[list[bytes]] = [[], []]
    order = [me, 1 - me] if my_placement_first else [1 - me, me]
    for seat in order:
        text = rng.choice(mg.legal(worlds[0], seat))
        for index, world in enumerate(worlds):
            events = mg.decide(world, seat, mg.parse(text), random.Random(0))
            feeds[index] += [msgspec.json.encode(mg.redact(e, me)) for e in events]
            worlds[index] = fold(events, world)
        for viewer in (me, None):
            assert _encoded_view(worlds[0], viewer) == _encoded_view(worlds[1], viewer)
        assert feeds[0] == feeds[1]
    assert mg.status(worlds[0]) == "playing" and worlds[0].hands[mine] == worlds[1].hands[mine]
