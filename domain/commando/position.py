"""Setting a game up: seats, options, the board and the position JSON of docs/rules.md §4, both ways."""

from __future__ import annotations

import random
from typing import Any

from domain.base import BadSetup, Setup
from domain.catalog import MAX_AMOUNT
from domain.commando import events as ev
from domain.commando.board import DEFAULT_BOARD, DEFAULT_BOARD_SPEC, Board, load_board
from domain.commando.constants import CARD_NAMES, CAUTION_DECK, FULL_DECK
from domain.commando.state import State, full_deck_minus
from domain.text import Text

POSITION_KEYS = ("turn", "agents", "caution_deck", "board")
AGENT_KEYS = ("square", "path", "money", "weapons", "accessories", "maps", "skip")


def _board(options: dict[str, Any], position: dict[str, Any]) -> tuple[Board, dict[str, Any] | None]:
    """The board of the game and the option value that names it (None for the default board)."""
    given = position.get("board", "default")
    if given == "default":
        given = None
    elif not isinstance(given, dict):
        raise BadSetup("position.board", Text('must be "default" or a board object'))
    if given is not None and options["board"] is not None and given != options["board"]:
        raise BadSetup("position.board", Text("differs from options.board: give the board once"))
    spec = options["board"] if options["board"] is not None else given
    if spec is None:
        return DEFAULT_BOARD, None
    return load_board(spec, "options.board" if options["board"] is not None else "position.board"), spec


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise BadSetup(field, Text("must be true or false, not {value}", value=repr(value)))
    return value


def _count(value: Any, field: str, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadSetup(field, Text("must be a whole number of 0 or more, not {value}", value=repr(value)))
    if high is not None and value > high:
        raise BadSetup(field, Text("must be at most {high}, not {value}", high=high, value=value))
    return value


def _agents(raw: Any, seats: int, board: Board, options: dict[str, Any]) -> list[dict[str, Any]]:
    if raw is None:
        raw = [{} for _ in range(seats)]
    if not isinstance(raw, list) or len(raw) != seats:
        raise BadSetup("position.agents", Text("must list exactly one agent per seat ({seats})", seats=seats))
    agents: list[dict[str, Any]] = []
    holder: dict[int, int] = {}
    for seat, item in enumerate(raw):
        where = f"position.agents[{seat}]"
        if not isinstance(item, dict):
            raise BadSetup(where, Text("must be an object"))
        for key in item:
            if key not in AGENT_KEYS:
                raise BadSetup(f"{where}.{key}", Text("unknown field (known: {agent_keys})",
                                                      agent_keys=', '.join(AGENT_KEYS)))
        square = _count(item.get("square", board.start), f"{where}.square", len(board.kind) - 1)
        path = item.get("path", "green" if board.is_green(square) else "main")
        if path not in ("main", "green"):
            raise BadSetup(f"{where}.path", Text("must be \"main\" or \"green\", not {path}", path=repr(path)))
        if (path == "green") != board.is_green(square):
            actual = "a green-path square" if board.is_green(square) else "a main-track square"
            raise BadSetup(f"{where}.path", Text("square {square} is {actual}, not on the {path} path",
                                                 square=square, actual=actual, path=path))
        if square == board.base:
            raise BadSetup(f"{where}.square", Text("square {square} is the enemy base: the game would be over",
                                                   square=square))
        if square != board.start and not board.is_green(square):
            if square in holder:
                raise BadSetup(f"{where}.square", Text("square {square} already holds seat {square2}'s agent "
                                                       "(two agents cannot share a square)",
                                                       square=square, square2=holder[square]))
            holder[square] = seat
        agents.append({
            "square": square,
            # Every amount bounded as the options' are (MAX_AMOUNT): no larger one makes a playable game.
            "money": _count(item.get("money", options["start_money"]), f"{where}.money", MAX_AMOUNT),
            "weapons": _count(item.get("weapons", 0), f"{where}.weapons", MAX_AMOUNT),
            "accessories": _count(item.get("accessories", 0), f"{where}.accessories",
                                  options["accessory_limit"]),
            "maps": _count(item.get("maps", options["start_maps"]), f"{where}.maps", MAX_AMOUNT),
            "skip": _flag(item.get("skip", False), f"{where}.skip"),
        })
    return agents


def _deck(raw: Any, rng: random.Random) -> list[str]:
    if raw is None:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return deck
    if not isinstance(raw, list):
        raise BadSetup("position.caution_deck", Text("must be a list of card names, top card first"))
    for i, card in enumerate(raw):
        if not isinstance(card, str) or card not in CAUTION_DECK:
            raise BadSetup(f"position.caution_deck[{i}]",
                           Text("unknown card {card} (known: {card_names})",
                                card=repr(card), card_names=', '.join(CARD_NAMES)))
    for card, total in CAUTION_DECK.items():
        if raw.count(card) > total:
            raise BadSetup("position.caution_deck", Text("has {card} {card2} cards; the game has {total}",
                                                         card=raw.count(card), card2=card, total=total))
    return list(raw)


def initial_events(setup: Setup, options: dict[str, Any], rng: random.Random) -> list[ev.Event]:
    """``game_created`` and the caution deck's ``deck_shuffled`` for ``setup`` (its seat count checked) with
    ``options`` (checked by ``rules.checked_options``); ``BadSetup`` names a faulty field of the position."""
    seats = setup.seats
    position = setup.position
    if position is not None and not isinstance(position, dict):
        raise BadSetup("position", Text("must be an object"))
    position = position or {}
    for key in position:
        if key not in POSITION_KEYS:
            raise BadSetup(f"position.{key}", Text("unknown field (known: {position_keys})",
                                                   position_keys=', '.join(POSITION_KEYS)))
    board, board_option = _board(options, position)
    options["board"] = board_option
    agents = _agents(position.get("agents"), seats, board, options)
    if "turn" in position:
        turn = _count(position["turn"], "position.turn", seats - 1)
    else:
        # MC-P12: a fresh game draws the first player; a position without "turn" starts with seat 0.
        turn = 0 if setup.position is not None else rng.randrange(seats)
    deck = _deck(position.get("caution_deck"), rng)
    return [
        ev.GameCreated(seats=seats, options=options, board=board.spec, turn=turn, agents=agents,
                       discard=full_deck_minus(deck)),
        ev.DeckShuffled(count=len(deck), order=deck),
    ]


def dump_position(state: State) -> dict[str, Any]:
    """The position JSON of docs/rules.md §4 (agents, whose turn, the draw pile top first, the board)."""
    board = state.board
    return {
        "turn": state.turn,
        "agents": [{"square": a.square, "path": "green" if board.is_green(a.square) else "main", "money": a.money,
                    "weapons": a.weapons, "accessories": a.accessories, "maps": a.maps, "skip": a.skip}
                   for a in state.agents],
        "caution_deck": list(state.deck),
        "board": "default" if board.spec == DEFAULT_BOARD_SPEC else board.spec,
    }
