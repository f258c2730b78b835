"""The statistics and ratings read model: per game, how games end, and an Elo rating per player name.

Players have no accounts: a rating belongs to a name, per game. A finished game is counted once (the script
records its id in the same transaction as the counts), so running a job twice changes nothing. Elo depends on
the order of games; a rebuild counts them in the order they finished.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.registry import GAME_NAMES
from services.bounds import AI_SUFFIX
from services.games.fairness import chosen_by_client
from services.games.states import Game, States
from services.scripts import lua

K_FACTOR = 32
START_RATING = 1500
TOP = 100  # ratings shown per game by /api/stats


def rating_name(name: str, ai: str | None) -> str:
    """The name a rating belongs to: a person's name, or ``"<name> (<level> AI)"`` for an AI. A person's name never
    ends like an AI's (``services/names.py`` refuses it), so the two never share a rating."""
    if ai:
        return f"{name} ({ai} AI)"
    return f"{name} (person)" if AI_SUFFIX.search(name) else name  # a person so named before names were checked


def rated(game) -> bool:
    """Whether a finished game changes ratings: not when its creator chose the seed or hidden parts of the position
    (``services/fairness.py``), nor when a seat never moved (finished at birth, or resigned before a first move).
    Aborted games count for nothing at all."""
    if chosen_by_client(game.meta):
        return False
    moved = getattr(game.state, "moved", None)
    return moved is None or len(moved) >= game.seats

# KEYS: counted set, stats hash, ratings hash, games-per-name hash, the game's ranking (zset name → rating).
# ARGV: gid, game, length (events), start rating, K, rated (1/0), the result's termination, then name, score pairs
# (1 for a winner, else 0).
COUNT_GAME = lua("count_game")


class Ratings:
    """Counts finished games into per-game statistics and Elo ratings by player name."""

    def __init__(self, games: States, suffix: str = ""):
        self.games = games
        self.redis = games.store.redis
        self.store_keys = games.store.keys
        self.suffix = suffix  # a rebuild counts into keys of its own, then switches over
        self.keys = [self.store_keys.stats(name) + suffix for name in ("counted", "stats", "ratings", "played")]
        self._count = self.redis.register_script(COUNT_GAME)
        self.failures: list[tuple[str, str]] = []

    def project(self, gid: str, game: Game | None = None) -> bool:
        """Count the game (at its latest version, or ``game`` if given) if it is finished and not counted yet; True
        if it was counted now."""
        game = game or self.games.load(gid)
        result = game.module.result(game.state)
        if game.module.status(game.state) != "finished" or result is None:
            return False
        if result.get("termination") == "aborted":
            return False  # an aborted game counts for nothing (CONTRACT.md, Tables)
        args: list = [gid, game.meta["game"], game.version, START_RATING, K_FACTOR, 1 if rated(game) else 0,
                      result.get("termination") or "rules"]
        for seat, player in enumerate(game.meta["players"]):
            args += [rating_name(game.names[seat], player.get("ai")), 1 if seat in result["winners"] else 0]
        return bool(self._count(keys=[*self.keys, self.ranking(game.meta["game"])], args=args))

    def ranking(self, game: str) -> str:
        """The key of ``game``'s ranking: names by rating in a sorted set, so its top costs the same always."""
        return self.store_keys.ranking(game) + self.suffix

    def all_keys(self) -> list[str]:
        return [*self.keys, *(self.ranking(game) for game in GAME_NAMES)]

    def read(self, top: int = TOP) -> dict:
        """``{"games": {game: {finished, rated, draws, mean_events, wins_by_seat, terminations}}, "ratings": {game:
        [{name, rating, games}]}}``: each game's ``top`` best ratings; ``terminations`` counts the finished games
        by ``result.termination`` (``{"rules": 7, "max_plies": 2, "resigned": 1}``): a turn-limit draw is told
        from a real one without reading the reason. Its cost does not grow with the games or names
        stored: the statistics are counters kept as games finish, the ratings a sorted set read by rank."""
        stats: dict[str, dict] = {}
        for field, value in self.redis.hgetall(self.keys[1]).items():
            game, _, what = field.decode().partition(":")
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
        ratings: dict[str, list] = {}
        for game in sorted(stats):
            best = self.redis.zrevrange(self.ranking(game), 0, top - 1, withscores=True)
            if not best:
                continue
            played = self.redis.hmget(self.keys[3], [f"{game}:{name.decode()}" for name, _ in best])
            table = [{"name": name.decode(), "rating": round(score), "games": int(n or 0)}
                     for (name, score), n in zip(best, played, strict=True)]
            table.sort(key=lambda r: (-r["rating"], r["name"]))
            ratings[game] = table
        return {"games": stats, "ratings": ratings}

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Recount every finished game, in the order they finished, into fresh keys, then switch over at once;
        returns the number of games counted. A game that fails is skipped and reported (``self.failures``)."""
        from services.reads.projections import REBUILDING, SWITCH

        fresh = Ratings(self.games, REBUILDING)
        self.redis.delete(*fresh.all_keys())
        store = self.games.store
        finished = []
        self.failures = []
        for gid in list(store.game_ids()):
            try:
                last = store.version(gid)
                tail = next(store.read(gid, after=last - 1), None)
            except Exception as exc:  # noqa: BLE001 - reported
                self.failures.append((gid, f"{type(exc).__name__}: {exc}"))
                continue
            finished.append((tail.at if tail else 0, gid))
        counted = 0
        for i, (_, gid) in enumerate(sorted(finished), 1):
            try:
                fresh.project(gid)
                counted += 1
            except Exception as exc:  # noqa: BLE001 - reported; the ratings in use stay until the switch
                self.failures.append((gid, f"{type(exc).__name__}: {exc}"))
            if progress:
                progress(i, len(finished))
        self.redis.register_script(SWITCH)(keys=[*fresh.all_keys(), *self.all_keys()])
        return counted
