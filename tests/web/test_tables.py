"""Tables through the API (docs/api.md "Tables"): open seats, resign/draw/abort, clocks, rematch, on fakeredis
and a real Redis. Races run real threads against the store; bad input gets a clear 4xx and appends nothing."""

from __future__ import annotations

import threading
import time

import pytest

import services.games.round
from services import errors
from services.games.tables import Tables
from tests.conftest import run_jobs


def create(client, players=None, game="murus", **extra):
    r = client.post("/api/games", json={"game": game, "players": players or [{"name": "Ana"}, {"open": True}],
                                        **extra})
    assert r.status_code == 201, r.json
    return r.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def doc(client, gid, token=None):
    return client.get(f"/api/games/{gid}?min_version=1000000", headers=auth(token) if token else {}).json


def move(client, g, seat, text):
    r = client.post(f"/api/games/{g['id']}/commands", headers=auth(g["seats"][seat]["token"]), json={"move": text})
    assert r.status_code == 200, r.json


def first_moves(runtime, gid: str) -> int:
    """Each seat of a new two-seat Murus game makes its first move at once, so that the clocks run (no clock runs
    before its seat's first move); the game's version after them."""
    runtime.service.command(gid, 0, "a1-a3")
    return runtime.service.command(gid, 1, "a7-a5")["version"]


def test_an_open_seat_is_taken_by_a_claim_and_the_game_starts(client, runtime):
    g = create(client)
    assert g["seats"][1] == {"seat": 1, "open": True}
    d = doc(client, g["id"], g["seats"][0]["token"])
    assert d["status"] == "setup" and d["open_seats"] == [1] and d["to_act"] == [] and d["table"] == ["abort"]
    run_jobs(runtime)
    assert [x["id"] for x in client.get("/api/games?status=open").json["games"]] == [g["id"]]
    r = client.post(f"/api/games/{g['id']}/seats/1", json={"name": "Ben"})
    assert r.status_code == 200 and r.json["seat"] == 1 and r.json["name"] == "Ben" and r.json["token"]
    d = doc(client, g["id"], r.json["token"])
    assert d["you"] == 1 and d["status"] == "playing" and d["open_seats"] == []
    assert [p["name"] for p in d["players"]] == ["Ana", "Ben"]
    events = client.get(f"/api/games/{g['id']}/events").json["events"]
    assert events[-1]["type"] == "seat_taken" and events[-1]["data"] == {"seat": 1, "name": "Ben"}
    run_jobs(runtime)
    assert client.get("/api/games?status=open").json["games"] == []


def test_thirty_two_racing_claims_give_one_seat(runtime):
    g = runtime.service.create("murus", [{"name": "Ana"}, {"open": True}])
    tables = Tables(runtime.service)
    barrier = threading.Barrier(32)
    won, lost = [], []

    def claim(i: int) -> None:
        barrier.wait()
        try:
            won.append(tables.claim(g["id"], 1, f"P{i}"))
        except errors.ServiceError as exc:
            lost.append(exc.code)

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and lost == ["seat_taken"] * 31
    assert runtime.store.version(g["id"]) == g["version"] + 1  # one seat_taken event
    assert runtime.seats.seat_for(g["id"], won[0]["token"]) == 1


@pytest.mark.parametrize("path, body, status, code", [
    ("/seats/0", {"name": "Eve"}, 409, "seat_taken"),   # a seat with a player
    ("/seats/7", {"name": "Eve"}, 404, "not_found"),
    ("/seats/1", {"name": ""}, 422, "unprocessable"),
    ("/seats/1", {"name": "x" * 41}, 422, "unprocessable"),
    ("/seats/1", {}, 400, "bad_request"),
])
def test_bad_claims_append_nothing(client, runtime, path, body, status, code):
    g = create(client)
    r = client.post(f"/api/games/{g['id']}{path}", json=body)
    assert (r.status_code, r.json["error"]["code"]) == (status, code) and r.json["error"]["message"]
    assert runtime.store.version(g["id"]) == g["version"]


def test_no_claim_on_a_finished_game_and_unknown_game(client, runtime):
    g = create(client)
    assert client.post(f"/api/games/{g['id']}/commands", headers=auth(g["seats"][0]["token"]),
                       json={"move": "abort"}).status_code == 200
    version = runtime.store.version(g["id"])
    r = client.post(f"/api/games/{g['id']}/seats/1", json={"name": "Ben"})
    assert r.status_code == 409 and "over" in r.json["error"]["message"]
    assert doc(client, g["id"])["open_seats"] == []
    run_jobs(runtime)
    assert g["id"] not in [line["id"] for line in client.get("/api/games?status=open").json["games"]]
    assert runtime.store.version(g["id"]) == version
    assert client.post("/api/games/000000000000/seats/1", json={"name": "Ben"}).status_code == 404


def test_resign_from_a_seat_not_to_act_names_the_players(client):
    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}])
    ben = g["seats"][1]["token"]
    r = client.post(f"/api/games/{g['id']}/commands", headers=auth(ben), json={"move": "resign"})
    assert r.status_code == 200 and r.json["events"][0]["text"] == "Ben resigns."
    d = doc(client, g["id"], ben)
    said = d["result"].pop("say")  # the reason as its message id, said in the reader's language (#30)
    assert d["result"] == {"winners": [0], "reason": "Ben resigns. Ana wins.", "termination": "resigned"}
    assert said["id"] == "{why} {seat} wins." and said["args"]["seat"] == {"seat": 0, "name": "Ana"}
    assert d["table"] == [] and d["legal"] == []


def test_table_commands_bad_input_appends_nothing(client, runtime):
    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}])
    gid, ana = g["id"], g["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/commands", json={"move": "resign"})  # a spectator
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/commands", headers=auth(ana), json={"move": "accept draw"})
    assert r.status_code == 422 and "no draw offer" in r.json["error"]["message"]
    assert runtime.store.version(gid) == g["version"]
    client.post(f"/api/games/{gid}/commands", headers=auth(ana), json={"move": "offer draw"})
    d = doc(client, gid, g["seats"][1]["token"])
    assert d["table"] == ["resign", "accept draw", "decline draw", "abort"] and "accept draw" not in d["legal"]
    assert client.post(f"/api/games/{gid}/commands", headers=auth(g["seats"][1]["token"]),
                       json={"move": "accept draw"}).status_code == 200
    version = runtime.store.version(gid)
    r = client.post(f"/api/games/{gid}/commands", headers=auth(ana), json={"move": "resign"})
    assert r.status_code == 403 and r.json["error"]["message"] == "the game is over"
    assert runtime.store.version(gid) == version
    assert doc(client, gid)["result"]["termination"] == "draw_agreed"


@pytest.mark.parametrize("clock, field", [
    ({"initial": 0}, "clock.initial"), ({"initial": -1, "increment": 2}, "clock.initial"),
    ({"initial": 2_592_001}, "clock.initial"), ({"per_move": 0}, "clock.per_move"),
    ({"per_move": 40 * 86400}, "clock.per_move"), ({"initial": 60, "increment": -3}, "clock.increment"),
])
def test_bad_clock_values_are_422_naming_the_field(client, runtime, clock, field):
    before = set(runtime.store.game_ids())
    body = {"game": "murus", "players": [{"name": "A"}, {"name": "B"}], "clock": clock}
    r = client.post("/api/games", json=body)
    assert r.status_code == 422 and r.json["error"]["field"] == field and field in r.json["error"]["message"]
    assert set(runtime.store.game_ids()) == before


def test_the_document_shows_the_clock(client):
    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 300, "increment": 5})
    d = doc(client, g["id"])
    assert d["clock"]["remaining"] == [300, 300] and d["clock"]["running"] == [] and d["clock"]["as_of"]
    assert d["clock"]["first_move_by"] > d["clock"]["as_of"]  # 30 s for Ana's first move, her clock still
    move(client, g, 0, "a1-a3")
    d = doc(client, g["id"])
    assert d["clock"]["running"] == [] and d["clock"]["remaining"] == [300, 300] and d["clock"]["first_move_by"]
    move(client, g, 1, "a7-a5")
    move(client, g, 0, doc(client, g["id"], g["seats"][0]["token"])["legal"][0])
    d = doc(client, g["id"])
    assert d["clock"]["running"] == [1] and 300 < d["clock"]["remaining"][0] <= 305
    assert d["clock"]["first_move_by"] is None


def race_move_and_timeout(runtime, tables: Tables) -> tuple[dict, str, int]:
    """A move and a timeout judged on the same version, sent at the same moment: (who won, game id, version)."""
    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 600})
    gid = g["id"]
    version = first_moves(runtime, gid)
    game = runtime.games.load(gid)
    late = game.deadline + 1  # the flag judges as if seat 0's time had run out
    legal = game.legal(0)[0]
    time.sleep(0.005)  # a move now leaves seat 1 more than that: a retried flag finds no timeout
    barrier = threading.Barrier(2)
    result = {}

    def move() -> None:
        barrier.wait()
        try:
            runtime.service.command(gid, 0, legal, expected_version=version)
            result["move"] = True
        except errors.ServiceError:
            result["move"] = False

    def flag() -> None:
        barrier.wait()
        result["flag"] = tables.flag(gid, now=late) == "timeout"

    threads = [threading.Thread(target=move), threading.Thread(target=flag)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result, gid, version


def test_a_move_and_a_timeout_racing_for_one_version_exactly_one_wins(runtime):
    tables = Tables(runtime.service)
    for _ in range(12):
        result, gid, version = race_move_and_timeout(runtime, tables)
        assert result["move"] != result["flag"], result  # exactly one of the two
        assert runtime.store.version(gid) == version + 1
        final = runtime.games.load(gid)
        if result["flag"]:
            assert final.result["termination"] == "timeout"
        else:
            assert final.result is None


def test_aborted_games_are_not_rated(client, runtime):
    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}])
    client.post(f"/api/games/{g['id']}/commands", headers=auth(g["seats"][0]["token"]), json={"move": "abort"})
    run_jobs(runtime)
    stats = client.get("/api/stats").json
    assert stats["games"].get("murus", {}).get("finished", 0) == 0 and not stats["ratings"].get("murus")


def test_resigned_and_timed_out_games_between_accounts_are_rated(client, runtime):
    from tests.web.signin import signed_in

    ana_client, ben_client = (signed_in(client.application, runtime, n) for n in ("Ana", "Ben"))
    for ending in ("resign", "timeout"):
        g = create(ben_client, players=[{"open": True}, {"me": True}], clock={"initial": 600})
        ana = ana_client.post(f"/api/games/{g['id']}/seats/0", json={}).json["token"]
        ben = g["seats"][1]["token"]
        for token, move in ((ana, "a1-a3"), (ben, "a7-a5")):  # every seat moves: a game that counts
            r = client.post(f"/api/games/{g['id']}/commands", headers=auth(token), json={"move": move})
            assert r.status_code == 200
        if ending == "resign":
            client.post(f"/api/games/{g['id']}/commands", headers=auth(ben), json={"move": "resign"})
        else:  # Ana moves once more, and Ben's clock runs out
            client.post(f"/api/games/{g['id']}/commands", headers=auth(ana), json={"move": "b1-b3"})
            game = runtime.games.load(g["id"])
            assert Tables(runtime.service).flag(g["id"], now=game.deadline) == "timeout"
    run_jobs(runtime)
    stats = client.get("/api/stats").json
    assert stats["games"]["murus"]["finished"] == 2 and stats["games"]["murus"]["rated"] == 2
    ana, ben = (client.get(f"/api/players/{n}").json["ratings"]["murus"] for n in ("Ana", "Ben"))
    assert ana["games"] == 2 and ana["wins"] == 2 and ana["rating"] > ben["rating"]


def test_guest_games_are_counted_but_rate_nobody(client, runtime):
    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}])
    move(client, g, 0, "a1-a3")
    move(client, g, 1, "a7-a5")
    move(client, g, 1, "resign")
    run_jobs(runtime)
    stats = client.get("/api/stats").json
    assert stats["games"]["murus"]["finished"] == 1 and stats["games"]["murus"]["rated"] == 0
    assert stats["ratings"] == {}


def test_rematch_rotates_seats_and_the_other_player_joins_it(client, runtime):
    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}, {"name": "Bot", "ai": "easy"}],
               game="squirrels", clock={"per_move": 3600})
    ana, ben = g["seats"][0]["token"], g["seats"][1]["token"]
    assert client.post(f"/api/games/{g['id']}/rematch", headers=auth(ana)).status_code == 409  # not over yet
    client.post(f"/api/games/{g['id']}/commands", headers=auth(ana), json={"move": "abort"})
    r = client.post(f"/api/games/{g['id']}/rematch", headers=auth(ana))
    assert r.status_code == 201
    new = r.json["id"]
    assert doc(client, g["id"])["rematch"] == new
    d = doc(client, new, r.json["seats"][2]["token"])  # old seat 0 sits at new seat 2
    assert d["you"] == 2 and [p["name"] for p in d["players"]] == ["Ben", "Bot", "Ana"]
    assert d["status"] == "setup" and d["open_seats"] == [0] and d["clock"]["remaining"] == [3600] * 3
    assert client.post(f"/api/games/{new}/seats/0", json={"name": "Eve"}).status_code == 409  # kept for Ben
    r = client.post(f"/api/games/{g['id']}/rematch", headers=auth(ben))
    assert r.status_code == 201 and r.json["id"] == new and r.json["seats"][0]["token"]
    assert doc(client, new, r.json["seats"][0]["token"])["status"] == "playing"


def test_a_two_second_game_times_out_with_no_client_connected(tmp_path):
    """Real time: the dispatcher, with nothing else running and no client connected, ends the game after its 2
    seconds, within a fraction of a second of the deadline."""
    from burrow.runtime import build, install
    from services.config import Settings
    from workers.dispatcher import Dispatcher

    rt = build(Settings(data_dir=str(tmp_path)), journal=False)
    install(rt)
    dispatcher = Dispatcher(rt, consumer="clock-test")
    thread = threading.Thread(target=dispatcher.run, kwargs={"block_ms": 1000}, daemon=True)
    thread.start()
    try:
        g = rt.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 2})
        first_moves(rt, g["id"])
        deadline = rt.games.load(g["id"]).deadline
        stop = time.monotonic() + 15
        while time.monotonic() < stop:
            game = rt.games.load(g["id"])
            if game.status == "finished":
                break
            time.sleep(0.02)
        result = game.result
        assert result is not None and result["termination"] == "timeout" and result["winners"] == [1]
        ended = next(rt.store.read(g["id"], after=game.version - 1)).at
        assert deadline <= ended < deadline + 1000  # waits on the logs, and never past the next deadline
    finally:
        dispatcher.stop()
        thread.join(5)


def test_a_claimed_seat_survives_a_restart_of_the_embedded_mode(tmp_path):
    from burrow.runtime import build
    from services.config import Settings

    first = build(Settings(data_dir=str(tmp_path / "data")))
    g = first.service.create("murus", [{"name": "Ana"}, {"open": True}])
    ben = Tables(first.service).claim(g["id"], 1, "Ben")["token"]
    second = build(Settings(data_dir=str(tmp_path / "data")))  # a new process, filled from the journal
    assert second.seats.seat_for(g["id"], ben) == 1
    assert second.seats.seat_for(g["id"], g["seats"][0]["token"]) == 0
    assert second.games.load(g["id"]).names == ["Ana", "Ben"]


def test_a_deadline_looked_at_early_or_for_an_old_version_ends_nothing_and_gets_the_real_deadline_back(runtime,
                                                                                                monkeypatch):
    """The clocks of two machines differ, and a slower dispatcher may write a deadline a move made stale: such a
    look ends nothing, and the game gets its current deadline back."""
    import workers.dispatcher
    from services.games.clocks import Clocks
    from workers.dispatcher import Dispatcher

    g = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 60})
    game = runtime.games.load(g["id"])
    deadline = game.deadline
    key = runtime.store.keys.deadlines(runtime.store.keys.partition(g["id"]))
    clocks, dispatcher = Clocks(runtime.redis, runtime.store.keys), Dispatcher(runtime, consumer="tests")
    assert Tables(runtime.service).flag(g["id"], now=deadline - 500) == "running"
    clocks.set({g["id"]: deadline - 500})
    monkeypatch.setattr(workers.dispatcher, "now_ms", lambda: deadline - 400)
    assert dispatcher.check_clocks() == 0 and runtime.redis.zscore(key, g["id"]) == deadline
    runtime.service.command(g["id"], 0, "a1-a3")  # Ben's clock runs now: Ana's old deadline is stale
    clocks.set({g["id"]: deadline})
    monkeypatch.setattr(workers.dispatcher, "now_ms", lambda: deadline + 1)
    assert dispatcher.check_clocks() == 0 and runtime.store.version(g["id"]) == g["version"] + 1
    assert runtime.redis.zscore(key, g["id"]) > deadline


class Crash(BaseException):
    """The process dying right after a step (nothing after it runs; not an error anything handles)."""


def crash_after_append(store, monkeypatch) -> None:
    real = store.append

    def append_then_crash(*args, **kwargs):
        real(*args, **kwargs)
        raise Crash

    monkeypatch.setattr(store, "append", append_then_crash)


def test_a_crash_right_after_the_claims_append_leaves_the_seat_with_its_token_hash(runtime, monkeypatch):
    """The seat_taken event and the seat's token hash are one step: taken means it has its hash."""
    g = runtime.service.create("murus", [{"name": "Ana"}, {"open": True}])
    crash_after_append(runtime.store, monkeypatch)
    with pytest.raises(Crash):
        Tables(runtime.service).claim(g["id"], 1, "Ben")
    assert runtime.store.version(g["id"]) == g["version"] + 1  # the seat is taken…
    assert set(runtime.store.seat_hashes(g["id"], fresh=True)) == {0, 1}  # …with its hash


def test_a_replayed_journal_restores_a_seat_claimed_just_before_a_crash(tmp_path, monkeypatch):
    from burrow.runtime import build
    from services.config import Settings

    first = build(Settings(data_dir=str(tmp_path / "data")))
    g = first.service.create("murus", [{"name": "Ana"}, {"open": True}])
    crash_after_append(first.store, monkeypatch)
    with pytest.raises(Crash):
        Tables(first.service).claim(g["id"], 1, "Ben")
    second = build(Settings(data_dir=str(tmp_path / "data")))  # the embedded mode started again
    assert second.games.load(g["id"]).names == ["Ana", "Ben"]
    assert second.store.seat_hashes(g["id"]) == first.store.seat_hashes(g["id"], fresh=True)
    assert set(second.store.seat_hashes(g["id"])) == {0, 1}


class Later:
    """``time`` as a module sees it, ``seconds`` ahead (a command arriving after a deadline)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def time(self) -> float:
        return time.time() + self.seconds


@pytest.mark.parametrize("move", ["a1-a3", "resign", "offer draw"])
def test_a_command_after_the_deadline_ends_the_game_by_the_timeout_first(client, runtime, monkeypatch, move):
    """No wait for the scheduled check: the first command after a deadline finds the game ended by the timeout."""
    import services.games.round

    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 60})
    g["version"] = first_moves(runtime, g["id"])
    monkeypatch.setattr(services.games.round, "time", Later(61))  # Ana's minute is up
    r = client.post(f"/api/games/{g['id']}/commands", headers=auth(g["seats"][0]["token"]), json={"move": move})
    assert r.status_code == 403 and r.json["error"]["message"] == "the game is over"
    assert runtime.store.version(g["id"]) == g["version"] + 1  # the timeout, and nothing of the command
    result = doc(client, g["id"])["result"]
    assert result["termination"] == "timeout" and result["winners"] == [1]


def test_the_dispatcher_keeps_each_running_clocks_deadline_and_ends_the_game_when_it_is_due(client, runtime,
                                                                                          monkeypatch):
    """Every game the dispatcher reads gets its next deadline in its partition's deadlines; the dispatcher waits
    for new log entries no longer than the earliest one, and ends the game once its time is up (and only then)."""
    import workers.dispatcher
    from services.games.clocks import Clocks
    from workers.dispatcher import Dispatcher

    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 60})
    first_moves(runtime, g["id"])
    dispatcher = Dispatcher(runtime, consumer="tests")
    dispatcher.run_once(block_ms=1)
    game = runtime.games.load(g["id"])
    deadline = game.deadline
    key = runtime.store.keys.deadlines(runtime.store.keys.partition(g["id"]))
    assert runtime.redis.zscore(key, g["id"]) == deadline
    assert Clocks(runtime.redis, runtime.store.keys).next_deadline() == deadline
    assert dispatcher._block_ms(3_600_000) <= deadline - int(time.time() * 1000) + 5
    monkeypatch.setattr(workers.dispatcher, "now_ms", lambda: deadline - 1)
    assert dispatcher.check_clocks() == 0  # not yet
    monkeypatch.setattr(workers.dispatcher, "now_ms", lambda: deadline + 5)
    monkeypatch.setattr(services.games.round, "time", Later(deadline / 1000 + 0.005 - time.time()))
    assert dispatcher.check_clocks() == 1
    result = doc(client, g["id"])["result"]
    assert result["termination"] == "timeout" and result["winners"] == [1]
    assert runtime.redis.zscore(key, g["id"]) is None  # no clock runs any more


def test_a_game_that_finishes_leaves_the_deadlines_and_a_move_moves_its_deadline(client, runtime):
    from workers.dispatcher import Dispatcher

    g = create(client, players=[{"name": "Ana"}, {"name": "Ben"}], clock={"initial": 60, "increment": 5})
    key = runtime.store.keys.deadlines(runtime.store.keys.partition(g["id"]))
    dispatcher = Dispatcher(runtime, consumer="tests")
    dispatcher.run_once(block_ms=1)
    first = runtime.redis.zscore(key, g["id"])
    move(client, g, 0, "a1-a3")
    dispatcher.run_once(block_ms=1)
    second = runtime.redis.zscore(key, g["id"])
    assert second is not None and second != first  # Ben's clock now runs
    move(client, g, 1, "resign")
    dispatcher.run_once(block_ms=1)
    assert runtime.redis.zscore(key, g["id"]) is None


def test_mouse_guard_moves_in_the_feed_name_the_player_of_the_drawn_colour(client):
    """#15: Mouse Guard's colours are drawn per game, and its move lines name the player: "Bo (Black): d3-d4",
    not "Black: d3-d4"."""
    g = create(client, game="mouseguard", players=[{"name": "Ana"}, {"name": "Bo"}])
    tokens = [s["token"] for s in g["seats"]]
    for _ in range(4):  # the setup (both seats), then the first move
        d = doc(client, g["id"], tokens[0])
        seat = d["to_act"][0]
        legal = doc(client, g["id"], tokens[seat])["legal"]
        r = client.post(f"/api/games/{g['id']}/commands", headers=auth(tokens[seat]), json={"move": legal[0]})
        assert r.status_code == 200, r.json
    feed = client.get(f"/api/games/{g['id']}/events").json
    feed = feed["events"] if isinstance(feed, dict) else feed
    drawn = next(e for e in feed if e["type"] == "colours_drawn")["data"]["black"]
    black, white = ("Ana", "Bo") if drawn == 0 else ("Bo", "Ana")
    moves = [e["text"] for e in feed if e["type"] == "moved"]
    assert moves and all(t.startswith((f"{black} (Black)", f"{white} (White)")) for t in moves), moves


def test_clock_checks_outlive_a_redis_outage(runtime, monkeypatch):
    """A Redis outage is logged and waited out: the dispatcher's loop, which checks the clocks, keeps running (and
    checks them again once Redis is back)."""
    import redis

    from workers.dispatcher import Dispatcher

    dispatcher = Dispatcher(runtime, consumer="tests")
    monkeypatch.setattr(dispatcher.stopping, "wait", lambda seconds: None)
    calls = []

    def check_clocks():
        calls.append(len(calls))
        if len(calls) <= 2:
            raise redis.ConnectionError("Connection refused")
        dispatcher.stop()
        return 0

    monkeypatch.setattr(dispatcher, "check_clocks", check_clocks)
    dispatcher.run(block_ms=1)
    assert calls == [0, 1, 2]
