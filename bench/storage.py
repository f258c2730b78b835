"""What storage costs: bytes per event in Redis, msgpack (stored now) against JSON, and bytes per finished game.

    python bench/storage.py [--quick] [--games 12] [--max-commands 3000]

Games are played to their end with random legal commands through ``GameService.command`` (with a command id, as
the browser sends one) on a private redis-server, then projected (view + lobby line), so every key a real game
leaves behind is there. Each game's events are then written a second time, to a twin stream in the same shape
(same IDs and fields) with ``data`` encoded as JSON (``msgspec.json``) instead of msgpack. Sizes are Redis's own
``MEMORY USAGE key SAMPLES 0`` (every entry counted); the partition log's size is shared out per event.
"""

from __future__ import annotations

import random
import sys
import uuid

import harness
import msgspec
from harness import RedisServer, ratio, table

from domain import base
from domain.registry import game_module
from services.store import codec


def memory(client, key: str) -> int:
    return int(client.memory_usage(key, samples=0) or 0)


def play_to_end(rt, name: str, rng: random.Random, max_commands: int) -> tuple[str, int]:
    """A game of ``name`` played to its end (or ``max_commands``) through the service; (gid, commands)."""
    module = game_module(name)
    seats = rng.randint(*module.SEATS)
    players = [{"name": f"Player {i + 1}"} for i in range(seats)]
    gid = rt.service.create(name, players, seed=rng.randrange(1 << 30))["id"]
    commands = 0
    while commands < max_commands:
        game = rt.games.load(gid)  # game.rules: the game under its table (seats, resignations, clocks)
        if game.status == "finished":
            break
        seat = rng.choice(game.to_act)
        move = rng.choice(base.commands(game.legal(seat)))
        rt.service.command(gid, seat, move, expected_version=game.version, command_id=uuid.uuid4().hex)
        commands += 1
    rt.projector.project_game(gid)
    rt.projector.project_lobby(gid)
    return gid, commands


def json_twin(rt, gid: str, module) -> tuple[str, int, int, int]:
    """Write the game's events again with JSON data; (twin key, events, msgpack payload bytes, JSON bytes)."""
    source, twin = rt.store.keys.game(gid), rt.store.keys.game(gid) + ":json"
    pipe = rt.redis.pipeline(transaction=False)
    events = packed = text = 0
    for entry_id, fields in rt.redis.xrange(source):
        event = codec.decode(module, fields[b"data"])
        data = msgspec.json.encode(event)
        copy = dict(fields)
        copy[b"data"] = data
        pipe.xadd(twin, copy, id=entry_id)
        events, packed, text = events + 1, packed + len(fields[b"data"]), text + len(data)
    pipe.execute()
    return twin, events, packed, text


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=12, help="finished games per game type")
    p.add_argument("--max-commands", type=int, default=3000, help="a game still going after this many stops")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.max_commands = 1, 40
    harness.header("Storage: bytes per event and per game in Redis, msgpack vs JSON", argv)
    event_rows, game_rows = [], []
    with RedisServer(aof=False) as server:
        rt = harness.runtime_for(server)
        r, keys = rt.redis, rt.store.keys
        rng = random.Random(4)
        played = {name: [play_to_end(rt, name, rng, args.max_commands) for _ in range(args.games)]
                  for name in harness.games_available()}
        all_events = sum(r.xlen(keys.game(gid)) for games in played.values() for gid, _ in games)
        log_per_event = memory(r, keys.log(0)) / max(all_events, 1)
        lobby_total = memory(r, keys.lobby(0)) + memory(r, keys.lobby(0) + "v")
        all_games = sum(len(games) for games in played.values())
        totals = {"events": 0, "packed": 0, "text": 0, "mp": 0, "js": 0}
        for name, games in played.items():
            module = game_module(name)
            n = {"events": 0, "packed": 0, "text": 0, "mp": 0, "js": 0, "cmds": 0, "seats": 0, "view": 0,
                 "commands": 0, "finished": 0}
            for gid, commands in games:
                twin, events, packed, text = json_twin(rt, gid, module)
                n["events"] += events
                n["packed"] += packed
                n["text"] += text
                n["mp"] += memory(r, keys.game(gid))
                n["js"] += memory(r, twin)
                n["cmds"] += memory(r, keys.cmds(gid))
                n["seats"] += memory(r, keys.seats(gid))
                n["view"] += memory(r, keys.view(gid)) + memory(r, keys.ckpt(gid))
                n["commands"] += commands
                loaded = rt.games.load(gid)
                n["finished"] += loaded.status == "finished"
            for key in totals:
                totals[key] += n[key]
            e = n["events"]
            event_rows.append([name, e, n["packed"] / e, n["text"] / e, ratio(n["text"], n["packed"]), n["mp"] / e,
                               n["js"] / e, ratio(n["js"], n["mp"])])
            g = len(games)
            log = log_per_event * e
            lobby = lobby_total / all_games * g
            events_mp = n["mp"] + n["cmds"] + n["seats"] + log
            game_rows.append([name, f"{n['finished']}/{g}", n["commands"] / g, e / g, n["mp"] / g, n["js"] / g,
                              n["cmds"] / g, log / g, n["view"] / g, lobby / g,
                              (events_mp + n["view"] + lobby) / g,
                              (events_mp - n["mp"] + n["js"] + n["view"] + lobby) / g])
        e = totals["events"]
        event_rows.append(["all", e, totals["packed"] / e, totals["text"] / e,
                           ratio(totals["text"], totals["packed"]), totals["mp"] / e, totals["js"] / e,
                           ratio(totals["js"], totals["mp"])])
        used = int(r.info("memory")["used_memory"])
    table(["game", "events", "payload msgpack B", "payload JSON B", "payload JSON/msgpack",
           "stream msgpack B/event", "stream JSON B/event", "stream JSON/msgpack"], event_rows,
          title="Per event: the encoded payload, and the game stream's MEMORY USAGE per event "
                "(type, data, at fields and the stream's own structure)")
    table(["game", "finished", "commands", "events", "stream msgpack B", "stream JSON B", "command ids B",
           "partition log B", "view + ckpt B", "lobby B", "total msgpack B", "total JSON B"], game_rows,
          title="Per game (averages): every key a game leaves in Redis")
    print(f"Redis used_memory after the run (both encodings, every key): {used:,} bytes.\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
