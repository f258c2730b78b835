"""The table around every game (domain/table.py): resign, draws, abort, seats leaving, open seats and clocks.

Times are given, never read: ``evolve`` gets each event's commit time and ``decide``/``expired`` get "now".
"""

from __future__ import annotations

import random

import pytest

from domain import table as table_module
from domain.base import BadSetup, IllegalMove, Setup, commands
from domain.registry import GAME_NAMES
from domain.table import (
    FIRST_MOVE_MS,
    MAX_DRAW_OFFERS,
    OFFER_WAIT,
    FirstMoveMissed,
    GameTooLong,
    Resigned,
    SeatTaken,
    TableSet,
    check_clock,
    table_of,
)
from domain.text import say

TWO_SEATS = GAME_NAMES  # every game plays with two seats
MANY_SEATS = ("squirrels", "commando")


class Game:
    """A game on a table, driven by hand: ``now`` is the injected clock (ms)."""

    def __init__(self, name: str, seats: int = 2, seed: int = 7, clock=None, open_seats=(), now: int = 0,
                 options=None):
        self.table = table_of(name)
        self.rng = random.Random(seed)
        self.now = now
        events = self.table.initial(Setup(seats=seats, options=options or {}), self.rng)
        if clock or open_seats:
            events.append(TableSet(open=list(open_seats), clock=clock))
        self.state = None
        self.apply(events)

    def apply(self, events) -> None:
        for event in events:
            self.state = self.table.evolve(self.state, event, self.now)

    def send(self, seat: int, text: str) -> list:
        events = self.table.decide(self.state, seat, self.table.parse(text), self.rng, now=self.now)
        self.apply(events)
        return events

    def play_one(self) -> int:
        """One random legal command of the first seat to act; returns that seat."""
        seat = self.table.to_act(self.state)[0]
        self.send(seat, self.rng.choice(commands(self.table.legal(self.state, seat))))  # a range: one of its
        return seat

    @property
    def result(self):
        return self.table.result(self.state)


def everyone_moves(game: Game, limit: int = 200) -> None:
    for _ in range(limit):
        if len(game.state.moved) == game.state.seats or game.table.status(game.state) == "finished":
            return
        game.play_one()
    raise AssertionError("not every seat moved")


@pytest.mark.parametrize("name", TWO_SEATS)
def test_resign_ends_a_two_seat_game_for_the_other_seat(name):
    game = Game(name)
    assert "resign" in game.table.table_commands(game.state, 1)
    assert "resign" not in game.table.legal(game.state, game.table.to_act(game.state)[0])
    game.send(1, "resign")  # whether or not it is seat 1's turn
    assert game.table.status(game.state) == "finished"
    assert game.result == {"winners": [0], "reason": "Seat 1 resigns. Seat 0 wins.", "termination": "resigned"}
    assert game.table.to_act(game.state) == []
    assert game.table.table_commands(game.state, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        game.send(0, "resign")


@pytest.mark.parametrize("name", TWO_SEATS)
def test_a_draw_offered_and_accepted(name):
    game = Game(name)
    game.send(0, "offer draw")
    assert game.table.table_commands(game.state, 0) == ["resign", "abort"]
    assert game.table.table_commands(game.state, 1) == ["resign", "accept draw", "decline draw", "abort"]
    with pytest.raises(IllegalMove, match="own offer"):
        game.send(0, "accept draw")
    game.send(1, "accept draw")
    assert game.result["winners"] == [] and game.result["termination"] == "draw_agreed"
    assert game.table.status(game.state) == "finished"


@pytest.mark.parametrize("name", TWO_SEATS)
def test_a_draw_declined_or_answered_by_a_move(name):
    game = Game(name)
    with pytest.raises(IllegalMove, match="no draw offer"):
        game.send(1, "accept draw")
    game.send(1, "offer draw")
    game.send(0, "decline draw")
    assert game.state.offer is None and game.result is None
    moves_of_seat_0(game, OFFER_WAIT)
    game.send(1, "offer draw")
    while game.state.offer is not None:  # the other seat finishing a move turns the offer down
        assert game.play_one() in (0, 1)
    assert game.table.status(game.state) != "finished"


def moves_of_seat_0(game: Game, count: int, limit: int = 400) -> None:
    """Play random commands until seat 0 has finished ``count`` moves (turns, or its part of a phase)."""
    for _ in range(limit):
        if count == 0:
            return
        before = set(game.table.to_act(game.state))
        game.play_one()
        count -= 0 in before - set(game.table.to_act(game.state))
    raise AssertionError("seat 0 did not move")


@pytest.mark.parametrize("name", TWO_SEATS)
def test_draw_offers_are_limited_per_seat(name):
    """Issue #31 (offer/decline loops grew a stream at 100 commands a second): a seat offers again only once the
    other seat has moved twice, and at most three times a game (lichess: not within 20 plies of its last)."""
    game = Game(name)
    for _ in range(MAX_DRAW_OFFERS - 1):
        assert "offer draw" in game.table.table_commands(game.state, 1)
        game.send(1, "offer draw")
        game.send(0, "decline draw")
        assert "offer draw" not in game.table.table_commands(game.state, 1)
        with pytest.raises(IllegalMove, match="once Seat 0 has moved 2 more times"):
            game.send(1, "offer draw")
        assert "offer draw" in game.table.table_commands(game.state, 0)  # the other seat's offers are its own
        moves_of_seat_0(game, 1)
        if game.table.status(game.state) == "finished":
            return
        with pytest.raises(IllegalMove, match="once Seat 0 has moved once more"):
            game.send(1, "offer draw")
        moves_of_seat_0(game, 1)
        if game.table.status(game.state) == "finished":
            return
    game.send(1, "offer draw")
    game.send(0, "decline draw")
    moves_of_seat_0(game, OFFER_WAIT)
    if game.table.status(game.state) == "finished":
        return
    with pytest.raises(IllegalMove, match="offered a draw 3 times in this game: no more offers"):
        game.send(1, "offer draw")
    assert "offer draw" not in game.table.table_commands(game.state, 1)


def test_a_game_ends_in_a_draw_at_its_length_limit(monkeypatch):
    """Issue #31: nothing bounded a game's length. The command whose events reach ``MAX_EVENTS`` ends it in a
    draw (``max_plies``); then nothing more is accepted."""
    monkeypatch.setattr(table_module, "MAX_EVENTS", 12)
    game = Game("murus")
    while game.state.events < 11:
        game.play_one()
        assert game.result is None
    events = game.send(game.table.to_act(game.state)[0], game.table.legal(game.state, game.table.to_act(
        game.state)[0])[0])
    assert type(events[-1]).__name__ == "GameTooLong" and game.state.events >= 12
    assert game.result == {"winners": [], "reason": "The game reached its length limit: a draw.",
                           "termination": "max_plies"}
    with pytest.raises(IllegalMove, match="over"):
        game.send(0, "offer draw")


def test_the_length_limit_keeps_an_end_the_rules_gave():
    """``game_too_long`` after the events that end a game changes nothing: the rules' result stands."""
    game = Game("murus")
    game.send(1, "resign")
    result = game.result
    game.apply([GameTooLong(limit=5)])
    assert game.result == result


@pytest.mark.parametrize("name, seats", [(name, 2) for name in GAME_NAMES] + [(name, 3) for name in MANY_SEATS])
def test_abort_only_before_every_seat_has_moved(name, seats):
    game = Game(name, seats=seats)
    assert "abort" in game.table.table_commands(game.state, 0)
    game.send(0, "abort")
    assert game.result == {"winners": [], "reason": "Seat 0 aborts the game: no result.", "termination": "aborted"}

    game = Game(name, seats=seats)
    everyone_moves(game)
    if game.table.status(game.state) == "finished":
        return
    assert "abort" not in game.table.table_commands(game.state, 0)
    with pytest.raises(IllegalMove, match="before every seat has moved"):
        game.send(0, "abort")


@pytest.mark.parametrize("name", MANY_SEATS)
def test_with_three_seats_a_resigning_seat_leaves_and_the_last_one_left_wins(name):
    game = Game(name, seats=3)
    leaving = game.table.to_act(game.state)[0]  # even the seat to act
    game.send(leaving, "resign")
    assert game.table.status(game.state) == "playing" and game.state.left == (leaving,)
    assert "offer draw" not in game.table.table_commands(game.state, 0)
    for _ in range(60):
        if game.table.status(game.state) == "finished":
            break
        assert leaving not in game.table.to_act(game.state)
        game.play_one()
    if game.table.status(game.state) == "finished":
        assert leaving not in game.result["winners"]
        return
    with pytest.raises(IllegalMove, match="left"):
        game.send(leaving, "resign")
    second = next(s for s in range(3) if s != leaving)
    game.send(second, "resign")
    last = ({0, 1, 2} - {leaving, second}).pop()
    assert game.result["winners"] == [last] and game.result["termination"] == "resigned"


def test_squirrels_a_seat_that_left_cannot_win_when_the_food_runs_out():
    game = Game("squirrels", seats=3, seed=3)
    game.send(2, "resign")
    while game.table.status(game.state) != "finished":
        assert 2 not in game.table.to_act(game.state)
        game.play_one()
    assert game.result["termination"] == "rules" and 2 not in game.result["winners"] and game.result["winners"]


def test_commando_a_fight_with_a_seat_that_leaves_is_called_off():
    game = Game("commando", seats=3, seed=11)
    for _ in range(400):
        if game.state.game.fight is not None or game.table.status(game.state) == "finished":
            break
        game.play_one()
    fight = game.state.game.fight
    if fight is None:
        pytest.skip("no fight in this seed")
    game.send(fight.defender, "resign")
    assert game.state.game.fight is None and game.state.game.turn not in game.state.left
    assert game.table.to_act(game.state) == [game.state.game.turn]


def test_open_seats_keep_the_game_in_setup_until_taken():
    from domain.table import SeatTaken

    game = Game("murus", open_seats=[1])
    assert game.table.status(game.state) == "setup" and game.table.to_act(game.state) == []
    assert game.table.table_commands(game.state, 0) == ["abort"]
    with pytest.raises(IllegalMove, match="every seat is taken"):
        game.send(0, "a1-a3")
    game.apply([SeatTaken(seat=1, name="Ben")])
    assert game.table.status(game.state) == "playing" and game.state.names == ((1, "Ben"),)


def test_fischer_clock_runs_for_the_seat_to_act_and_adds_the_increment():
    game = Game("murus", clock={"initial": 60, "increment": 2}, now=1_000)
    assert game.table.clock(game.state, 1_000) == {"remaining": [60_000, 60_000], "running": [],
                                                   "first_move_by": 1_000 + FIRST_MOVE_MS}
    game.now = 11_000
    game.send(0, "a1-a3")  # a first move: no time spent, none added
    game.now = 20_000
    game.send(1, "a7-a5")
    game.now = 30_000
    game.send(0, any_move(game, 0))  # 10 s spent, 2 s added
    assert game.table.clock(game.state, 30_000) == {"remaining": [52_000, 60_000], "running": [1],
                                                    "first_move_by": None}
    assert game.table.clock(game.state, 35_000)["remaining"] == [52_000, 55_000]
    assert game.table.deadline(game.state) == 90_000
    assert game.table.expired(game.state, 89_999) == []
    assert [e.seat for e in game.table.expired(game.state, 90_000)] == [1]


def any_move(game: Game, seat: int) -> str:
    return commands(game.table.legal(game.state, seat))[0]


def played_first_moves(game: Game) -> None:
    """Each seat of a two-seat Murus game makes its first move at once."""
    game.send(0, "a1-a3")
    game.send(1, "a7-a5")


def test_no_clock_runs_before_each_seats_first_move():
    """docs/api.md "The first ten minutes": a clock stands still until its seat has moved once."""
    game = Game("murus", clock={"initial": 60, "increment": 0}, now=0)
    game.now = 20_000
    game.send(0, "a1-a3")  # 20 s of thought before a first move cost nothing
    shown = game.table.clock(game.state, 45_000)
    assert shown == {"remaining": [60_000, 60_000], "running": [], "first_move_by": 20_000 + FIRST_MOVE_MS}
    game.now = 45_000
    game.send(1, "a7-a5")
    assert game.table.clock(game.state, 50_000) == {"remaining": [55_000, 60_000], "running": [0],
                                                    "first_move_by": None}


@pytest.mark.parametrize("seat_late", [0, 1])
def test_a_seat_that_makes_no_first_move_in_time_aborts_the_game(seat_late):
    game = Game("murus", clock={"initial": 300, "increment": 3}, now=0)
    if seat_late == 1:
        game.now = 5_000
        game.send(0, "a1-a3")
    start = game.now
    assert game.table.deadline(game.state) == start + FIRST_MOVE_MS
    assert game.table.expired(game.state, start + FIRST_MOVE_MS - 1) == []
    game.now = start + FIRST_MOVE_MS
    with pytest.raises(IllegalMove, match="time has run out"):
        game.send(seat_late, "a1-a3" if seat_late == 0 else "a7-a5")
    [missed] = game.table.expired(game.state, game.now)
    assert missed == FirstMoveMissed(seat=seat_late)
    game.apply([missed])
    assert game.result == {"winners": [], "termination": "aborted",
                           "reason": f"Seat {seat_late} did not make a first move in time: the game is aborted."}


def test_a_correspondence_game_gives_a_first_move_its_per_move_time():
    game = Game("murus", clock={"per_move": 3600}, now=0)
    assert game.table.deadline(game.state) == 3_600_000
    assert game.table.expired(game.state, 3_600_000) == [FirstMoveMissed(seat=0)]


def test_a_late_move_is_refused_and_the_timeout_ends_the_game():
    game = Game("murus", clock={"initial": 5}, now=0)
    played_first_moves(game)
    game.now = 5_000
    with pytest.raises(IllegalMove, match="time has run out"):
        game.send(0, any_move(game, 0))
    game.apply(game.table.expired(game.state, game.now))
    assert game.result == {"winners": [1], "reason": "Seat 0 ran out of time. Seat 1 wins.",
                           "termination": "timeout"}
    assert game.table.clock(game.state, 9_000) == {"remaining": [0, 5_000], "running": [], "first_move_by": None}


def test_correspondence_clock_gives_each_move_the_same_time():
    game = Game("murus", clock={"per_move": 3600}, now=0)
    played_first_moves(game)
    game.now = 3_000_000
    game.send(0, any_move(game, 0))
    assert game.table.clock(game.state, 3_000_000) == {"remaining": [3_600_000, 3_600_000], "running": [1],
                                                       "first_move_by": None}
    assert game.table.deadline(game.state) == 3_000_000 + 3_600_000


def test_with_three_seats_a_timeout_makes_the_seat_leave():
    game = Game("squirrels", seats=3, clock={"initial": 10}, now=0)
    everyone_moves(game)
    seat = game.table.to_act(game.state)[0]
    game.apply(game.table.expired(game.state, 10_000))
    assert game.state.left == (seat,) and game.table.status(game.state) == "playing"
    assert seat not in game.table.to_act(game.state)


def test_replaying_the_events_with_their_times_gives_the_same_clock():
    game = Game("murus", clock={"initial": 30, "increment": 1}, now=0)
    log = []
    for t in (4_000, 9_000, 15_000):
        game.now = t
        seat = game.table.to_act(game.state)[0]
        events = game.table.decide(game.state, seat, game.table.parse(game.table.legal(game.state, seat)[0]),
                                   game.rng, now=t)
        game.apply(events)
        log += [(e, t) for e in events]
    replay = Game("murus", clock={"initial": 30, "increment": 1}, now=0)
    for event, t in log:
        replay.state = replay.table.evolve(replay.state, event, t)
    assert replay.table.clock(replay.state, 20_000) == game.table.clock(game.state, 20_000)


@pytest.mark.parametrize("clock, field", [
    ({"initial": 0}, "clock.initial"), ({"initial": -5}, "clock.initial"),
    ({"initial": 30 * 86400 + 1}, "clock.initial"), ({"per_move": 0}, "clock.per_move"),
    ({"per_move": -1}, "clock.per_move"), ({"per_move": 31 * 86400}, "clock.per_move"),
    ({"initial": 60, "increment": -1}, "clock.increment"), ({"initial": "60"}, "clock.initial"),
    ({"increment": 5}, "clock.initial"), ({"initial": 60, "bonus": 1}, "clock.bonus"),
    ({"initial": True}, "clock.initial"), ("fast", "clock"),
])
def test_bad_clock_values_name_the_field(clock, field):
    with pytest.raises(BadSetup) as exc:
        check_clock(clock)
    assert exc.value.field == field


def test_good_clock_values():
    assert check_clock({"initial": 300, "increment": 3}) == {"initial": 300, "increment": 3}
    assert check_clock({"initial": 30 * 86400}) == {"initial": 30 * 86400, "increment": 0}
    assert check_clock({"per_move": 86400}) == {"per_move": 86400}


def test_seats_are_said_as_their_players():
    """#30: "Player 2" or the player's name, never "Seat 1"."""
    table = table_of("murus")
    assert say(table.describe(Resigned(seat=1)), names=["Ana", "Ben"]) == "Ben resigns."
    assert say(table.describe(Resigned(seat=1))) == "Player 2 resigns."
    assert say(table.describe(TableSet(open=[1], clock={"initial": 300, "increment": 3}))) == \
        "Waiting for 1 more player. Clock: 5 min + 3 s."
    assert say(table.describe(SeatTaken(seat=1, name="Bo"))) == "Bo joins the game."


def test_the_open_seats_line_stays_true_once_a_player_takes_the_seat():
    """#16 qa: the feed names seats by their players *now*; "Seat 1 open for anyone" became "Bo open for anyone"
    once Bo had taken it: the line names no seat."""
    table = table_of("murus")
    for open_seats, line in (([1], "Waiting for 1 more player."), ([0, 1], "Waiting for 2 more players.")):
        assert say(table.describe(TableSet(open=open_seats)), names=["Ana", "Bo"]) == line


def test_mouse_guard_lines_name_colours_and_players():
    """Mouse Guard draws its colours per game (MG-3): a move line names the colour ("Black: d3-d4"), a card line
    its player."""
    from domain.mouseguard import events as mg

    table, names = table_of("mouseguard"), ["Ana", "Bo"]
    assert say(table.describe(mg.Moved(colour="black", frm="d3", to="d4")), names=names) == "Black: d3-d4"
    assert say(table.describe(mg.Captured(colour="white", at="d4")), names=names) == "White: mouse on d4 captured"
    line = table.describe(mg.CardPlayed(seat=0, colour="black", card="sword", args=["b3", "b2"]))
    assert say(line, names=names) == "Ana plays Sword: b3 b2"
    assert table_of("murus").sides(None) == ("Romans", "Gauls")
    assert table_of("squirrels").sides(None) == ()


def test_named_lines_read_as_sentences():
    """#15: a player is one ("Ana wins: …"); every winner of a shared Squirrels win is named."""
    from domain.murus import events as mu
    from domain.squirrels.scoring import verdict

    table, names = table_of("murus"), ["Ana", "Bo"]
    line = table.describe(mu.GameEnded(winners=[0], reason="Romans reached row 7"))
    assert say(line, names=names) == "Ana wins: Romans reached row 7"
    line = table.describe(mu.Captured(seat=0, cell="e4", removed=1, left=""))
    assert say(line, names=names) == "Bo loses the wall on e4"
    line = table.describe(mu.Captured(seat=0, cell="d6", removed=1, left="G"))
    assert say(line, names=names) == "Bo's tower on d6 becomes a wall"
    tie = verdict([{"points": 5}, {"points": 3}, {"points": 5}])
    assert say(tie, names=["Ana", "Bo", "Cy"]) == "Ana and Cy share the win with 5 points each."


@pytest.mark.parametrize("name, line", [("murus", "Draw: the limit of 1 move was reached"),
                                        ("commando", "Draw: the limit of 1 turn was reached")])
def test_a_one_ply_limit_is_said_in_the_singular(name, line):
    """#15: "1 move", not "1 moves" (#30: nor "ply"); every game's turn-limit draw opens with "Draw:"."""
    game = Game(name, options={"max_plies": 1})
    while game.table.status(game.state) != "finished":
        seat = game.table.to_act(game.state)[0]
        game.send(seat, game.table.legal(game.state, seat)[0])
    assert game.table.result(game.state)["reason"] == line


def test_commando_lines_name_the_player_once():
    """#15: "Game over: Ana wins — Ana's agent reached the enemy base" named the winner twice."""
    from domain.commando import events as mc

    reason = "Seat 0's agent reached the enemy base. Seat 0 wins."
    line = table_of("commando").describe(mc.GameEnded(winners=[0], reason=reason))
    assert say(line, names=["Ana", "Bo"]) == "Game over. Ana's agent reached the enemy base. Ana wins."
    # A game stored before #15 keeps its reason, and its line.
    line = table_of("commando").describe(mc.GameEnded(winners=[0], reason="Seat 0's agent reached the enemy base"))
    assert say(line, names=["Ana", "Bo"]) == "Game over: Ana wins — Ana's agent reached the enemy base"
