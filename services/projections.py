"""Read models: each game's per-viewer documents, and the lobby. Idempotent: a job only pokes.

A projection reads the game's latest state (cached state + tail) and writes its documents and checkpoint in one
script that refuses to go backwards, so running a job twice, out of order or after a crash changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from services.games import GameService
from services.views import SPECTATOR, all_documents, lobby_entry

WRITE_VIEW = """
local current = tonumber(redis.call('GET', KEYS[2]) or '0')
local version = tonumber(ARGV[1])
if version <= current then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
return 1
"""

WRITE_LOBBY = """
local current = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local version = tonumber(ARGV[2])
if version <= current then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""

PROJECTIONS = ("games", "lobby")


class Projector:
    """Writes and reads the projections of one store."""

    def __init__(self, service: GameService):
        self.service = service
        self.store = service.store
        self.keys = service.store.keys
        redis = service.store.redis
        self._write_view = redis.register_script(WRITE_VIEW)
        self._write_lobby = redis.register_script(WRITE_LOBBY)

    def project_game(self, gid: str) -> int:
        """Bring the game's view up to its latest version; returns the projected version."""
        game = self.service.load(gid)
        docs = all_documents(game)
        self._write_view(keys=[self.keys.view(gid), self.keys.ckpt(gid)],
                         args=[game.version, json.dumps({"version": game.version, "docs": docs})])
        return game.version

    def project_lobby(self, gid: str) -> int:
        """Bring the game's lobby line up to its latest version."""
        game = self.service.load(gid)
        last = next(self.store.read(gid, after=game.version - 1, to=game.version), None)
        entry = lobby_entry(game, last.at if last else game.meta["created"])
        lobby = self.keys.lobby_of(gid)
        self._write_lobby(keys=[lobby, lobby + "v"], args=[gid, game.version, json.dumps(entry)])
        return game.version

    def checkpoint(self, gid: str) -> int:
        return int(self.store.redis.get(self.keys.ckpt(gid)) or 0)

    def projected(self, gid: str) -> int:
        """The version that both of the game's projections, its view and its lobby line, have reached."""
        line = self.store.redis.hget(self.keys.lobby_of(gid) + "v", gid)
        return min(self.checkpoint(gid), int(line or 0))

    def read(self, gid: str, seat: int | None) -> dict | None:
        """The projected document for ``seat`` (None: spectator), or None if not projected yet."""
        raw = self.store.redis.get(self.keys.view(gid))
        if raw is None:
            return None
        docs = json.loads(raw)["docs"]
        return docs.get(SPECTATOR if seat is None else str(seat))

    def lobby(self, status: str | None = None, limit: int = 200) -> list[dict]:
        """Lobby lines of every partition, most recently updated first."""
        entries = []
        for p in range(self.keys.partitions):
            for raw in self.store.redis.hvals(self.keys.lobby(p)):
                entry = json.loads(raw)
                if status is None or entry["status"] == status or (status == "open" and entry.get("open_seats")):
                    entries.append(entry)
        entries.sort(key=lambda e: e["updated"], reverse=True)
        return entries[:limit]

    def drop(self, projection: str) -> None:
        """Delete a projection's keys, before a rebuild."""
        redis = self.store.redis
        if projection == "lobby":
            for p in range(self.keys.partitions):
                redis.delete(self.keys.lobby(p), self.keys.lobby(p) + "v")
            return
        for gid in self.store.game_ids():
            redis.delete(self.keys.view(gid), self.keys.ckpt(gid))

    def rebuild(self, projections: tuple[str, ...] = PROJECTIONS,
                progress: Callable[[int, int], None] | None = None) -> int:
        """Drop and rebuild projections from the event streams; returns the number of games."""
        for name in projections:
            self.drop(name)
        gids = sorted(self.store.game_ids())
        for i, gid in enumerate(gids, 1):
            if "games" in projections:
                self.project_game(gid)
            if "lobby" in projections:
                self.project_lobby(gid)
            if progress:
                progress(i, len(gids))
        return len(gids)
