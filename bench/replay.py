"""Rebuilding games from their events (decode + fold), against the ``eventsourcing`` library, in one run.

    python bench/replay.py [--quick] [--games 30] [--rebuild 10000]

The same randomly played games (every game available, ``harness.random_game``) are stored four ways and rebuilt:

* **burrow fold** — ``codec.decode`` (msgpack → event struct) and the game's ``evolve``, from bytes in memory:
  the floor of any replay.
* **burrow Redis** — ``States.load`` on a fresh service and store (nothing cached) over a private
  redis-server: metadata, ``XRANGE`` in batches of 1000, decode, fold (what ``burrow replay`` and a cold command
  do).
* **eventsourcing POPO / SQLite** — an ``eventsourcing`` ``Aggregate`` whose one event method folds the same
  ``evolve`` over the same events (stored by the library's JSON transcoder as type + data; the method converts
  the data back to the game's event struct with msgspec), saved by an ``Application`` with the in-memory (POPO)
  recorder and with the SQLite recorder on a file, rebuilt with ``repository.get``. No snapshots on either side.

"same states" checks that every way rebuilt the same game states: the game's own state inside the service's
``TableState`` (it loads every game with the table around it) and the states of both eventsourcing applications,
each equal to the bare fold's. Then ``burrow rebuild`` (both projections) runs as a subprocess over ``--rebuild``
games stored on a fresh redis-server, timed from outside; it must make a view and a lobby line for every game.
Mouse Guard games played at random run to thousands of events, so the games for that run are cut at 400 events
each (a lobby of games in progress and finished ones). The script exits 1, naming what failed, when a check fails.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Union

import harness
import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from harness import RedisServer, Timer, ratio, table

from domain.base import event_data, event_type
from domain.registry import game_module
from services.store import codec

REBUILD_EVENTS_CAP = 400


def generate(names: tuple[str, ...], per_game: int, seed: int = 1, max_plies: int = 2000) -> dict[str, list]:
    """Per game name, ``per_game`` random games as (seats, events)."""
    rng = random.Random(seed)
    return {name: [harness.random_game(name, rng, max_plies)[:2] for _ in range(per_game)] for name in names}


def fold(module, encoded: list[bytes]) -> Any:
    state = None
    for data in encoded:
        state = module.evolve(state, codec.decode(module, data))
    return state


def fold_all(module, encoded: list[list[bytes]]) -> None:
    for data in encoded:
        fold(module, data)


def load_cold(store, gids: list[str]) -> None:
    """``States.load`` of every game on a fresh store: nothing cached, metadata included."""
    from services.games.states import States
    from services.store.streams import EventStore

    games = States(EventStore(store.redis, store.keys))
    for gid in gids:
        games.load(gid)


def get_all(app, ids: list) -> None:
    for aggregate_id in ids:
        app.repository.get(aggregate_id)


def timed(min_seconds: float, works: dict[str, tuple], min_rounds: int = 3,
          max_rounds: int = 50) -> dict[str, float]:
    """Seconds per round of each ``works[key] = (work, *args)``, the median of rounds taken in alternation (one of
    each in turn) until each way has run ``min_seconds`` and at least ``min_rounds`` rounds: a load that comes and
    goes on a shared machine then falls on every way alike, and the ratios of one run hold."""
    rounds: dict[str, list[float]] = {key: [] for key in works}
    while True:
        for key, (work, *args) in works.items():
            started = time.perf_counter()
            work(*args)
            rounds[key].append(time.perf_counter() - started)
        done = len(next(iter(rounds.values())))
        if done >= max_rounds or (done >= min_rounds and min(map(sum, rounds.values())) >= min_seconds):
            return {key: statistics.median(times) for key, times in rounds.items()}


# -- the eventsourcing side -------------------------------------------------------------------------------------

_union_of: dict[str, Any] = {}


def _event_type_of(game: str) -> Any:
    """The msgspec type of every event of ``game`` (cached, as ``codec`` caches its decoders)."""
    if game not in _union_of:
        events = tuple(game_module(game).EVENTS)
        _union_of[game] = Union[events] if len(events) > 1 else events[0]  # noqa: UP007
    return _union_of[game]


class PlayedGame(Aggregate):
    """One game for ``eventsourcing``: its events folded with the game's own ``evolve``."""

    @event("Created")
    def __init__(self, game: str):
        self.game = game
        self.state = None

    @event("Happened")
    def happen(self, type: str, data: dict) -> None:
        module = game_module(self.game)
        self.state = module.evolve(self.state, msgspec.convert({"type": type, **data}, _event_type_of(self.game)))


class Games(Application):
    """The ``eventsourcing`` application that stores and rebuilds ``PlayedGame`` aggregates."""


def eventsourcing_app(persistence: str, directory: str) -> Games:
    """An ``eventsourcing`` application over ``persistence`` ("popo", or "sqlite" on a file in ``directory``)."""
    env = {"PERSISTENCE_MODULE": f"eventsourcing.{persistence}"}
    if persistence == "sqlite":
        env["SQLITE_DBNAME"] = os.path.join(directory, "events.sqlite")
    return Games(env=env)


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=30, help="random games per game type")
    p.add_argument("--rebuild", type=int, default=10_000, help="games for the 'burrow rebuild' run (0: skip)")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="minimum time per way and game (rounds of the four ways in alternation, at least 3)")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.rebuild, args.seconds = 1, min(args.rebuild, 10), 0.02
    names = harness.games_available()
    harness.header("Replay: decode + fold, burrow vs eventsourcing", argv)
    games = generate(names, args.games)
    tmp = tempfile.TemporaryDirectory(prefix="burrow-bench-es-")
    rows, store_rows = [], []
    totals: dict[str, float] = {}
    with RedisServer() as server:
        rt = harness.runtime_for(server)
        from services.games.states import States
        from services.store.streams import new_game_id

        es = {kind: eventsourcing_app(kind, tmp.name) for kind in ("popo", "sqlite")}
        write_time = {"burrow Redis": 0.0, "eventsourcing POPO": 0.0, "eventsourcing SQLite": 0.0}
        all_events = 0
        differ: list[str] = []
        for name in names:
            module = game_module(name)
            played = games[name]
            events = sum(len(evs) for _, evs in played)
            all_events += events
            encoded = [[codec.encode(e)[1] for e in evs] for _, evs in played]
            gids = []
            with Timer() as t:
                for seats, evs in played:
                    gid = new_game_id()
                    harness.store_game(rt.store, gid, name, seats, evs)
                    gids.append(gid)
            write_time["burrow Redis"] += t.seconds
            es_ids = {}
            for kind, app in es.items():
                ids = []
                for _, evs in played:
                    agg = PlayedGame(game=name)
                    for e in evs:
                        agg.happen(type=event_type(e), data=event_data(e))
                    with Timer() as t:  # the save alone: transcoding and recording the pending events
                        app.save(agg)
                    write_time["eventsourcing POPO" if kind == "popo" else "eventsourcing SQLite"] += t.seconds
                    ids.append(agg.id)
                es_ids[kind] = ids

            # Like with like: the service loads a game with the table around it (``TableState``), whose ``game``
            # is the game's own state; the bare fold and eventsourcing fold the game's ``evolve`` alone.
            reference = [fold(module, enc) for enc in encoded]
            loaded = [States(rt.store).load(g).state.game for g in gids]
            same = loaded == reference
            for kind, app in es.items():
                same &= [app.repository.get(i).state for i in es_ids[kind]] == reference
            if not same:
                differ.append(name)
            seconds = timed(args.seconds, {
                "burrow fold": (fold_all, module, encoded),
                "burrow Redis": (load_cold, rt.store, gids),
                "eventsourcing POPO": (get_all, es["popo"], es_ids["popo"]),
                "eventsourcing SQLite": (get_all, es["sqlite"], es_ids["sqlite"]),
            }, min_rounds=1 if args.quick else 3)
            for key, value in seconds.items():
                totals[key] = totals.get(key, 0.0) + value
            rates = {key: events / value for key, value in seconds.items()}
            rows.append([name, len(played), events, rates["burrow fold"], rates["burrow Redis"],
                         rates["eventsourcing POPO"], rates["eventsourcing SQLite"],
                         ratio(rates["burrow Redis"], rates["eventsourcing POPO"]),
                         ratio(rates["burrow Redis"], rates["eventsourcing SQLite"]), "yes" if same else "NO"])
        rates = {key: all_events / value for key, value in totals.items()}
        rows.append(["all", sum(len(g) for g in games.values()), all_events, rates["burrow fold"],
                     rates["burrow Redis"], rates["eventsourcing POPO"], rates["eventsourcing SQLite"],
                     ratio(rates["burrow Redis"], rates["eventsourcing POPO"]),
                     ratio(rates["burrow Redis"], rates["eventsourcing SQLite"]), ""])
        table(["game", "games", "events", "burrow fold ev/s", "burrow Redis ev/s", "es POPO ev/s",
               "es SQLite ev/s", "Redis vs POPO", "Redis vs SQLite", "same states"], rows,
              title="Replay: events per second rebuilding every game from its events (higher is better)")
        reference_write = all_events / write_time["eventsourcing POPO"]
        for key, value in write_time.items():
            store_rows.append([key, all_events, all_events / value, ratio(all_events / value, reference_write)])
        table(["store", "events", "events stored/s", "vs es POPO"], store_rows,
              title="Storing the same events: burrow encodes and appends (Lua, 500 events a call), eventsourcing "
                    "saves (transcodes and records) each game's pending events")
    tmp.cleanup()
    failed = [f"the replayed states differ from the reference fold for {', '.join(differ)}"] if differ else []
    if args.rebuild:
        failed += rebuild(games, args.rebuild)
    for failure in failed:
        print(f"replay: {failure}", file=sys.stderr)
    return 1 if failed else 0


def rebuild(games: dict[str, list], count: int) -> list[str]:
    """Time ``burrow rebuild`` over ``count`` games (the generated ones, reused under new ids, each cut at
    ``REBUILD_EVENTS_CAP`` events); what went wrong (empty: it rebuilt a view and a lobby line for every game)."""
    from services.store.streams import new_game_id

    pool = [(name, seats, events[:REBUILD_EVENTS_CAP]) for name, played in games.items()
            for seats, events in played]
    with RedisServer() as server:
        rt = harness.runtime_for(server)
        events = 0
        with Timer() as fill:
            for i in range(count):
                name, seats, evs = pool[i % len(pool)]
                harness.store_game(rt.store, new_game_id(), name, seats, evs)
                events += len(evs)
        env = {**os.environ, "REDIS_URL": server.url(0), "RQ_URL": server.url(1), "BURROW_PREFIX": "bench"}
        with Timer() as run:
            done = subprocess.run([sys.executable, "-m", "burrow.cli", "rebuild"], cwd=harness.ROOT, env=env,
                                  capture_output=True, text=True, timeout=1800, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"burrow rebuild failed: {done.stderr[-2000:]}")
        projected = sum(1 for _ in rt.redis.scan_iter(match="bench:{p*}:ckpt:*", count=1000))
        lobby = rt.redis.hlen(rt.store.keys.lobby(0))
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    table(["games", "events", "stored in s", "burrow rebuild s", "games/s", "events/s", "views", "lobby lines"],
          [[count, events, fill.seconds, run.seconds, count / run.seconds, events / run.seconds, projected,
            lobby]],
          title=f"burrow rebuild (games + lobby) over {count:,} games, as a subprocess (its own words: {last!r})")
    return [f"burrow rebuild made {what} for {made:,} of {count:,} games"
            for what, made in (("views", projected), ("lobby lines", lobby)) if made != count]


if __name__ == "__main__":
    sys.exit(main())
