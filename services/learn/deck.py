"""The deck: every mistake and blunder of a signed-in player's analysed games becomes a card, reviewed on a
schedule by FSRS (the ``fsrs`` package). README "Learn" documents the figures.

**Events, then a projection.** A deck is one stream per account (``Keys.deck_events``, never trimmed) of two
events: ``card_added`` (the position as the mover saw it, the move played, the moves that count as solving it) and
``card_reviewed`` (the move answered, whether it solved the card, when). The cards and their schedule
(``Keys.deck_cards``: id → JSON with the FSRS card; ``Keys.deck_due``: id → due time) are their fold: each
event is appended and folded in one script (``deck_append.lua``), and ``rebuild`` folds every stream again
(``burrow rebuild``). The scheduler runs without fuzzing, so a fold is the same every time.

**Cards come from analyses.** When the analysis of a game with an account's seat is done, ``Analyses`` queues the
extraction job (``workers.jobs.deck_extract``) on the ``analysis`` queue under the same per-client fairness. For
each move of an account's seat classed ``mistake`` or ``blunder``, the job records the position before it as that
seat saw it (``view``, hidden cards hidden) and checks the solutions there: each other legal move is played and
the position after it evaluated by the analysis engine (``budget / 4`` seconds each, the same for the engine's
best); a move whose mover's chance is within ``MARGIN`` of the best's solves the card (the engine's best always
does, the move played never). Positions with more than ``MAX_CANDIDATES`` legal moves accept the engine's move
only. So an answer is judged at once, by a set lookup.

**Bounded.** At most ``MAX_CARDS`` cards per account and ``MAX_PER_GAME`` from one game (the worst moves
first); beyond, new mistakes are not added.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import fsrs
import msgspec

from domain.ai import analysis as engine
from domain.base import BadNotation, IllegalMove, commands
from domain.text import Text
from services import errors
from services.games.states import Game, States
from services.scripts import lua

MARGIN = 0.05
"""A move solves a card when its mover's chance is at most this much below the engine's best move's."""
MAX_CANDIDATES = 40
"""Positions with more legal moves than this accept the engine's move only (checking each would take too long)."""
MAX_CARDS = 200
"""Cards in one account's deck at most."""
MAX_PER_GAME = 10
"""Cards from one game at most (its worst moves)."""
DUE_PAGE = 50
"""Due cards listed at most by ``GET /api/me/deck``."""
CLASSES = ("mistake", "blunder")
SCHEDULER = fsrs.Scheduler(enable_fuzzing=False)
"""FSRS with its default parameters (90% retention wanted), without fuzzing: a fold is deterministic."""


class CardAdded(msgspec.Struct, frozen=True, tag="card_added"):
    id: str
    game: str
    gid: str
    version: int  # the version of the position (before the move)
    seat: int
    view: dict[str, Any]
    played: str
    best: list[str]  # the moves that solve the card, the engine's first
    kind: str  # "mistake" | "blunder"
    legal: list[str] = []  # the seat's legal moves there, as the game's document lists them (for the board)


class CardReviewed(msgspec.Struct, frozen=True, tag="card_reviewed"):
    id: str
    move: str
    correct: bool


EVENTS = CardAdded | CardReviewed
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(EVENTS)


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat().replace("+00:00", "Z")


def fold(card: dict | None, event: CardAdded | CardReviewed, at: int, number: int) -> dict:
    """The card after ``event`` (at ``at`` ms; ``number``: the FSRS card id of a new card)."""
    if isinstance(event, CardAdded):
        scheduled = fsrs.Card(card_id=number, due=datetime.fromtimestamp(at / 1000, UTC))
        return {**msgspec.to_builtins(event), "added": at, "reviews": 0, "fsrs": scheduled.to_dict()}
    scheduled = fsrs.Card.from_dict(card["fsrs"])
    rating = fsrs.Rating.Good if event.correct else fsrs.Rating.Again
    scheduled, _ = SCHEDULER.review_card(scheduled, rating, review_datetime=datetime.fromtimestamp(at / 1000, UTC))
    return {**card, "reviews": card["reviews"] + 1, "fsrs": scheduled.to_dict()}


def due_ms(card: dict) -> int:
    return int(datetime.fromisoformat(card["fsrs"]["due"]).timestamp() * 1000)


class Deck:
    """The decks of every account: cards added from analyses, reviews answered, the schedule read."""

    def __init__(self, games: States, jobs, budget: float = 0.25, clock: Callable[[], float] = time.time,
                 jobs_per_client: int = 1, search_clock: Callable[[], float] = time.monotonic,
                 account_id: Callable[[str], str | None] = lambda username: None):
        self.games = games
        self.account_id = account_id  # a username's account id (the process's accounts), None for no account
        self.store = games.store
        self.redis = games.store.redis
        self.keys = games.store.keys
        self.jobs = jobs
        self.budget = budget
        self.clock = clock
        self.search_clock = search_clock
        self.jobs_per_client = jobs_per_client
        self._append = self.redis.register_script(lua("deck_append"))

    # -- writing -----------------------------------------------------------------------------------------

    def _write(self, account_id: str, event: CardAdded | CardReviewed, card: dict, before: str, at: int) -> str:
        data = _encoder.encode(event)
        answer = self._append(
            keys=[self.keys.deck_events(account_id), self.keys.deck_cards(account_id),
                  self.keys.deck_due(account_id), self.keys.decks()],
            args=[account_id, event.id, event.__struct_config__.tag, data, at, json.dumps(card, sort_keys=True),
                  due_ms(card), before, MAX_CARDS])
        return answer.decode() if isinstance(answer, bytes) else answer

    def add(self, account_id: str, event: CardAdded) -> str:
        """Record a new card: ``ok``, or ``exists`` / ``full`` (nothing written)."""
        at = int(self.clock() * 1000)
        number = self.redis.hlen(self.keys.deck_cards(account_id)) + 1
        return self._write(account_id, event, fold(None, event, at, number), "", at)

    # -- extraction (the job) ----------------------------------------------------------------------------

    def extract(self, gid: str, version: int, analysis: dict, client: str | None = None) -> int:
        """The extraction job: the cards of the finished analysis ``analysis`` (``Analyses.read``) of ``gid`` at
        ``version``, for its account seats; returns how many were added. Idempotent: a card already there is
        not again."""
        try:
            return self._extract(gid, version, analysis)
        finally:
            self.jobs.analysis_done(extract_job_id(gid, version), client, self.jobs_per_client)

    def _extract(self, gid: str, version: int, analysis: dict) -> int:
        if analysis.get("status") != "done" or analysis.get("version") != version:
            return 0
        game = self.games.load(gid)
        owners = {seat: self.account_id(name) for seat, name in enumerate(game.accounts) if name}
        chosen: dict[int, list[dict]] = {}
        for ply in analysis["plies"]:
            if ply.get("class") in CLASSES and owners.get(ply["seat"]) and ply.get("best"):
                chosen.setdefault(ply["seat"], []).append(ply)
        added = 0
        for seat, plies in chosen.items():
            account_id = owners[seat]
            worst = sorted(plies, key=lambda p: -self._loss(analysis, p))[:MAX_PER_GAME]
            for ply in sorted(worst, key=lambda p: p["version"]):
                card_id = f"{gid}-{ply['version'] - 1}"
                if self.redis.hexists(self.keys.deck_cards(account_id), card_id):
                    continue
                before = self.games.at_version(gid, ply["version"] - 1)
                event = CardAdded(id=card_id, game=game.meta["game"], gid=gid, version=before.version, seat=seat,
                                  view=before.view(seat), played=ply["move"],
                                  best=self.solutions(before, seat, ply["best"], ply["move"]), kind=ply["class"],
                                  legal=list(before.legal(seat)))
                if self.add(account_id, event) == "ok":
                    added += 1
        return added

    @staticmethod
    def _loss(analysis: dict, ply: dict) -> float:
        """How much of its mover's chance ``ply`` lost (the last move: its class's worst)."""
        plies = analysis["plies"]
        index = plies.index(ply)
        if index + 1 < len(plies):
            return ply["win"][ply["seat"]] - plies[index + 1]["win"][ply["seat"]]
        return 1.0 if ply["class"] == "blunder" else 0.2

    def solutions(self, game: Game, seat: int, best: str, played: str) -> list[str]:
        """The moves that solve the position of ``game`` for ``seat``: the engine's ``best`` first, then each
        other legal move whose mover's chance is within ``MARGIN`` of the best's (never ``played``)."""
        module, state = game.rules.game, game.state.game
        legal = [m for m in commands(module.legal(state, seat)) if m != played]
        if len(legal) > MAX_CANDIDATES or best not in legal:
            return [best]
        budget = max(0.01, self.budget / 4)
        values = {move: self._value(module, state, game.seats, seat, move, budget, index)
                  for index, move in enumerate(legal)}
        top = values[best]
        return [best] + [m for m in legal if m != best and values[m] is not None and top is not None
                         and values[m] >= top - MARGIN]

    def _value(self, module, state, seats: int, seat: int, move: str, budget: float, index: int) -> float | None:
        """``seat``'s chance after ``move``, by the analysis engine (None if the move cannot be played here)."""
        rng = random.Random(f"{index}/{move}")
        try:
            events = module.decide(state, seat, module.parse(move), rng)
        except (IllegalMove, BadNotation):
            return None
        for event in events:
            state = module.evolve(state, event)
        to_act = module.to_act(state)
        evaluation = engine.evaluate(module, state, seats, to_act[0] if to_act else seat, budget, rng,
                                     self.search_clock)
        return evaluation.win[seat]

    # -- reading and answering ---------------------------------------------------------------------------

    def _card(self, account_id: str, card_id: str) -> tuple[dict, str]:
        fits = isinstance(card_id, str) and 0 < len(card_id) <= 80
        raw = self.redis.hget(self.keys.deck_cards(account_id), card_id) if fits else None
        if raw is None:
            raise errors.NotFound(Text("no card {id} in your deck", id=str(card_id)[:60]))
        text = raw.decode()
        return json.loads(text), text

    def due(self, account_id: str) -> dict:
        """docs/api.md's ``GET /api/me/deck``: how many cards are due, how many in all, the due ones oldest
        first (at most ``DUE_PAGE``)."""
        now = int(self.clock() * 1000)
        key = self.keys.deck_due(account_id)
        due = self.redis.zcount(key, "-inf", now)
        total = self.redis.zcard(key)
        ids = [i.decode() for i in self.redis.zrangebyscore(key, "-inf", now, start=0, num=DUE_PAGE)]
        raws = self.redis.hmget(self.keys.deck_cards(account_id), ids) if ids else []
        cards = []
        for raw in raws:
            if raw is None:
                continue
            card = json.loads(raw)
            cards.append({"id": card["id"], "game": card["game"], "from": {"game": card["gid"],
                                                                           "version": card["version"]},
                          "seat": card["seat"], "view": card["view"], "played": card["played"],
                          "kind": card["kind"], "legal": card.get("legal", []), "reviews": card["reviews"],
                          "due": iso(due_ms(card))})
        return {"due": due, "total": total, "cards": cards}

    def answer(self, account_id: str, card_id: str, move: Any) -> dict:
        """A review: whether ``move`` solves the card, its solutions and when it is due next; the scheduler is
        told (Good when solved, Again when not). 404 for a card not in this account's deck."""
        if not isinstance(move, str) or not move.strip() or len(move) > 200:
            raise errors.Unprocessable(Text("move: a move in the game's notation"), field="move")
        for _ in range(5):
            card, before = self._card(account_id, card_id)
            correct = _same(move, card["best"])
            event = CardReviewed(id=card_id, move=move.strip()[:200], correct=correct)
            at = int(self.clock() * 1000)
            after = fold(card, event, at, 0)
            if self._write(account_id, event, after, before, at) == "ok":
                return {"correct": correct, "best": card["best"], "next_due": iso(due_ms(after))}
        raise errors.Conflict(Text("this card was answered at the same time elsewhere: try again"))

    # -- rebuilding --------------------------------------------------------------------------------------

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Fold every account's deck again from its events (``burrow rebuild``); returns the events folded."""
        accounts = sorted(a.decode() for a in self.redis.smembers(self.keys.decks()))
        count = 0
        for done, account_id in enumerate(accounts):
            cards: dict[str, dict] = {}
            for _, fields in self.redis.xrange(self.keys.deck_events(account_id)):
                event = _decoder.decode(fields[b"data"])
                at = int(fields[b"at"])
                cards[event.id] = fold(cards.get(event.id), event, at, len(cards) + 1)
                count += 1
            pipe = self.redis.pipeline()
            pipe.delete(self.keys.deck_cards(account_id), self.keys.deck_due(account_id))
            for card_id, card in cards.items():
                pipe.hset(self.keys.deck_cards(account_id), card_id, json.dumps(card, sort_keys=True))
                pipe.zadd(self.keys.deck_due(account_id), {card_id: due_ms(card)})
            pipe.execute()
            if progress:
                progress(done + 1, len(accounts))
        return count


def _same(move: str, solutions: list[str]) -> bool:
    """Whether ``move`` is one of ``solutions`` (spacing and case forgiven, as the notations forgive them)."""
    said = " ".join(move.split()).lower()
    return any(said == " ".join(s.split()).lower() for s in solutions)


def extract_job_id(gid: str, version: int) -> str:
    return f"deck-{gid}-{version}"


def of(runtime) -> Deck:
    """The decks of ``runtime``'s store, their jobs on its ``analysis`` queue at its analysis budget."""
    settings = runtime.settings
    return Deck(runtime.games, runtime.jobs, settings.analysis_time,
                jobs_per_client=settings.analysis_jobs_per_client, account_id=runtime.accounts.store.id_of)
