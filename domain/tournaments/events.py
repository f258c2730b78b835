"""A tournament's events, stored in its own stream as msgpack (like a game's and an account's). Schema evolution:
only add fields with defaults."""

from __future__ import annotations

from typing import Union

import msgspec


class TournamentEvent(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of the tournament events."""


class Created(TournamentEvent, frozen=True, tag="tournament_created"):
    creator: str
    game: str
    system: str  # "swiss" | "round_robin" | "arena"
    title: str
    clock: dict
    options: dict = {}
    rounds: int = 0  # swiss
    minutes: int = 0  # arena
    table_size: int = 2
    starts_at: int | None = None  # ms
    max_players: int = 64


class Joined(TournamentEvent, frozen=True, tag="player_joined"):
    username: str


class Withdrew(TournamentEvent, frozen=True, tag="player_withdrew"):
    username: str


class Started(TournamentEvent, frozen=True, tag="tournament_started"):
    """The entrants are the players who joined and did not withdraw, in the order they joined."""


class RoundPaired(TournamentEvent, frozen=True, tag="round_paired"):
    """A round's tables, each a list of usernames by seat: a table of one is a bye; ``forfeits`` lists the tables
    not played (a round robin's table with a player who withdrew), with each seat's points."""

    round: int
    tables: list[list[str]]
    forfeits: dict[int, list[float]] = {}


class GameStarted(TournamentEvent, frozen=True, tag="tournament_game_started"):
    round: int
    table: int
    game: str


class GameFinished(TournamentEvent, frozen=True, tag="tournament_game_finished"):
    """The game's winners (seats) as its result names them; ``played`` False when nobody moved (aborted)."""

    game: str
    winners: list[int]
    played: bool = True


class Ended(TournamentEvent, frozen=True, tag="tournament_ended"):
    reason: str  # "rounds" | "time" | "players" (fewer than two to play) | "lapsed" (never started)


EVENTS = (Created, Joined, Withdrew, Started, RoundPaired, GameStarted, GameFinished, Ended)
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Union[EVENTS])  # noqa: UP007


def encode(event: TournamentEvent) -> tuple[str, bytes]:
    """(type, bytes) of a tournament event, as its stream keeps it."""
    return event.__struct_config__.tag, _encoder.encode(event)


def decode(data: bytes) -> TournamentEvent:
    return _decoder.decode(data)
