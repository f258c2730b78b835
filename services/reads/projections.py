"""Read models: each game's per-viewer documents, and the lobby. Idempotent: a job only pokes.

A projection reads the game's latest state (cached state + tail) and writes its documents and checkpoint in one
script that refuses to go backwards, so running a job twice, out of order or after a crash changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from services.games.states import Game, States
from services.reads.views import SPECTATOR, all_documents, lobby_entry
from services.scripts import lua

WRITE_VIEW = lua("write_view")

# KEYS: the lobby hash (gid → line), its versions (gid → version), then the sorted sets (gid by update time) of
# every game, of each status and of games with an open seat. ARGV: gid, version, line, updated ms, status, open.
WRITE_LOBBY = lua("write_lobby")

LOBBY_SETS = ("all", "setup", "playing", "finished", "open")
REBUILDING = ":rebuilding"  # the suffix of the keys a rebuild writes before it switches over

# KEYS: n fresh keys, then the n keys in use (same slots). Each fresh key replaces its key in use (an absent one
# deletes it): a whole projection switches at once.
SWITCH = lua("switch_keys")

# KEYS: fresh view, fresh checkpoint, view, checkpoint. The fresh view replaces the view unless a worker has
# projected a later version meanwhile.
SWITCH_VIEW = lua("switch_view")
PAGE_SLACK = 50  # lines with the cursor's own update time read past it, at most (a page's ties)

PROJECTIONS = ("games", "lobby")


class Projector:
    """Writes and reads the projections of one store."""

    def __init__(self, games: States):
        self.games = games
        self.store = games.store
        self.keys = games.store.keys
        redis = games.store.redis
        self._write_view = redis.register_script(WRITE_VIEW)
        self._write_lobby = redis.register_script(WRITE_LOBBY)
        self._switch = redis.register_script(SWITCH)
        self._switch_view = redis.register_script(SWITCH_VIEW)
        self.failures: list[tuple[str, str]] = []

    def project_game(self, gid: str, suffix: str = "", game: Game | None = None) -> int:
        """Bring the game's view up to its latest version, or to ``game`` if given (just loaded), in keys ending in
        ``suffix``; returns the version."""
        game = game or self.games.load(gid)
        docs = all_documents(game)
        self._write_view(keys=[self.keys.view(gid) + suffix, self.keys.ckpt(gid) + suffix],
                         args=[game.version, json.dumps({"version": game.version, "docs": docs})])
        return game.version

    def project_lobby(self, gid: str, suffix: str = "", game: Game | None = None) -> int:
        """Bring the game's lobby line up to its latest version, or to ``game`` if given (in the lobby keys ending
        in ``suffix``)."""
        game = game or self.games.load(gid)
        last = next(self.store.read(gid, after=game.version - 1, to=game.version), None)
        updated = last.at if last else game.meta["created"]
        entry = lobby_entry(game, updated)
        self._write_lobby(keys=self.lobby_keys(self.keys.partition(gid), suffix),
                          args=[gid, game.version, json.dumps(entry), updated, entry["status"],
                                1 if entry.get("open_seats") else 0])
        return game.version

    def project_many(self, gids: list[str]) -> dict[str, Game | Exception]:
        """Bring the views and lobby lines of ``gids`` up to date, as ``project_game`` and ``project_lobby`` do
        one game at a time, but with their tails read in one round trip and their documents written in one
        more; each game as projected, or the error that stopped it (the others go on)."""
        out: dict[str, Game | Exception] = {}
        writes = []
        for gid, loaded in self.games.load_many(gids).items():
            if isinstance(loaded, Exception):
                out[gid] = loaded
                continue
            game, updated = loaded
            try:
                docs = json.dumps({"version": game.version, "docs": all_documents(game)})
                entry = lobby_entry(game, updated)
            except Exception as exc:  # noqa: BLE001 - this game's error; the others go on
                out[gid] = exc
                continue
            view = {"keys": [self.keys.view(gid), self.keys.ckpt(gid)], "args": [game.version, docs]}
            lobby = {"keys": self.lobby_keys(self.keys.partition(gid)),
                     "args": [gid, game.version, json.dumps(entry), updated, entry["status"],
                              1 if entry.get("open_seats") else 0]}
            writes.append((game, view, lobby))
        pipe = self.store.writer()
        for game, view, lobby in writes:
            if pipe is None:
                try:
                    self._write_view(**view)
                    self._write_lobby(**lobby)
                except Exception as exc:  # noqa: BLE001 - this game's error; the others go on
                    out[game.gid] = exc
                    continue
                out[game.gid] = game
            else:
                self._write_view(**view, client=pipe)
                self._write_lobby(**lobby, client=pipe)
        if pipe is not None and writes:
            replies = pipe.execute(raise_on_error=False)
            for i, (game, _, _) in enumerate(writes):
                failed = [r for r in replies[2 * i:2 * i + 2] if isinstance(r, Exception)]
                out[game.gid] = failed[0] if failed else game
        return out

    def lobby_keys(self, partition: int, suffix: str = "") -> list[str]:
        """A partition's lobby: its hash of lines, their versions, and a sorted set per ``LOBBY_SETS``."""
        keys = self.keys
        return [keys.lobby(partition, suffix), keys.lobby_versions(partition, suffix),
                *(keys.lobby_index(partition, name, suffix) for name in LOBBY_SETS)]

    def checkpoint(self, gid: str) -> int:
        return int(self.store.redis.get(self.keys.ckpt(gid)) or 0)

    def projected(self, gid: str) -> int:
        """The version that both of the game's projections, its view and its lobby line, have reached."""
        line = self.store.redis.hget(self.keys.lobby_versions(self.keys.partition(gid)), gid)
        return min(self.checkpoint(gid), int(line or 0))

    def projected_many(self, gids: list[str]) -> dict[str, int]:
        """``projected`` for several games, in one round trip (one read after another on a cluster)."""
        pipe = self.store.writer()  # a plain pipeline: these reads go in one go too
        if pipe is None:
            return {gid: self.projected(gid) for gid in gids}
        for gid in gids:
            pipe.get(self.keys.ckpt(gid))
            pipe.hget(self.keys.lobby_versions(self.keys.partition(gid)), gid)
        replies = pipe.execute()
        return {gid: min(int(replies[2 * i] or 0), int(replies[2 * i + 1] or 0)) for i, gid in enumerate(gids)}

    def stored(self, gid: str) -> dict | None:
        """The game's projected view as stored, ``{"version", "docs": {viewer: document}}``, or None."""
        raw = self.store.redis.get(self.keys.view(gid))
        return None if raw is None else json.loads(raw)

    def read(self, gid: str, seat: int | None) -> dict | None:
        """The projected document for ``seat`` (None: spectator), or None if not projected yet."""
        stored = self.stored(gid)
        if stored is None:
            return None
        return stored["docs"].get(SPECTATOR if seat is None else str(seat))

    def lobby(self, status: str | None = None, limit: int = 200) -> list[dict]:
        """The first ``limit`` lobby lines, most recently updated first (``page`` without the cursor)."""
        return self.page(status, limit)[0]

    def page(self, status: str | None = None, limit: int = 50,
             cursor: str | None = None) -> tuple[list[dict], str | None]:
        """A page of lobby lines, most recently updated first, from ``cursor`` on; and the next page's cursor.

        Each partition keeps its games in sorted sets by update time (all, per status, with an open seat): a page
        reads ``limit`` (+ a few) members of each partition's set and then their lines, so its cost does not grow
        with the number of games stored. A cursor is ``"<updated ms>.<gid>"`` of the last line of a page."""
        name = status or "all"
        top, after_gid = "+inf", None
        if cursor is not None:
            at, _, after_gid = cursor.partition(".")
            top = at
        picked: list[tuple[float, str, int]] = []
        for p in range(self.keys.partitions):
            zset = self.lobby_keys(p)[2 + LOBBY_SETS.index(name)]
            slack = PAGE_SLACK if after_gid else 0
            members = self.store.redis.zrevrangebyscore(zset, top, "-inf", start=0, num=limit + 1 + slack,
                                                        withscores=True)
            for member, score in members:
                gid = member.decode()
                if after_gid is not None and str(int(score)) == top and gid >= after_gid:
                    continue
                picked.append((score, gid, p))
        picked.sort(key=lambda item: (item[0], item[1]), reverse=True)
        more = len(picked) > limit
        picked = picked[:limit]
        by_partition: dict[int, list[str]] = {}
        for _, gid, p in picked:
            by_partition.setdefault(p, []).append(gid)
        found = {}
        for p, gids in by_partition.items():
            found.update(zip(gids, self.store.redis.hmget(self.keys.lobby(p), gids), strict=True))
        lines = [json.loads(found[gid]) for _, gid, _ in picked if found.get(gid) is not None]
        next_cursor = f"{int(picked[-1][0])}.{picked[-1][1]}" if more and picked else None
        return lines, next_cursor

    def rebuild(self, projections: tuple[str, ...] = PROJECTIONS,
                progress: Callable[[int, int], None] | None = None) -> int:
        """Rebuild projections from the event streams into fresh keys, then switch over; returns the number of
        games rebuilt. The projections in use stay as they are until every game has been tried: a game that fails
        is skipped (``self.failures``: ``(gid, reason)``) and keeps its old view. A game's view written meanwhile
        by a worker is kept if it is newer; lobby lines left behind by moves made meanwhile are projected again."""
        self.failures: list[tuple[str, str]] = []
        for p in range(self.keys.partitions):
            self.store.redis.delete(*self.lobby_keys(p, REBUILDING))
        gids = sorted(self.store.game_ids())
        done = []
        for i, gid in enumerate(gids, 1):
            try:
                if "games" in projections:
                    self.project_game(gid, REBUILDING)
                if "lobby" in projections:
                    self.project_lobby(gid, REBUILDING)
                done.append(gid)
            except Exception as exc:  # noqa: BLE001 - reported, and the game keeps its old projections
                self.failures.append((gid, f"{type(exc).__name__}: {exc}"))
                self.store.redis.delete(self.keys.view(gid) + REBUILDING, self.keys.ckpt(gid) + REBUILDING)
            if progress:
                progress(i, len(gids))
        if "games" in projections:
            for gid in done:
                view, ckpt = self.keys.view(gid), self.keys.ckpt(gid)
                self._switch_view(keys=[view + REBUILDING, ckpt + REBUILDING, view, ckpt])
        if "lobby" in projections:
            for p in range(self.keys.partitions):
                self._switch(keys=[*self.lobby_keys(p, REBUILDING), *self.lobby_keys(p)])
            for gid in done:  # moves made during the rebuild
                line = self.store.redis.hget(self.keys.lobby_of(gid) + "v", gid)
                if int(line or 0) < self.store.version(gid):
                    self.project_lobby(gid)
        return len(done)
