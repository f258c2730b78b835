"""A tournament's document (``GET /api/tournaments/<id>``, its stream) and its line in the lists, from its
state."""

from __future__ import annotations

from domain.tournaments.state import Tournament
from services.store.codec import iso_time


def _time(ms: int | None) -> str | None:
    return None if ms is None else iso_time(ms)


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 2)


def document(state: Tournament) -> dict:
    """docs/api.md "Tournaments": the settings, the standings with their tie-breaks, every round's tables."""
    c = state.created
    standings = [{"rank": s.rank, "username": s.username, "score": _number(s.score),
                  "tiebreaks": {"buchholz": _number(s.buchholz), "sonneborn_berger": _number(s.sonneborn_berger)},
                  "games": s.games, "withdrawn": s.username in state.withdrawn}
                 for s in state.standings()]
    pairings = []
    for r in state.rounds:
        tables = []
        for t in r.tables:
            result = None
            if t.points is not None:
                result = {"points": [_number(p) for p in t.points], "by": {"game": "play"}.get(t.kind, t.kind)}
            tables.append({"game": t.game, "players": list(t.players), "result": result})
        pairings.append({"round": r.number, "tables": tables})
    return {"id": state.id, "title": c.title, "game": c.game, "system": c.system, "status": state.status,
            "round": len(state.rounds), "rounds": state.total_rounds, "version": state.version,
            "creator": c.creator, "clock": c.clock, "options": c.options, "table_size": c.table_size,
            "max_players": c.max_players, "minutes": c.minutes or None,
            "starts_at": _time(c.starts_at), "started_at": _time(state.started), "ends_at": _time(state.ends_at),
            "ended_at": _time(state.ended), "end_reason": state.end_reason,
            "players": list(state.players), "withdrawn": sorted(state.withdrawn),
            "standings": standings, "pairings": pairings}


def line(state: Tournament) -> dict:
    """The tournament in the lists: ``{"id", "title", "game", "system", "status", "players", "starts_at"}``."""
    c = state.created
    return {"id": state.id, "title": c.title, "game": c.game, "system": c.system, "status": state.status,
            "players": len(state.players) - len(state.withdrawn), "starts_at": _time(c.starts_at),
            "started_at": _time(state.started), "rounds": state.total_rounds, "minutes": c.minutes or None,
            "table_size": c.table_size, "creator": c.creator}
