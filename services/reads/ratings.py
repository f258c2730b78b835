"""Statistics and ratings: two read models of finished games, rebuilt from the events like every projection.

* Statistics (``/api/stats``): every finished game of every kind (guests, AI, accounts) counted once per game —
  how games end, wins by seat, draws, length. The script records the game's id with the counts, so a job run twice
  changes nothing.
* Ratings: one per account and game, from the **rated** games only (docs/api.md): every seat an account (no AI, no
  guest), no seed or position chosen by a client (``services/games/fairness.py``), every seat moved, not aborted;
  and, against farming, not when two of its accounts have already played ``PAIR_CAP`` rated games of it together
  in the 24 hours before. Two seats: Glicko-2; three or more: OpenSkill's Plackett–Luce on the same scale
  (``services/reads/glicko2.py``). Provisional while RD > 110; only non-provisional ratings are ranked (the
  leaderboard lists the provisional ones below them, unranked).

Ratings depend on the order of games: they are always those of the games taken in the order they finished (their
last event's time, then their id), whatever order the workers see them in. A game that comes after one that
finished later is put in its place, and the ratings of the games after it are computed again (each account's
history keeps its rating after every game, so only what follows is redone). So the live ratings and those of
``burrow rebuild`` are the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from domain.registry import GAME_NAMES
from services.games.fairness import chosen_by_client
from services.games.states import Game, States
from services.reads import glicko2
from services.reads.glicko2 import Skill
from services.scripts import lua
from services.store.codec import iso_time
from services.store.optimistic import BUDGET, Again, retry

PROVISIONAL_RD = 110
PROVISIONAL_BELOW = 1_000_000  # a provisional rating's place in the ranking: below every settled one
PAIR_CAP = 5  # rated games of one game between the same two accounts in 24 hours; the next ones are unrated
PAIR_WINDOW_MS = 24 * 3600 * 1000
TOP = 100
HISTORY_SHOWN = 1000  # points of a rating's history a profile shows (the latest)

COUNT_GAME = lua("count_game")
WRITE_RATINGS = lua("write_ratings")


def rated(game: Game) -> bool:
    """Whether a finished game may change ratings (before the farming rule, which needs the other games)."""
    return candidate(game) is not None


def candidate(game: Game) -> list[str] | None:
    """The accounts (lower-case usernames, by seat) of a finished game that may be rated, or None if it may not:
    a seat is no account, an account holds two seats, a client chose the seed or the position, a seat never moved
    (finished at birth, or resigned before a first move), it was aborted, or a length limit ended it
    (``max_plies``: the creator's option, or the service's limit; no one won or drew it by playing)."""
    result = game.result
    if game.status != "finished" or result is None or \
            result.get("termination") in ("aborted", "max_plies"):
        return None
    if chosen_by_client(game.meta):
        return None
    held = game.accounts
    if any(a is None for a in held) or any(p.get("ai") for p in game.meta["players"]):
        return None
    users = [a.lower() for a in held]
    if len(set(users)) != len(users):
        return None
    moved = getattr(game.state, "moved", None)
    if moved is not None and len(moved) < game.seats:
        return None
    return users


@dataclass
class Result:
    """A finished game between accounts, as the ratings read it."""

    gid: str
    at: int
    users: list[str]
    names: list[str]
    winners: list[int]
    rated: bool | None = None  # decided when it is folded in
    changes: list[int] | None = None
    """Each seat's rating change, as shown (rounded after minus rounded before), once it is rated."""

    @property
    def key(self) -> tuple[int, str]:
        return self.at, self.gid

    def dump(self) -> str:
        return json.dumps({"at": self.at, "users": self.users, "names": self.names, "winners": self.winners,
                           "rated": self.rated, "changes": self.changes})

    @classmethod
    def load(cls, gid: str, raw: bytes | str) -> Result:
        data = json.loads(raw)
        return cls(gid, data["at"], data["users"], data["names"], data["winners"], data["rated"],
                   data.get("changes"))


@dataclass
class Standing:
    """An account's rating of one game after some rated game (one entry of its history)."""

    username: str
    rating: float = glicko2.START
    rd: float = glicko2.START_RD
    volatility: float = glicko2.START_VOLATILITY
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    at: int = 0
    gid: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def skill(self) -> Skill:
        return Skill(self.rating, self.rd, self.volatility)

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def dump(self) -> str:
        return json.dumps({"username": self.username, "rating": self.rating, "rd": self.rd, "vol": self.volatility,
                           "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                           "at": self.at, "gid": self.gid})

    @classmethod
    def load(cls, raw: bytes | str) -> Standing:
        d = json.loads(raw)
        return cls(d["username"], d["rating"], d["rd"], d["vol"], d["games"], d["wins"], d["draws"], d["losses"],
                   d["at"], d["gid"])

    def shown(self) -> dict:
        """As the API shows it: rounded, with ``provisional``."""
        return {"rating": round(self.rating), "rd": round(self.rd), "provisional": self.provisional,
                "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses}


def outcome(seat: int, winners: list[int]) -> str:
    """"win" (the only winner), "draw" (no winner, or a winner among several) or "loss"."""
    if seat in winners:
        return "win" if len(winners) == 1 else "draw"
    return "draw" if not winners else "loss"


def play(standings: list[Standing], result: Result) -> list[Standing]:
    """Each seat's standing after the rated game ``result``."""
    skills = [s.skill for s in standings]
    if len(standings) == 2:
        score = {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome(0, result.winners)]
        after = list(glicko2.two_seats(skills[0], skills[1], score))
    else:
        ranks = [1 if seat in result.winners or not result.winners else 2 for seat in range(len(standings))]
        after = glicko2.many_seats(skills, ranks)
    out = []
    for seat, (before, skill) in enumerate(zip(standings, after)):
        kind = outcome(seat, result.winners)
        out.append(Standing(result.names[seat], skill.rating, skill.rd, skill.volatility, before.games + 1,
                            before.wins + (kind == "win"), before.draws + (kind == "draw"),
                            before.losses + (kind == "loss"), result.at, result.gid))
    return out


def finished_at(game: Game, store) -> int:
    """When the game ended: its last event's commit time, a rematch's notice after the end aside."""
    last = list(store.read(game.gid, after=max(0, game.version - 2), to=game.version))
    for item in reversed(last):
        if item.type != "rematched":
            return item.at
    return last[0].at if last else game.meta["created"]


class Ratings:
    """Counts finished games into the statistics and rated ones into the ratings; reads both."""

    def __init__(self, games: States, suffix: str = ""):
        self.games = games
        self.redis = games.store.redis
        self.store_keys = games.store.keys
        self.suffix = suffix  # a rebuild counts into keys of its own, then switches over
        self.keys = [self.store_keys.stats(name) + suffix for name in ("counted", "stats")]
        self._count = self.redis.register_script(COUNT_GAME)
        self._write = self.redis.register_script(WRITE_RATINGS)
        self.failures: list[tuple[str, str]] = []

    def key(self, made: Callable[..., str], *parts: str) -> str:
        """The key ``made`` (one of ``Keys``' methods) names, in this counting's keys (``suffix``)."""
        return made(*parts) + self.suffix

    # -- counting ------------------------------------------------------------------------------------------

    def project(self, gid: str, game: Game | None = None) -> bool:
        """Count the game (at its latest version, or ``game`` if given) if it is finished and not counted yet, and
        rate it if it is rated; True if it was counted now. Idempotent, in either step."""
        game = game or self.games.load(gid)
        result = game.result
        if game.status != "finished" or result is None:
            return False
        if result.get("termination") == "aborted":
            return False  # an aborted game counts for nothing (docs/api.md, Tables)
        if self.redis.sismember(self.keys[0], gid):
            return False
        users = candidate(game)
        is_rated = False
        if users is not None:  # rated before counted: a crash in between leaves it to count, never to rate
            is_rated = self._rate(game.meta["game"], Result(gid, finished_at(game, self.games.store), users,
                                                            list(game.accounts), list(result["winners"])))
        termination = result.get("termination") or "rules"
        args: list = [gid, game.meta["game"], game.version, 1 if is_rated else 0, termination]
        args += [1 if seat in result["winners"] else 0 for seat in range(game.seats)]
        return bool(self._count(keys=self.keys, args=args))

    def _rate(self, name: str, result: Result) -> bool:
        """Fold ``result`` into ``name``'s ratings in its place; whether it is rated. Written only if the ratings
        of ``name`` are still at the version read (``_write_fold``), else read and folded again
        (``services/store/optimistic.py``)."""
        def attempt() -> bool:
            version = self.redis.get(self.key(self.store_keys.ratings_version, name)) or b"0"
            known = self.redis.hget(self.key(self.store_keys.rated_results, name), result.gid)
            if known is not None:
                return bool(Result.load(result.gid, known).rated)
            later = self._results(name, result.at, "+inf", after=result.key)
            window = self._results(name, result.at - PAIR_WINDOW_MS, result.at, before=result.key)
            sequence = [result, *later]
            users = sorted({u for r in sequence for u in r.users})
            # Each user's history ends with its games of ``later`` that were rated: those entries are redone.
            drop = {u: sum(1 for r in later if r.rated and u in r.users) for u in users}
            standings = {u: self._before(name, u, drop[u]) for u in users}
            entries: dict[str, list[Standing]] = {u: [] for u in users}
            recent = [r for r in window if r.rated]
            for r in sequence:
                r.rated = not self._farmed(r, recent)
                r.changes = None
                if r.rated:
                    recent.append(r)
                    before = [standings[u] or Standing(n) for u, n in zip(r.users, r.names)]
                    after_game = play(before, r)
                    r.changes = [round(a.rating) - round(b.rating) for b, a in zip(before, after_game)]
                    for user, after in zip(r.users, after_game):
                        standings[user] = after
                        entries[user].append(after)
            if not self._write_fold(name, version, sequence, users, drop, standings, entries):
                raise Again
            return bool(result.rated)

        return retry(attempt, lambda: RuntimeError(f"the ratings of {name} changed {BUDGET} times while game "
                                                   f"{result.gid} was rated"))

    def _results(self, name: str, low: float | str, high: float | str, after=None, before=None) -> list[Result]:
        found = self.redis.zrangebyscore(self.key(self.store_keys.rated_order, name), low, high, withscores=True)
        pairs = [(int(score), member.decode()) for member, score in found]
        pairs = [p for p in pairs if (after is None or p > after) and (before is None or p < before)]
        if not pairs:
            return []
        raw = self.redis.hmget(self.key(self.store_keys.rated_results, name), [gid for _, gid in pairs])
        return [Result.load(gid, data) for (_, gid), data in zip(pairs, raw) if data is not None]

    def _before(self, name: str, user: str, drop: int) -> Standing | None:
        """The user's standing before the last ``drop`` entries of its history (None: no rated game before)."""
        tail = self.redis.lrange(self.key(self.store_keys.rating_history, name, user), -(drop + 1), -1)
        return Standing.load(tail[0]) if len(tail) > drop else None

    @staticmethod
    def _farmed(result: Result, recent: list[Result]) -> bool:
        """Whether two accounts of ``result`` played ``PAIR_CAP`` rated games together in the 24 hours before."""
        since = result.at - PAIR_WINDOW_MS
        for a, b in combinations(result.users, 2):
            together = sum(1 for r in recent
                           if r.at > since and r.key < result.key and a in r.users and b in r.users)
            if together >= PAIR_CAP:
                return True
        return False

    def _write_fold(self, name, version, sequence, users, drop, standings, entries) -> bool:
        k = self.store_keys
        keys = [self.key(k.ratings_version, name), self.key(k.rated_order, name), self.key(k.rated_results, name),
                self.key(k.ratings, name), self.ranking(name)]
        args: list = [version, len(sequence)]
        for r in sequence:
            args += [r.gid, r.at, r.dump()]
        args.append(len(users))
        for user in users:
            keys.append(self.key(self.store_keys.rating_history, name, user))
            current = standings[user]
            # The ranking holds every rated player: the settled by their rating, the provisional below them all.
            score = "" if current is None else current.rating - PROVISIONAL_BELOW * current.provisional
            args += [user, drop[user], current.dump() if current else "", score,
                     len(entries[user]), *(e.dump() for e in entries[user])]
        return bool(self._write(keys=keys, args=args))

    # -- reading -------------------------------------------------------------------------------------------

    def ranking(self, game: str) -> str:
        """The key of ``game``'s ranking: usernames by rating in a sorted set, so its top costs the same always."""
        return self.store_keys.ranking(game) + self.suffix

    def read(self, top: int = TOP) -> dict:
        """``{"games": {game: {finished, rated, draws, mean_events, wins_by_seat, terminations}}, "ratings": {game:
        leaderboard}}``: ``rated`` counts the rated games; ``terminations`` the finished games by
        ``result.termination`` (``{"rules": 7, "max_plies": 2, "resigned": 1}``); each game's ``top`` best
        non-provisional ratings (``leaderboard``). Counters and a ranking kept as games finish: its cost does not
        grow with the games or accounts stored."""
        stats: dict[str, dict] = {}
        for field_, value in self.redis.hgetall(self.keys[1]).items():
            game, _, what = field_.decode().partition(":")
            entry = stats.setdefault(game, {"finished": 0, "rated": 0, "draws": 0, "events": 0,
                                            "wins_by_seat": {}, "terminations": {}})
            if what.startswith("wins_by_seat:"):
                entry["wins_by_seat"][what.split(":")[1]] = int(value)
            elif what.startswith("termination:"):
                entry["terminations"][what.split(":")[1]] = int(value)
            else:
                entry[what] = int(value)
        for entry in stats.values():
            entry["mean_events"] = round(entry.pop("events") / entry["finished"], 1) if entry["finished"] else None
        ratings = {game: board for game in sorted(stats)
                   if (board := self.leaderboard(game, top, provisional=False))}
        return {"games": stats, "ratings": ratings}

    def of_player(self, username: str) -> tuple[dict, dict]:
        """An account's ratings by game (``Standing.shown``) and their histories (``[[ISO time, rating], …]``,
        the latest ``HISTORY_SHOWN`` points), for the games it has a rated game of."""
        user = username.lower()
        pipe = self.redis.pipeline(transaction=False)
        for game in GAME_NAMES:
            pipe.hget(self.key(self.store_keys.ratings, game), user)
            pipe.lrange(self.key(self.store_keys.rating_history, game, user), -HISTORY_SHOWN, -1)
        replies = pipe.execute()
        ratings, history = {}, {}
        for i, game in enumerate(GAME_NAMES):
            current, points = replies[2 * i], replies[2 * i + 1]
            if current is None:
                continue
            ratings[game] = Standing.load(current).shown()
            history[game] = [[iso_time(s.at), round(s.rating)] for s in map(Standing.load, points)]
        return ratings, history

    def rating_of(self, game: str, username: str) -> dict:
        """An account's rating of ``game`` as a game shows it by its name: ``{"rating", "rd", "provisional"}`` (the
        start of the scale, provisional, before its first rated game)."""
        raw = self.redis.hget(self.key(self.store_keys.ratings, game), username.lower())
        shown = Standing.load(raw).shown() if raw is not None else Standing(username).shown()
        return {k: shown[k] for k in ("rating", "rd", "provisional")}

    def leaderboard(self, game: str, top: int = TOP, provisional: bool = True) -> list[dict]:
        """``game``'s best ``top`` ratings: the settled ones first, ranked (``rank`` 1, 2, …), then (unless not
        ``provisional``) the provisional ones, best first, unranked (``rank`` null, ``provisional`` true): a new
        site's board is not empty for weeks."""
        best = self.redis.zrevrange(self.ranking(game), 0, top - 1)
        if not best:
            return []
        raw = self.redis.hmget(self.key(self.store_keys.ratings, game), best)
        rows = [Standing.load(r) for r in raw if r is not None]
        rows.sort(key=lambda s: (s.provisional, -s.rating, s.username.lower()))
        settled = [s for s in rows if not s.provisional]
        out = [{"rank": i, "username": s.username, **s.shown()} for i, s in enumerate(settled, 1)]
        if provisional:
            out += [{"rank": None, "username": s.username, **s.shown()} for s in rows if s.provisional]
        return out

    def changes(self, game: str, gid: str) -> list[int] | None:
        """Each seat's rating change in the finished game ``gid`` of ``game`` (+12 / -12), or None if it was not
        rated (or not yet: the ratings follow the game's end by a job)."""
        raw = self.redis.hget(self.key(self.store_keys.rated_results, game), gid)
        return Result.load(gid, raw).changes if raw is not None else None

    # -- rebuilding ----------------------------------------------------------------------------------------

    def _family(self, suffix: str) -> list[str]:
        """Every key of the statistics and ratings ending in ``suffix`` ("" : those in use)."""
        pattern = self.store_keys.stats("*")
        found = [k.decode() for k in self.redis.scan_iter(match=pattern, count=1000)]
        from services.reads.projections import REBUILDING

        if suffix:
            return [k for k in found if k.endswith(suffix)]
        return [k for k in found if not k.endswith(REBUILDING)]

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Recount every finished game, in the order they finished, into fresh keys, then switch over at once;
        returns the number of games counted. A game that fails is skipped and reported (``self.failures``). Games
        counted by the workers while it ran are counted again after the switch."""
        from services.reads.projections import REBUILDING, SWITCH

        fresh = Ratings(self.games, REBUILDING)
        stale = fresh._family(REBUILDING)
        if stale:
            self.redis.delete(*stale)
        store = self.games.store
        finished = []
        self.failures = []
        for gid in list(store.game_ids()):
            try:
                game = self.games.load(gid)
                if game.status != "finished":
                    continue
                finished.append((finished_at(game, store), gid))
            except Exception as exc:  # noqa: BLE001 - reported
                self.failures.append((gid, f"{type(exc).__name__}: {exc}"))
        counted = 0
        for i, (_, gid) in enumerate(sorted(finished), 1):
            try:
                fresh.project(gid)
                counted += 1
            except Exception as exc:  # noqa: BLE001 - reported; the ratings in use stay until the switch
                self.failures.append((gid, f"{type(exc).__name__}: {exc}"))
            if progress:
                progress(i, len(finished))
        before = {m.decode() for m in self.redis.smembers(self.keys[0])}
        new = fresh._family(REBUILDING)
        live = [k[: -len(REBUILDING)] for k in new]
        gone = [k for k in self._family("") if k not in set(live)]
        self.redis.register_script(SWITCH)(keys=[*new, *(k + REBUILDING for k in gone), *live, *gone])
        for gid in before - {m.decode() for m in self.redis.smembers(self.keys[0])} - {g for _, g in finished}:
            self.project(gid)  # finished while the rebuild ran: counted in the keys just replaced
        return counted
