"""Tournaments through the HTTP API (docs/api.md "Tournaments"), every game played with random legal moves by its
accounts: a 3-round Swiss of Murus for seven, a round robin of four, a 7-player Squirrels Swiss at tables of 4 and
3, an arena re-pairing finished players at once; standings checked by a computation of the test's own and again
after a rebuild. fakeredis and a real Redis."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from domain.base import commands
from tests.web.signin import signed_in
from web.app import create_app
from workers.dispatcher import Dispatcher
from workers.worker import ThreadWorker


@pytest.fixture
def app(runtime):
    return create_app(runtime)


def run_jobs(runtime) -> None:
    """``tests.conftest.run_jobs`` for the projections' queue only (where the tournaments' job runs): the games'
    analyses, seconds of the hard engine each, are not this test's."""
    runtime.service.jobs.flush()
    Dispatcher(runtime, consumer="tests").run_once(block_ms=1)
    ThreadWorker([runtime.jobs.queues["project"]], connection=runtime.rq_redis).run(burst=True,
                                                                                    logging_level="ERROR")


def auth(token):
    return {"Authorization": f"Bearer {token}"}


class Players:
    """Signed-in clients by username."""

    def __init__(self, app, runtime, names):
        self.clients = {n: signed_in(app, runtime, n) for n in names}
        self.any = next(iter(self.clients.values()))

    def __getitem__(self, name):
        return self.clients[name]

    def doc(self, tid):
        r = self.any.get(f"/api/tournaments/{tid}")
        assert r.status_code == 200, r.json
        return r.json


def play(players: Players, gid: str, rng: random.Random, plies: int, end: str = "resign", winner: int = 0) -> None:
    """Play ``gid`` through HTTP: ``plies`` random legal moves, then every seat but ``winner`` resigns (``end``
    "resign") or the two seats agree a draw (``end`` "draw"); each seat's token from its account's
    ``/api/me/games/<gid>``."""
    spectator = players.any.get(f"/api/games/{gid}").json
    names = [p["account"] for p in spectator["players"]]
    tokens = {}
    for seat, name in enumerate(names):
        mine = players[name].get(f"/api/me/games/{gid}").json
        assert mine["seat"] == seat
        tokens[seat] = mine["token"]

    def send(seat, move):
        doc = players.any.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json
        answer = players.any.post(f"/api/games/{gid}/commands", headers=auth(tokens[seat]),
                                  json={"move": move, "expected_version": doc["version"]})
        assert answer.status_code == 200, (move, answer.json)

    for _ in range(plies):
        spectator = players.any.get(f"/api/games/{gid}").json
        if spectator["status"] == "finished":
            return
        seat = rng.choice(spectator["to_act"])
        doc = players.any.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json
        send(seat, rng.choice(commands(doc["legal"])))
    if players.any.get(f"/api/games/{gid}").json["status"] == "finished":
        return
    if end == "draw":
        send(0, "offer draw")
        send(1, "accept draw")
    else:
        for seat in range(len(names)):
            if seat != winner:
                send(seat, "resign")
    assert players.any.get(f"/api/games/{gid}").json["status"] == "finished"


def results_of(players: Players, doc: dict) -> list[tuple[tuple[str, ...], tuple[float, ...], str]]:
    """Every table of the tournament with the points its players scored, from the games' own results (a point per
    opponent finishing below, half a point per opponent level; a bye one point): the test's own reading."""
    out = []
    for r in doc["pairings"]:
        for t in r["tables"]:
            names = tuple(t["players"])
            if t["game"] is None:
                out.append((names, (1.0,), "bye"))
                continue
            game = players.any.get(f"/api/games/{t['game']}").json
            assert [p["account"] for p in game["players"]] == list(names)
            winners = game["result"]["winners"]
            n = len(names)
            if not winners:
                points = tuple(0.5 * (n - 1) for _ in names)
            else:
                w = len(winners)  # the winners share first place, the others the place below
                points = tuple(n - w + 0.5 * (w - 1) if s in winners else 0.5 * (n - w - 1) for s in range(n))
            out.append((names, points, "game"))
    return out


def scores_and_buchholz(results):
    score = Counter()
    for names, points, _ in results:
        for name, p in zip(names, points, strict=True):
            score[name] += p
    buchholz = Counter()
    for names, _, kind in results:
        if kind == "game":
            for a in names:
                buchholz[a] += sum(score[b] for b in names if b != a)
    return score, buchholz


@pytest.mark.slow
def test_a_three_round_swiss_of_murus_for_seven(app, runtime):
    rng = random.Random(42)
    names = [f"Swiss{i}" for i in range(7)]
    players = Players(app, runtime, names)
    created = players["Swiss0"].post("/api/tournaments", json={
        "game": "murus", "system": "swiss", "rounds": 3, "clock": {"initial": 600, "increment": 5},
        "title": "Seven for three"})
    assert created.status_code == 201, created.json
    tid = created.json["id"]
    for name in names:
        assert players[name].post(f"/api/tournaments/{tid}/join").status_code == 204
    assert players["Swiss1"].post(f"/api/tournaments/{tid}/start").status_code == 403  # not the creator
    listed = players.any.get("/api/tournaments?status=upcoming").json["tournaments"]
    assert [(t["id"], t["players"], t["status"]) for t in listed] == [(tid, 7, "upcoming")]
    assert players["Swiss0"].post(f"/api/tournaments/{tid}/start").status_code == 204
    run_jobs(runtime)
    byes = []
    for number in (1, 2, 3):
        doc = players.doc(tid)
        assert doc["status"] == "running" and doc["round"] == number and doc["rounds"] == 3
        tables = doc["pairings"][-1]["tables"]
        assert sorted(p for t in tables for p in t["players"]) == sorted(names)
        bye = [t for t in tables if t["game"] is None]
        assert len(bye) == 1 and len(bye[0]["players"]) == 1 and bye[0]["result"]["points"] == [1]
        byes.append(bye[0]["players"][0])
        for t in tables:
            if t["game"]:
                seen = {g["id"] for g in players[t["players"][0]].get("/api/me/games").json["games"]}
                assert t["game"] in seen  # the game's seats are the accounts'
                play(players, t["game"], rng, rng.randrange(2, 12), rng.choice(["resign", "resign", "draw"]),
                     winner=rng.randrange(2))
        assert players.doc(tid)["round"] == number  # the next round waits for the job
        run_jobs(runtime)
    doc = players.doc(tid)
    assert doc["status"] == "finished" and doc["end_reason"] == "rounds"
    met = Counter(frozenset(t["players"]) for r in doc["pairings"] for t in r["tables"] if t["game"])
    assert max(met.values()) == 1  # nobody meets twice
    assert len(set(byes)) == 3  # nobody has two byes
    score, buchholz = scores_and_buchholz(results_of(players, doc))
    by_name = {s["username"]: s for s in doc["standings"]}
    assert {n: by_name[n]["score"] for n in names} == {n: score[n] for n in names}
    assert {n: by_name[n]["tiebreaks"]["buchholz"] for n in names} == {n: buchholz[n] for n in names}
    ordered = [(s["score"], s["tiebreaks"]["buchholz"]) for s in doc["standings"]]
    assert ordered == sorted(ordered, reverse=True)
    # each player was told of each game as it started
    notes = runtime.people.notifications.since("swiss1", "0-0")
    told = [n.data for n in notes if n.data["type"] == "tournament_game"]
    assert len(told) == 3 - ("Swiss1" in byes) and all(n["tournament"] == tid for n in told)
    # rated like any game between accounts
    played = [n for n in names if by_name[n]["games"]]
    assert any(runtime.ratings.of_player(n)[0].get("murus", {}).get("games") for n in played)
    # the projection rebuilt from the events: the same document
    for key in runtime.redis.scan_iter(match=f"{runtime.store.keys.prefix}:{{tourn}}:view*"):
        runtime.redis.delete(key)
    runtime.redis.delete(runtime.store.keys.tournament_versions(), runtime.store.keys.tournament_lines())
    assert runtime.tournaments.rebuild() == 1
    assert players.doc(tid) == doc
    assert [t["id"] for t in players.any.get("/api/tournaments?status=finished").json["tournaments"]] == [tid]


def test_a_round_robin_of_four(app, runtime):
    rng = random.Random(4)
    names = ["Ann", "Ben", "Cy", "Di"]
    players = Players(app, runtime, names)
    tid = players["Ann"].post("/api/tournaments", json={
        "game": "murus", "system": "round_robin", "clock": {"initial": 300}}).json["id"]
    for name in names:
        players[name].post(f"/api/tournaments/{tid}/join")
    players["Ann"].post(f"/api/tournaments/{tid}/start")
    run_jobs(runtime)
    for _ in range(3):
        for t in players.doc(tid)["pairings"][-1]["tables"]:
            play(players, t["game"], rng, 4, winner=0)  # the first seat wins every game
        run_jobs(runtime)
    doc = players.doc(tid)
    assert doc["status"] == "finished" and doc["rounds"] == 3
    pairs = Counter(frozenset(t["players"]) for r in doc["pairings"] for t in r["tables"])
    assert set(pairs) == {frozenset(p) for p in combinations(names, 2)} and set(pairs.values()) == {1}
    first = Counter(t["players"][0] for r in doc["pairings"] for t in r["tables"])
    assert set(first.values()) <= {1, 2}  # seats balanced
    assert {s["username"]: s["score"] for s in doc["standings"]} == {n: first[n] for n in names}


def test_a_seven_player_squirrels_swiss_at_tables_of_four_and_three(app, runtime):
    rng = random.Random(7)
    names = [f"Sq{i}" for i in range(7)]
    players = Players(app, runtime, names)
    tid = players["Sq0"].post("/api/tournaments", json={
        "game": "squirrels", "system": "swiss", "rounds": 2, "table_size": 4,
        "clock": {"initial": 600}}).json["id"]
    for name in names:
        players[name].post(f"/api/tournaments/{tid}/join")
    players["Sq0"].post(f"/api/tournaments/{tid}/start")
    run_jobs(runtime)
    for _ in range(2):
        tables = players.doc(tid)["pairings"][-1]["tables"]
        assert sorted(len(t["players"]) for t in tables) == [3, 4]
        for t in tables:
            play(players, t["game"], rng, 6, winner=rng.randrange(len(t["players"])))
        run_jobs(runtime)
    doc = players.doc(tid)
    assert doc["status"] == "finished"
    first, second = ([set(t["players"]) for t in r["tables"]] for r in doc["pairings"])
    together = sum(1 for t in second for a, b in combinations(sorted(t), 2) if any({a, b} <= f for f in first))
    fewest = min(sum(1 for t in (set(four), set(names) - set(four)) for a, b in combinations(sorted(t), 2)
                     if any({a, b} <= f for f in first)) for four in combinations(names, 4))
    assert together == fewest  # nobody at the same table twice where avoidable (7 at 4 and 3: some must)
    score, _ = scores_and_buchholz(results_of(players, doc))
    assert {s["username"]: s["score"] for s in doc["standings"]} == {n: score[n] for n in names}
    assert sorted(score.values(), reverse=True)[:2] != [0, 0]


def test_an_arena_pairs_finished_players_again_at_once(app, runtime):
    rng = random.Random(9)
    names = ["Ar0", "Ar1", "Ar2", "Ar3"]
    players = Players(app, runtime, names)
    tid = players["Ar0"].post("/api/tournaments", json={
        "game": "murus", "system": "arena", "minutes": 3, "clock": {"initial": 120}}).json["id"]
    for name in names:
        players[name].post(f"/api/tournaments/{tid}/join")
    players["Ar0"].post(f"/api/tournaments/{tid}/start")
    run_jobs(runtime)
    doc = players.doc(tid)
    first = doc["pairings"][0]["tables"]
    assert len(first) == 2 and doc["rounds"] is None
    play(players, first[0]["game"], rng, 4, winner=0)
    play(players, first[1]["game"], rng, 4, winner=1)
    run_jobs(runtime)
    doc = players.doc(tid)
    fresh = [t for t in doc["pairings"][-1]["tables"] if t["result"] is None]
    assert len(fresh) == 2  # re-paired at once, against someone else than their last opponent
    assert not {frozenset(t["players"]) for t in fresh} & {frozenset(t["players"]) for t in first}
    play(players, fresh[0]["game"], rng, 4, winner=0)
    run_jobs(runtime)  # the two who finished are the only ones free: paired again at once
    doc = players.doc(tid)
    assert [t["players"] for t in doc["pairings"][-1]["tables"]] in ([fresh[0]["players"]],
                                                                     [fresh[0]["players"][::-1]])
    # time is up: the games on finish, nothing new starts, the arena ends
    later = runtime.tournaments.clock() + 3 * 60_000
    runtime.tournaments.clock = lambda: later
    for t in [t for r in doc["pairings"] for t in r["tables"] if t["result"] is None]:
        play(players, t["game"], rng, 2, winner=0)
    run_jobs(runtime)
    doc = players.doc(tid)
    assert doc["status"] == "finished" and doc["end_reason"] == "time"
    winners_twice = fresh[0]["players"][0]
    assert {s["username"]: s["score"] for s in doc["standings"]}[winners_twice] >= 4
