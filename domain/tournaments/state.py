"""A tournament folded from its events, and what may happen to it next (a decider, like a game's).

``evolve(state, event, at)`` folds one event (``at``: its commit time, ms); ``decide_*`` answer a request with
the events it makes or raise ``Refused``; ``next_events(state, now, rng)`` is what the tournament's job does when
it looks at a tournament: start it at ``starts_at``, pair the next round once every game of the last one is over
(Swiss, round robin), pair the free players (arena), end it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from domain.text import Text
from domain.tournaments import arena, round_robin, swiss, tables
from domain.tournaments import events as ev
from domain.tournaments.history import History
from domain.tournaments.scoring import BYE_POINTS, Played, Standing, place_points, standings

SYSTEMS = ("swiss", "round_robin", "arena")
LAPSE_MS = 7 * 86_400_000  # an upcoming tournament nobody started (and with no start time) ends after a week


class Refused(Exception):
    """A request the tournament's state refuses: ``kind`` names the service error (``conflict``, ``forbidden``,
    ``unprocessable``)."""

    def __init__(self, text: Text, kind: str = "unprocessable"):
        super().__init__(str(text))
        self.text = text
        self.kind = kind


@dataclass(frozen=True)
class Table:
    players: tuple[str, ...]
    kind: str = "game"  # "game" | "bye" | "forfeit"
    game: str | None = None
    points: tuple[float, ...] | None = None  # once over


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    at: int = 0


@dataclass(frozen=True)
class Tournament:
    id: str
    created: ev.Created  # the creation event: the tournament's settings
    at: int
    version: int = 1
    status: str = "upcoming"  # "upcoming" | "running" | "finished"
    players: tuple[str, ...] = ()  # in the order they joined (a withdrawal before the start takes them out)
    withdrawn: frozenset = frozenset()
    entrants: tuple[str, ...] = ()  # the players at the start, and any who joined an arena later
    rounds: tuple[Round, ...] = ()
    finished: tuple[Played, ...] = ()  # every table over, in the order they ended
    started: int | None = None
    ended: int | None = None
    end_reason: str | None = None
    games: dict = field(default_factory=dict)  # game id → (round index, table index)

    @property
    def system(self) -> str:
        return self.created.system

    @property
    def total_rounds(self) -> int | None:
        """The rounds a Swiss or round robin will have (None: an arena's are not counted in advance)."""
        if self.system == "swiss":
            return self.created.rounds
        if self.system == "round_robin":
            n = len(self.entrants) if self.status != "upcoming" else len(self.players)
            return max(0, n + n % 2 - 1)
        return None

    @property
    def ends_at(self) -> int | None:
        """An arena's end (ms): no game starts after it."""
        if self.system != "arena" or self.started is None:
            return None
        return self.started + self.created.minutes * 60_000

    def playing(self) -> set[str]:
        """The players at a table whose game is not over."""
        return {p for r in self.rounds for t in r.tables if t.points is None for p in t.players}

    def round_over(self) -> bool:
        return all(t.points is not None for r in self.rounds[-1:] for t in r.tables)

    def active(self) -> list[str]:
        """The entrants who have not withdrawn, in seed order."""
        return [p for p in self.entrants if p not in self.withdrawn]

    def standings(self) -> list[Standing]:
        return standings(self.entrants or self.players, self.finished, arena=self.system == "arena")



def evolve(state: Tournament | None, event: ev.TournamentEvent, tid: str, at: int) -> Tournament:
    """The tournament after one of its events."""
    if state is None:
        if not isinstance(event, ev.Created):
            raise ValueError(f"a tournament starts with its creation, not {event!r}")
        return Tournament(tid, event, at)
    state = replace(state, version=state.version + 1)
    match event:
        case ev.Joined(username=name):
            if state.status == "running":
                return replace(state, players=(*state.players, name), entrants=(*state.entrants, name))
            return replace(state, players=(*state.players, name))
        case ev.Withdrew(username=name):
            if state.status == "upcoming":
                return replace(state, players=tuple(p for p in state.players if p != name))
            return replace(state, withdrawn=state.withdrawn | {name})
        case ev.Started():
            return replace(state, status="running", started=at, entrants=state.players)
        case ev.RoundPaired(round=number, tables=seated, forfeits=forfeits):
            made = []
            finished = list(state.finished)
            for i, players in enumerate(seated):
                if len(players) == 1:
                    table = Table((players[0],), "bye", points=(BYE_POINTS,))
                elif i in forfeits:
                    table = Table(tuple(players), "forfeit", points=tuple(forfeits[i]))
                else:
                    table = Table(tuple(players))
                if table.points is not None:
                    finished.append(Played(table.players, table.points, table.kind))
                made.append(table)
            return replace(state, rounds=(*state.rounds, Round(number, tuple(made), at)), finished=tuple(finished))
        case ev.GameStarted(round=number, table=i, game=gid):
            ri = _round_index(state, number)
            tables_ = list(state.rounds[ri].tables)
            tables_[i] = replace(tables_[i], game=gid)
            return replace(state, rounds=_with_round(state, ri, tuple(tables_)),
                           games={**state.games, gid: (ri, i)})
        case ev.GameFinished(game=gid, winners=winners, played=played):
            ri, i = state.games[gid]
            tables_ = list(state.rounds[ri].tables)
            table = tables_[i]
            points = tuple(place_points(len(table.players), winners, played))
            tables_[i] = replace(table, points=points)
            return replace(state, rounds=_with_round(state, ri, tuple(tables_)),
                           finished=(*state.finished, Played(table.players, points, "game")))
        case ev.Ended(reason=reason):
            return replace(state, status="finished", ended=at, end_reason=reason)
    raise ValueError(f"not a tournament event: {event!r}")


def _round_index(state: Tournament, number: int) -> int:
    for i, r in enumerate(state.rounds):
        if r.number == number:
            return i
    raise ValueError(f"no round {number}")


def _with_round(state: Tournament, ri: int, made: tuple[Table, ...]) -> tuple[Round, ...]:
    rounds = list(state.rounds)
    rounds[ri] = replace(rounds[ri], tables=made)
    return tuple(rounds)


def fold(tid: str, items: list[tuple[ev.TournamentEvent, int]]) -> Tournament | None:
    state = None
    for event, at in items:
        state = evolve(state, event, tid, at)
    return state


# -- requests ---------------------------------------------------------------------------------------------------

def decide_join(state: Tournament, username: str) -> list[ev.TournamentEvent]:
    if state.status == "finished" or (state.status == "running" and state.system != "arena"):
        raise Refused(Text("this tournament has started; joining is closed"), "conflict")
    if any(p.lower() == username.lower() for p in state.players):
        if username in state.withdrawn:
            raise Refused(Text("you withdrew from this tournament"), "conflict")
        raise Refused(Text("you have joined this tournament already"), "conflict")
    active = len(state.players) - len(state.withdrawn)
    if active >= state.created.max_players:
        raise Refused(Text("this tournament is full ({n} players)", n=state.created.max_players), "conflict")
    return [ev.Joined(username)]


def decide_withdraw(state: Tournament, username: str) -> list[ev.TournamentEvent]:
    if state.status == "finished":
        raise Refused(Text("this tournament is over"), "conflict")
    if username not in state.players or username in state.withdrawn:
        raise Refused(Text("you are not playing in this tournament"), "conflict")
    return [ev.Withdrew(username)]


def decide_start(state: Tournament, by: str | None, now: int) -> list[ev.TournamentEvent]:
    """``by``: the account asking (None: the tournament's job, at ``starts_at``)."""
    if state.status != "upcoming":
        raise Refused(Text("this tournament has started already"), "conflict")
    if by is not None and by.lower() != state.created.creator.lower():
        raise Refused(Text("only the tournament's creator can start it"), "forbidden")
    if by is None and (state.created.starts_at is None or now < state.created.starts_at):
        raise Refused(Text("this tournament starts later"), "conflict")
    if len(state.players) < 2:
        if by is None:
            return [ev.Started(), ev.Ended("players")]
        raise Refused(Text("a tournament needs at least two players to start"), "conflict")
    return [ev.Started()]


def next_events(state: Tournament, now: int, seed: str = "") -> list[ev.TournamentEvent]:
    """What the tournament's job does now (nothing if it has nothing to do): start it at ``starts_at``; once
    every game of the last round is over, pair the next round or end it; in an arena, pair the free players until
    its end, and end it once its time is up and no game is left; end an upcoming one nobody started within
    ``LAPSE_MS``."""
    if state.status == "upcoming":
        if state.created.starts_at is not None and now >= state.created.starts_at:
            return decide_start(state, None, now)
        if state.created.starts_at is None and now >= state.at + LAPSE_MS:
            return [ev.Ended("lapsed")]  # it no longer holds a place among the open tournaments
        return []
    if state.status == "finished":
        return []
    if state.system == "arena":
        return _arena_next(state, now)
    if not state.round_over():
        return []
    number = len(state.rounds) + 1
    active = state.active()
    if number > (state.total_rounds or 0) or len(active) < 2:
        return [ev.Ended("rounds" if number > (state.total_rounds or 0) else "players")]
    history = History.of(state.finished)
    if state.system == "round_robin":
        seated = round_robin.rounds(list(state.entrants))[number - 1]
        forfeits = {}
        for i, table in enumerate(seated):
            gone = [p in state.withdrawn for p in table]
            if len(table) == 2 and any(gone):
                forfeits[i] = [0.0 if g else 1.0 for g in gone]
        return [ev.RoundPaired(number, [list(t) for t in seated], forfeits)]
    if state.created.table_size > 2:
        rng = random.Random(f"{seed}/{number}")
        seated = tables.seat(active, state.created.table_size, history, rng)
    else:
        seated = swiss.pair(active, history)
    return [ev.RoundPaired(number, [list(t) for t in seated])]


def _arena_next(state: Tournament, now: int) -> list[ev.TournamentEvent]:
    busy = state.playing()
    if now >= (state.ends_at or 0):
        return [] if busy else [ev.Ended("time")]
    free = [p for p in _free_order(state) if p not in busy and p not in state.withdrawn]
    if len(free) < 2:
        return []
    history = History.of(state.finished)
    scores = {s.username: s.score for s in state.standings()}
    last = {}
    for table in state.finished:
        if table.kind == "game" and len(table.players) == 2:
            a, b = table.players
            last[a], last[b] = b, a
    pairs, _ = arena.pair(free, scores, last, history)
    if not pairs:
        return []
    return [ev.RoundPaired(len(state.rounds) + 1, [list(p) for p in pairs])]


def _free_order(state: Tournament) -> list[str]:
    """The active players in the order they became free: the last table they finished, earliest first (those
    who have not played yet first, in seed order)."""
    when = {}
    for i, table in enumerate(state.finished):
        for p in table.players:
            when[p] = i + 1
    return sorted(state.active(), key=lambda p: (when.get(p, 0), state.entrants.index(p)))


def decide_game_over(state: Tournament, gid: str, winners: list[int], played: bool) -> list[ev.TournamentEvent]:
    """A game of the tournament has ended: its result, once (nothing if it was recorded already)."""
    where = state.games.get(gid)
    if where is None:
        return []
    ri, i = where
    if state.rounds[ri].tables[i].points is not None:
        return []
    return [ev.GameFinished(gid, list(winners), played)]


def tables_to_start(state: Tournament) -> list[tuple[int, int, tuple[str, ...]]]:
    """The tables paired whose game has not been made yet: (round number, table index, players by seat)."""
    out = []
    for r in state.rounds:
        for i, t in enumerate(r.tables):
            if t.kind == "game" and t.game is None:
                out.append((r.number, i, t.players))
    return out
