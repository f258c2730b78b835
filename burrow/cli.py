"""The ``burrow`` command line. The composition root: ``serve`` brings web and workers together here, lazily.

Every command exits non-zero with a one-line error on bad input; tracebacks are for bugs only.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import socket
import sys
import time

from burrow import logs, observed
from services.config import Settings, public_url
from services.jobs.queues import KINDS
from services.reads.projections import PROJECTIONS
from services.store.connection import UNREACHABLE


class UserError(Exception):
    """A mistake on the command line: printed as one line, exit status 2 (or ``status``: 1 for a bad file)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def _runtime(args, journal: bool | None = None):
    from burrow.runtime import build, install

    try:
        settings = Settings.from_env(redis_url=getattr(args, "redis", None), data_dir=getattr(args, "data", None),
                                     partitions=getattr(args, "partitions", None))
        runtime = build(settings, journal=journal)
    except ValueError as exc:  # a malformed URL or setting
        raise UserError(f"bad setting: {exc}") from None
    except OSError as exc:
        if isinstance(exc, UNREACHABLE):
            raise
        raise UserError(f"cannot use {exc.filename or settings.data_dir}: {exc.strerror}") from None
    install(runtime)
    return runtime


def _listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound before anything starts: a busy or bad address is a one-line error."""
    if not 1 <= port <= 65535:
        raise UserError(f"--port must be between 1 and 65535, not {port}")
    try:
        return socket.create_server((host, port), backlog=4096)
    except OSError as exc:
        reason = "it is already in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        raise UserError(f"cannot listen on {host}:{port}: {reason}") from None


def cmd_serve(args) -> int:
    from burrow import serving

    if args.threads < 1 or args.workers < 1 or args.processes < 1:
        raise UserError("--threads, --workers and --processes must be at least 1")
    if args.processes > 1 and not args.web_only:
        raise UserError("--processes needs --web-only (run the workers and dispatchers as services of their own)")
    sock = _listen(args.host, args.port)
    observed.prepare(own_dir=True)  # before any metric is made; the web processes inherit the directory
    if args.processes > 1:
        try:
            settings = Settings.from_env(redis_url=args.redis, data_dir=args.data, partitions=args.partitions)
        except ValueError as exc:
            raise UserError(f"bad setting: {exc}") from None
        if settings.redis_url is None:
            raise UserError("--processes needs a real Redis: pass --redis URL or set REDIS_URL")
        print(f"burrow: {args.processes} web processes for {public_url(settings.redis_url)}; "
              f"open http://{args.host}:{args.port}/", file=sys.stderr)
        threads = int(os.environ.get("BURROW_WEB_THREADS", args.threads))  # every setting is handed to them whole
        return serving.serve_processes(settings, sock, args.processes, threads)
    runtime = _runtime(args)
    if runtime.embedded:
        print(f"burrow: embedded store (in-process fakeredis) journaled to {runtime.settings.data_dir}/ "
              f"({runtime.loaded_games} games loaded). Not durable beyond that journal; "
              f"use --redis URL for production.", file=sys.stderr)
        for name, reason in getattr(runtime.store, "skipped", []):
            print(f"burrow: journal file {name} skipped: {reason}", file=sys.stderr)
    else:
        runtime.store.ping()
        print(f"burrow: redis at {public_url(runtime.settings.redis_url)}", file=sys.stderr)
    if not args.web_only:
        _start_workers(runtime, args.workers)
    from web.app import create_app
    from web.front import create_front

    front = create_front(create_app(runtime), args.threads)
    print(f"burrow: open http://{args.host}:{args.port}/", file=sys.stderr)
    serving.serve_here(front, runtime.settings, sock, front.state.streams.close)
    return 0


def _start_workers(runtime, ai_workers: int) -> None:
    """The dispatcher and the RQ workers as threads of this process: one per queue (so no kind of job waits behind
    another), ``ai_workers`` for AI turns."""
    import threading

    from workers.dispatcher import Dispatcher
    from workers.worker import load_engines, start_thread_worker

    load_engines(["ai", "analysis"])  # before the server answers, as a worker process does before its first job
    threading.Thread(target=Dispatcher(runtime).run, name="dispatcher", daemon=True).start()
    start_thread_worker(runtime, "project")
    for _ in range(ai_workers):
        start_thread_worker(runtime, "ai")
    start_thread_worker(runtime, "analysis")
    start_thread_worker(runtime, "push")
    start_thread_worker(runtime, "mail")


def cmd_worker(args) -> int:
    from workers.worker import run_worker

    observed.prepare()
    runtime = _runtime(args, journal=False)
    _require_real_redis(runtime, "worker")
    run_worker(runtime, burst=args.burst, kinds=tuple(args.queue or KINDS))
    return 0


def cmd_dispatch(args) -> int:
    from workers.dispatcher import Dispatcher

    observed.prepare()
    runtime = _runtime(args, journal=False)
    _require_real_redis(runtime, "dispatch")
    print(f"burrow: dispatching for {public_url(runtime.settings.redis_url)}", file=sys.stderr)
    Dispatcher(runtime).run()
    return 0


def _require_real_redis(runtime, what: str) -> None:
    if runtime.embedded:
        raise UserError(f"'burrow {what}' needs a real Redis: pass --redis URL or set REDIS_URL "
                        "(the embedded 'burrow serve' runs its own workers)")


def _damaged(exc) -> UserError:
    """A game whose events cannot be read (``errors.Corrupt``): one line naming the game and version, exit 1."""
    return UserError(exc.message, status=1)


def cmd_replay(args) -> int:
    from services import errors
    from services.reads.views import all_documents

    runtime = _runtime(args)
    try:
        last = runtime.store.version(args.gid)
        if last == 0:
            runtime.games.load(args.gid)  # NotFound, or a game being created (version 0)
        to = args.to if args.to is not None else last
        if not 1 <= to <= last:
            raise UserError(f"--to must be between 1 and {last}")
        # Only the events up to ``to`` are folded (from a snapshot): a damaged event after it stops only --verify.
        game = runtime.games.at_version(args.gid, to)
        latest = runtime.games.load(args.gid) if args.verify else None
    except errors.NotFound as exc:
        raise UserError(exc.message) from None
    except errors.Corrupt as exc:
        raise _damaged(exc) from None
    module = game.rules
    print(f"{game.meta['game']} {game.gid} at version {game.version} of {last}: "
          f"{module.status(game.state)}")
    print(module.render(game.state))
    result = module.result(game.state)
    if result:
        names = [game.names[s] for s in result["winners"]]
        print(f"result: {', '.join(names) or 'draw'} — {result['reason']}")
    if latest is not None:
        stored = runtime.projector.stored(args.gid)
        if stored is None:
            print("verify: no projection of this game (run 'burrow rebuild' or start the workers)")
            return 1
        fresh = all_documents(latest)
        if stored["docs"] != json.loads(json.dumps(fresh)):
            diffs = [k for k in fresh if stored["docs"].get(k) != json.loads(json.dumps(fresh[k]))]
            print(f"verify: DIFFERENT — projection at version {stored['version']}, events at {latest.version}; "
                  f"documents differ for: {', '.join(diffs)}")
            return 1
        print(f"verify: OK — the projection equals the replay at version {latest.version}")
    return 0


def cmd_rebuild(args) -> int:
    from burrow.progress import Progress

    runtime = _runtime(args)
    names = (*PROJECTIONS, "ratings", "tournaments", "decks") if args.projection is None else (args.projection,)
    views = tuple(n for n in names if n in PROJECTIONS)
    steps = []
    if views:
        steps.append(("+".join(views), lambda progress: runtime.projector.rebuild(views, progress)))
    if "ratings" in names:
        steps.append(("ratings", runtime.ratings.rebuild))
    if "tournaments" in names:
        steps.append(("tournaments", runtime.tournaments.rebuild))
    if "decks" in names:
        from services.learn import deck
        steps.append(("decks", deck.of(runtime).rebuild))
    started = time.monotonic()
    count = tournaments = deck_events = 0
    for label, rebuild in steps:
        bar = None

        def progress(done: int, total: int, label: str = label) -> None:
            nonlocal bar
            bar = bar or Progress(f"rebuilding {label}", total)
            bar.update(done)

        if label == "tournaments":
            tournaments = rebuild(progress)
        elif label == "decks":
            deck_events = rebuild(progress)
        else:
            count = rebuild(progress)
        if bar:
            bar.close()
    also = f" and {tournaments} tournaments" if "tournaments" in names else ""
    also += f", {deck_events} deck events" if "decks" in names else ""
    print(f"rebuilt {', '.join(names)} for {count} games{also} in {time.monotonic() - started:.1f}s")
    if args.projection is None:  # what the usernames look like, for accounts made before it was kept
        print(f"indexed {runtime.accounts.store.index_names()} usernames' lookalikes")
    failures = dict(runtime.projector.failures if views else [])
    failures.update(runtime.ratings.failures if "ratings" in names else [])
    for gid, reason in sorted(failures.items()):  # skipped: their old projections stay as they were
        print(f"skipped game {gid}: {reason}", file=sys.stderr)
    return 1 if failures else 0


def cmd_export(args) -> int:
    from services.store.transfer import export_lines

    runtime = _runtime(args)
    try:
        lines = list(_exported(runtime, args.gid, export_lines(runtime.store, args.gid)))
    except KeyError:
        raise UserError(f"no game {args.gid!r}") from None
    text = "".join(line + "\n" for line in lines)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as exc:
            raise UserError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def _exported(runtime, gid: str, lines):
    """``lines`` of an export, line by line; a damaged event (not msgpack: its data cannot be written as JSON) is
    one line naming its version, exit 1, and nothing is written."""
    import msgspec

    written = 0  # the header, then one line per version
    try:
        for line in lines:
            yield line
            written += 1
    except (msgspec.DecodeError, ValueError, TypeError) as exc:
        raise UserError(f"game {gid} cannot be exported: its event at version {written} is damaged (its data "
                        f"does not decode: {type(exc).__name__}); nothing was written", status=1) from None


def cmd_backup(args) -> int:
    """Every key of the store's groups, each group as of one moment, as JSON lines (services/store/backup.py)."""
    from services.store.backup import backup_lines

    runtime = _runtime(args, journal=False)
    _require_real_redis(runtime, "backup")
    count, path = 0, args.output
    try:
        with open(path + ".partial", "w", encoding="utf-8") as out:
            for line in backup_lines(runtime.redis, runtime.store.keys):
                out.write(line + "\n")
                count += 1
        os.replace(path + ".partial", path)  # a backup cut short never looks whole
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    print(f"burrow: {count - 1} keys of {public_url(runtime.settings.redis_url)} backed up to {path}",
          file=sys.stderr)
    return 0


def cmd_restore(args) -> int:
    from services.store.backup import BackupError, restore_lines

    runtime = _runtime(args, journal=False)
    _require_real_redis(runtime, "restore")
    try:
        with open(args.file, encoding="utf-8") as lines:
            count = restore_lines(runtime.redis, runtime.store.keys, lines, replace=args.replace)
    except OSError as exc:
        raise UserError(f"cannot read {args.file}: {exc.strerror}", status=1) from None
    except BackupError as exc:
        raise UserError(str(exc), status=1) from None
    print(f"burrow: {count} keys restored into {public_url(runtime.settings.redis_url)}", file=sys.stderr)
    return 0


def cmd_import(args) -> int:
    from services import tokens
    from services.bounds import is_game_id
    from services.store.streams import ConcurrencyError, new_game_id
    from services.store.transfer import append_exported, parse_lines, validate

    runtime = _runtime(args)
    try:
        with open(args.file, encoding="utf-8") as f:
            header, events = parse_lines(f)
        state = validate(header, events, runtime.settings.limits)  # before anything is appended
    except OSError as exc:
        raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
    except ValueError as exc:  # not JSON lines, not UTF-8, or not a valid game
        raise UserError(f"{args.file}: {exc}", status=1) from None
    meta = header["meta"]
    # The header's id only if it has the form the service makes and names no game here: never a path, never an
    # existing game (services/bounds.py).
    wanted = header["id"]
    fresh = is_game_id(wanted) and runtime.store.version(wanted) == 0 and runtime.store.meta(wanted) is None \
        and not runtime.store.seat_hashes(wanted)
    gid = wanted if fresh else new_game_id()
    if not fresh:
        print(f"the file's id {str(wanted)[:40]!r} is {'taken' if is_game_id(wanted) else 'not a game id'}: "
              f"importing as {gid}", file=sys.stderr)
    taken = dict(getattr(state, "names", ()))  # open seats taken during the game
    humans = [i for i, p in enumerate(meta["players"]) if not p.get("ai") and (not p.get("open") or i in taken)]
    seat_tokens = {i: tokens.new_token() for i in humans}
    runtime.store.set_seat_hashes(gid, {s: tokens.token_hash(t) for s, t in seat_tokens.items()})
    try:
        version = append_exported(runtime.store, gid, meta, events)  # expects version 0: never into a game
    except ConcurrencyError:
        raise UserError(f"game {gid} was created meanwhile; import again", status=1) from None
    runtime.projector.project_game(gid)
    runtime.projector.project_lobby(gid)
    print(f"imported game {gid} ({meta['game']}) at version {version}")
    for seat, token in seat_tokens.items():
        print(f"  seat {seat} ({meta['players'][seat].get('name') or taken.get(seat)}): token {token}")
    return 0


def cmd_doctor(args) -> int:
    from services.jobs.doctor import summary
    from services.jobs.failures import Failures

    runtime = _runtime(args, journal=False)
    _require_real_redis(runtime, "doctor")
    report = summary(runtime)
    print(f"{'partition':>9}  {'log':>8}  {'pending':>7}  {'unread':>6}  {'retrying':>8}  {'dead':>5}  {'lag':>8}")
    for p in report["partitions"]:
        print(f"{p['partition']:>9}  {p['log']:>8}  {p['pending']:>7}  {p['undelivered']:>6}  {p['retrying']:>8}  "
              f"{p['dead_letters']:>5}  {p['lag_ms'] / 1000:>7.1f}s")
    print(f"dispatchers alive: {report['dispatchers']}")
    for q in report["queues"]:
        print(f"queue {q['name']}: {q['jobs']} job(s) waiting, {q['workers']} worker(s)")
    print(f"games waiting for their projection: {report['games_waiting']}")
    for m in report["memory"]:
        limit = f"{m['maxmemory'] / 2**20:.0f} MB maxmemory, {m['share']:.0%} used" if m["maxmemory"] else \
            "no maxmemory"
        print(f"redis {m['redis']}: {m['used'] / 2**20:.1f} MB used ({limit}; policy {m['policy']})")
    for warning in report["warnings"]:
        print(f"WARNING: {warning}")
    if args.dead:
        failures = Failures(runtime.redis, runtime.store.keys)
        for partition in range(runtime.store.keys.partitions):
            for d in failures.dead_letters(partition, count=args.dead):
                print(f"dead letter p{partition} {d.entry}: game {d.gid} version {d.version} ({d.type}), "
                      f"{d.failures} failures: {d.error}")
    for problem in report["problems"]:
        print(f"PROBLEM: {problem}")
    print("OK" if report["ok"] else f"{len(report['problems'])} problem(s)")
    return 0 if report["ok"] else 1


def cmd_reports(args) -> int:
    """The chat messages players reported that no operator has read yet, oldest first, each with the messages
    before it; then they count as read (``--count`` at a time: the rest wait for the next run). Embedded: from the
    journal (``burrow-data/people/``)."""
    runtime = _runtime(args)
    reports = runtime.people.chat.unread(args.count)
    for report in reports:
        message = report["message"]
        print(f"{message['at']}  game {report['gid']} ({report['room']}), reported by {report['reporter']}:")
        for before in report["context"]:
            print(f"    {before['from']}: {before['text']}")
        print(f"  > {message['from']}: {message['text']}")
    if reports:
        runtime.people.chat.mark_read(reports[-1]["id"])
    print(f"{len(reports)} report(s)")
    return 0


def cmd_analyse(args) -> int:
    from burrow.progress import Progress
    from services import errors

    if args.budget is not None and not 0 < args.budget <= 60:
        raise UserError("--budget must be between 0 and 60 seconds")
    runtime = _runtime(args)
    analyses = runtime.analyses
    try:
        game = runtime.games.load(args.gid)
        analyses.request(args.gid, budget=args.budget, queue=False)  # None: the settings' budget
    except errors.Corrupt as exc:
        raise _damaged(exc) from None
    except errors.ServiceError as exc:  # no such game, still running
        raise UserError(exc.message) from None
    meta = analyses.meta(args.gid)
    if meta["plies"] is None:
        analyses.plan(args.gid, meta["version"], queue=False)
        meta = analyses.meta(args.gid)
    total = len(meta["plies"])
    bar = Progress(f"analysing {args.gid} at {meta['budget']:g} s a position", total)
    done = len(analyses.read(args.gid)["plies"])
    bar.update(done)

    def step(_index: int) -> None:
        nonlocal done
        done += 1
        bar.update(done)

    for chunk in range(meta["chunks"]):  # plies already stored (by workers, or an earlier run) are skipped
        analyses.run_chunk(args.gid, meta["version"], chunk, progress=step)
    bar.close()
    answer = analyses.read(args.gid)
    names = game.names
    width = max(6, *(len(n) for n in names))
    print(f"{'#':>3}  {'version':>7}  {'player':<{width}}  {'move':<24}  "
          + "  ".join(f"{n[:width]:>{width}}" for n in names) + "  best")
    for i, ply in enumerate(answer["plies"], 1):
        chances = "  ".join(f"{w:>{width}.0%}" for w in ply["win"])
        note = f"{ply['best'] or '-'}"
        if ply["blunder"]:
            after = answer["plies"][i]["win"] if i < len(answer["plies"]) else None
            lost = f" (-{ply['win'][ply['seat']] - after[ply['seat']]:.0%})" if after else ""
            note += f"  BLUNDER{lost}: {ply['best']} was better"
        print(f"{i:>3}  {ply['version']:>7}  {names[ply['seat']]:<{width}}  {ply['move']:<24}  {chances}  {note}")
    blunders = sum(p["blunder"] for p in answer["plies"])
    print(f"{len(answer['plies'])} moves, {blunders} blunder{'s' if blunders != 1 else ''} "
          "(a move losing at least 20% of its player's chance against the engine's best)")
    return 0


def cmd_selfplay(args) -> int:
    from burrow.progress import Progress
    from burrow.selfplay import run_match, summary, table
    from domain.ai import LEVELS
    from domain.registry import GAME_NAMES

    if args.game not in GAME_NAMES:
        raise UserError(f"unknown game {args.game!r} (known: {', '.join(GAME_NAMES)})")
    levels = [x.strip() for x in args.ai.split(",")]
    bad = [x for x in levels if x not in LEVELS]
    if bad:
        raise UserError(f"unknown AI level {bad[0]!r} (known: {', '.join(LEVELS)})")
    if args.games < 1 or args.jobs < 1:
        raise UserError("--games and --jobs must be at least 1")
    if not 0 < args.ai_time <= 60:
        raise UserError("--ai-time must be between 0 and 60 seconds")
    options = json.loads(args.options) if args.options else None
    _check_setup(args.game, len(levels), options)
    bar = Progress(f"selfplay {args.game}", args.games)
    records = run_match(args.game, levels, args.games, args.seed, args.ai_time, args.jobs, options, bar.update,
                        args.clock)
    bar.close()
    print(table(summary(records, levels)))
    return 0


def _check_setup(game: str, seats: int, options) -> None:
    """A game of ``game`` for ``seats`` AI levels with ``options`` can be set up (else a one-line error)."""
    import random

    from domain.base import BadSetup, Setup
    from domain.registry import game_module

    module = game_module(game)
    low, high = module.SEATS
    if not low <= seats <= high:
        needs = f"{low}" + (f" to {high}" if high > low else "")
        raise UserError(f"--ai: {game} needs {needs} AI levels, one per seat, not {seats}")
    try:
        module.initial(Setup(seats=seats, options=options or {}), random.Random(0))
    except BadSetup as exc:
        raise UserError(f"--options: {exc}") from None


def cmd_perft(args) -> int:
    """Move-generation counts from the start of any game whose registration names a ``perft``."""
    import random

    from domain.base import BadSetup, Setup
    from domain.registry import GAME_NAMES, game_type

    counted = [name for name in GAME_NAMES if game_type(name).perft is not None]
    if args.game not in counted:
        known = "" if args.game in GAME_NAMES else f"unknown game {args.game!r}: "
        raise UserError(f"{known}perft is available for {', '.join(counted)}")
    game = game_type(args.game)
    if args.depth < 0 or args.depth > 8:
        raise UserError("--depth must be between 0 and 8")
    options = {}
    if args.variant is not None:
        variant = next((o for o in game.catalog.options if o.name == "variant" and o.choices), None)
        values = [c.value for c in variant.choices] if variant else []
        if args.variant not in values:
            allowed = f"choose from {', '.join(map(repr, values))}" if values else f"{args.game} has no variants"
            raise UserError(f"argument --variant: invalid choice: {args.variant!r} ({allowed})")
        options["variant"] = args.variant
    module, state = game.module(), None
    try:
        events = module.initial(Setup(seats=game.catalog.seats[0], options=options), random.Random(0))
    except BadSetup as exc:
        raise UserError(str(exc)) from None
    for event in events:
        state = module.evolve(state, event)
    print(f"{'depth':>5}  {'nodes':>12}  {'seconds':>8}  {'nodes/s':>10}")
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = game.perft(state, depth)
        took = time.perf_counter() - started
        print(f"{depth:>5}  {nodes:>12,}  {took:>8.3f}  {nodes / took if took else 0:>10,.0f}")
    return 0


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line (``burrow serve: error: …``), exit status 2, like every other mistake."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="burrow", description="Burrow: an event-sourced service for board games.")
    sub = p.add_subparsers(dest="command", required=True)

    def with_store(sp):
        sp.add_argument("--redis", metavar="URL", help="Redis URL (default: $REDIS_URL, else embedded)")
        sp.add_argument("--data", metavar="DIR", help=f"embedded journal directory (default: {Settings.data_dir})")
        sp.add_argument("--partitions", type=_positive,
                        help=f"event-store partitions (default {Settings.partitions})")
        return sp

    s = with_store(sub.add_parser("serve", help="web + dispatcher + worker"))
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--threads", type=int, default=32,
                   help="threads running the API's requests (open live streams hold none)")
    s.add_argument("--workers", type=int, default=2,
                   help="AI worker threads (plus one for projections and one for analyses)")
    s.add_argument("--web-only", action="store_true",
                   help="the web front alone (run 'burrow worker' and 'burrow dispatch' beside it)")
    s.add_argument("--processes", type=int, default=1,
                   help="web processes sharing the port (with --web-only and a real Redis)")
    s.set_defaults(func=cmd_serve)
    s = with_store(sub.add_parser("worker", help="an RQ worker (real Redis)"))
    s.add_argument("--burst", action="store_true", help="quit when the queue is empty")
    s.add_argument("--queue", action="append", choices=list(KINDS),
                   help="the queue to work on (repeatable; default: all of them)")
    s.set_defaults(func=cmd_worker)
    with_store(sub.add_parser("dispatch", help="the dispatcher (real Redis)")).set_defaults(func=cmd_dispatch)
    s = with_store(sub.add_parser("replay", help="rebuild a game from its events and print it"))
    s.add_argument("gid")
    s.add_argument("--to", type=int, metavar="N", help="stop at version N")
    s.add_argument("--verify", action="store_true", help="compare with the projection; exit 1 on a difference")
    s.set_defaults(func=cmd_replay)
    s = with_store(sub.add_parser("rebuild", help="rebuild projections from the logs"))
    s.add_argument("--projection", choices=[*PROJECTIONS, "ratings", "tournaments", "decks"])
    s.set_defaults(func=cmd_rebuild)
    s = with_store(sub.add_parser("export", help="a game's events as JSON lines"))
    s.add_argument("gid")
    s.add_argument("-o", "--output", metavar="FILE")
    s.set_defaults(func=cmd_export)
    s = with_store(sub.add_parser("import", help="import a game exported as JSON lines"))
    s.add_argument("file")
    s.set_defaults(func=cmd_import)
    s = with_store(sub.add_parser("backup", help="back up the store of a running deployment (real Redis)"))
    s.add_argument("-o", "--output", metavar="FILE", required=True)
    s.set_defaults(func=cmd_backup)
    s = with_store(sub.add_parser("restore", help="restore a backup into an empty Redis"))
    s.add_argument("file")
    s.add_argument("--replace", action="store_true", help="overwrite keys that exist already")
    s.set_defaults(func=cmd_restore)
    s = with_store(sub.add_parser("doctor", help="pending entries, dead letters, lag, dispatchers, workers; "
                                                 "exit 1 when something is wrong"))
    s.add_argument("--dead", type=int, nargs="?", const=20, default=0, metavar="N",
                   help="also list the newest N dead letters of each partition (default 20)")
    s.set_defaults(func=cmd_doctor)
    s = with_store(sub.add_parser("reports", help="chat messages players reported, with what came before"))
    s.add_argument("--count", type=_positive, default=50, help="the oldest N unread reports (default 50)")
    s.set_defaults(func=cmd_reports)
    s = with_store(sub.add_parser("analyse", help="analyse a finished game: each move's chances, blunders"))
    s.add_argument("gid")
    s.add_argument("--budget", type=float, metavar="S",
                   help="seconds of the hard engine per position (default: $BURROW_ANALYSIS_TIME, else 0.25)")
    s.set_defaults(func=cmd_analyse)
    s = sub.add_parser("selfplay", help="AI against AI")
    s.add_argument("game")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--ai", default="easy,hard", help="levels by seat, e.g. easy,hard")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--jobs", type=int, default=1)
    s.add_argument("--ai-time", type=float, default=1.0, help="seconds per AI decision")
    s.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="budgets in wall time, or in each game's CPU time (fair on a busy machine)")
    s.add_argument("--options", help="game options as JSON")
    s.set_defaults(func=cmd_selfplay)
    s = sub.add_parser("perft", help="move-generation counts (games whose registration has a perft)")
    s.add_argument("game")
    s.add_argument("--depth", type=int, default=4)
    s.add_argument("--variant", help="the game's variant option (default: the game's default)")
    s.set_defaults(func=cmd_perft)
    return p


def main(argv: list[str] | None = None) -> int:
    logs.setup()  # one JSON object per line (burrow/logs.py)
    try:
        args = parser().parse_args(argv)
    except SystemExit as exc:  # --help, or an argument error already printed as one line
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return args.func(args)
    except UserError as exc:
        print(f"burrow: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        return 130
    except json.JSONDecodeError as exc:
        print(f"burrow: invalid JSON: {exc}", file=sys.stderr)
        return 2
    except UNREACHABLE as exc:
        print(f"burrow: cannot reach redis: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
