"""The live-update hub (services/live/hub.py): one reader per partition log fanning versions out to subscribers,
on fakeredis and a real redis-server. Behaviour only: who receives what, in which order; never how fast."""

from __future__ import annotations

import json
import threading
import time

import pytest

from services import errors
from services.live import hub as live
from services.reads.views import document


@pytest.fixture(autouse=True)
def short_blocks(monkeypatch):
    monkeypatch.setattr(live, "BLOCK_MS", 50)  # readers notice "nobody watches" sooner


def parse(messages: list[bytes]) -> list[dict]:
    """The messages' data, each with its ``event`` name (``version`` or ``reset``)."""
    out = []
    for raw in b"".join(messages).decode().strip().split("\n\n") if messages else []:
        fields = dict(line.split(": ", 1) for line in raw.strip().split("\n"))
        data = json.loads(fields["data"])
        assert fields["event"] in ("version", "reset") and int(fields["id"]) == data["version"]
        out.append({**data, "event": fields["event"]})
    return out


class Reader:
    """A subscriber that reads everything it is given (``received``), woken by the hub."""

    def __init__(self, hub: live.Hub, gid: str, after: int, client: str | None = "10.0.0.1"):
        self.woken = threading.Event()
        self.sub = hub.subscribe(gid, after, client, self.woken.set)
        self.received: list[dict] = []

    def read(self) -> bool:
        batch = self.sub.take()
        if batch is None:
            return False
        self.received += parse(batch)
        return True

    def versions(self) -> list[int]:
        return [m["version"] for m in self.received]

    def until(self, version: int, seconds: float = 20) -> list[int]:
        deadline = time.monotonic() + seconds
        while self.read() and (not self.received or self.received[-1]["version"] < version):
            assert time.monotonic() < deadline, f"gave up waiting for version {version}: {self.versions()}"
            self.woken.wait(0.05)
            self.woken.clear()
        return self.versions()


def new_game(runtime) -> tuple[str, dict[int, str]]:
    created = runtime.service.create("murus", [{"name": "Ana"}, {"name": "Bob"}], seed=7)
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def play(runtime, gid: str, moves: int) -> int:
    """Play ``moves`` legal moves (the first legal one each time); returns the version reached."""
    version = 0
    for _ in range(moves):
        game = runtime.games.load(gid)
        seat = game.to_act[0]
        version = runtime.service.command(gid, seat, game.legal(seat)[0])["version"]
    return version


@pytest.fixture
def hub(runtime):
    made = live.Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=None)
    yield made
    made.stop()


def test_every_subscriber_receives_every_version_in_order_with_the_spectator_document(runtime, hub):
    gid, _ = new_game(runtime)
    start = runtime.store.version(gid)
    readers = [Reader(hub, gid, after=start) for _ in range(3)]
    last = play(runtime, gid, 6)
    for reader in readers:
        assert reader.until(last) == list(range(start + 1, last + 1))
        for message in reader.received:
            doc = message["document"]
            assert doc["version"] == message["version"] and doc["you"] is None and doc["legal"] == []
            assert message["text"] and message["type"]
    assert readers[0].received[-1]["document"] == document(runtime.games.load(gid), None)


def test_a_stalled_subscriber_is_dropped_without_holding_back_another_and_its_reconnect_misses_nothing(runtime):
    hub = live.Hub(runtime.games, runtime.store.keys, runtime.redis, buffer_bytes=6000, per_client=None)
    try:
        gid, _ = new_game(runtime)
        start = runtime.store.version(gid)
        stalled = Reader(hub, gid, after=start)  # never reads
        reader = Reader(hub, gid, after=start)
        last = start
        for _ in range(8):
            last = play(runtime, gid, 1)
            reader.until(last)
        assert reader.versions() == list(range(start + 1, last + 1))
        assert stalled.sub.take() is None and hub.drops == 1  # dropped: its stream ends, the client reconnects
        hub.unsubscribe(stalled.sub)
        again = Reader(hub, gid, after=start)  # Last-Event-ID: the last version it had received
        assert again.until(last) == list(range(start + 1, last + 1))
    finally:
        hub.stop()


def test_a_stream_further_behind_than_the_recent_messages_starts_with_one_reset_message(runtime):
    """docs/api.md "Live updates": the current version and the spectator's document once, instead of every version
    in between; nothing is read from the store for it."""
    hub = live.Hub(runtime.games, runtime.store.keys, runtime.redis, catch_up=3, per_client=None)
    try:
        gid, _ = new_game(runtime)
        watcher = Reader(hub, gid, after=runtime.store.version(gid))  # keeps the game watched
        last = play(runtime, gid, 10)
        watcher.until(last)
        reads = []
        real = runtime.store.read
        runtime.store.read = lambda *a, **k: reads.append(a) or real(*a, **k)
        late = Reader(hub, gid, after=1)
        assert reads == [] and [m["event"] for m in late.received] == []  # queued, not yet taken
        late.read()
        assert [(m["event"], m["version"]) for m in late.received] == [("reset", last)]
        assert late.received[0]["document"] == document(runtime.games.load(gid), None)
        recent = Reader(hub, gid, after=last - 2)  # within the recent messages: each version
        recent.read()
        assert [(m["event"], m["version"]) for m in recent.received] == [("version", last - 1), ("version", last)]
        more = play(runtime, gid, 1)
        assert late.until(more)[-1] == more and late.received[-1]["event"] == "version"  # then goes on from there
    finally:
        hub.stop()


def test_a_subscriber_joins_while_a_reader_is_busy_with_the_game(runtime, hub):
    """The catch-up is built under no lock a reader holds while it reads and folds new versions."""
    gid, _ = new_game(runtime)
    first = Reader(hub, gid, after=runtime.store.version(gid))
    watched = hub._games[gid]
    with watched.advancing:  # a reader in the middle of a slow fold of this game
        joined = []
        opener = threading.Thread(target=lambda: joined.append(Reader(hub, gid, after=0)))
        opener.start()
        opener.join(20)
        assert joined, "a new stream waited for the reader"
    last = play(runtime, gid, 2)
    assert first.until(last)[-1] == last and joined[0].until(last)[-1] == last


def test_a_stream_opened_from_nothing_starts_at_version_one(runtime, hub):
    gid, _ = new_game(runtime)
    last = play(runtime, gid, 2)
    reader = Reader(hub, gid, after=0)
    assert reader.until(last) == list(range(1, last + 1))
    assert [m["type"] for m in reader.received] == [e["type"] for e in runtime.games.events(gid, None)]


def test_the_cap_per_client_counts_open_streams(runtime):
    hub = live.Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=2)
    try:
        gid, _ = new_game(runtime)
        first, second = Reader(hub, gid, 0, "10.0.0.1"), Reader(hub, gid, 0, "10.0.0.1")
        with pytest.raises(errors.TooMany) as refused:
            Reader(hub, gid, 0, "10.0.0.1")
        assert refused.value.status == 429 and "at most 2 open streams" in refused.value.message
        Reader(hub, gid, 0, "10.0.0.2")  # another client
        hub.unsubscribe(first.sub)
        Reader(hub, gid, 0, "10.0.0.1")  # a closed stream frees its place
        assert hub.open_streams("10.0.0.1") == 2 and second.sub.take() is not None
        with pytest.raises(errors.NotFound):  # no such game: refused, and not counted
            Reader(hub, "nosuchgame00", 0, "10.0.0.3")
        assert hub.open_streams("10.0.0.3") == 0
    finally:
        hub.stop()


def test_readers_run_only_while_somebody_watches(runtime, hub):
    gid, _ = new_game(runtime)
    reader = Reader(hub, gid, after=0)
    assert hub.running() == runtime.store.keys.partitions
    hub.unsubscribe(reader.sub)
    deadline = time.monotonic() + 20
    while hub.running():
        assert time.monotonic() < deadline, "the readers did not stop"
        time.sleep(0.02)
    again = Reader(hub, gid, after=runtime.store.version(gid))  # and start again, missing nothing
    last = play(runtime, gid, 2)
    assert again.until(last)[-1] == last


def test_a_long_catch_up_does_not_count_against_the_buffer_before_it_is_read(runtime):
    hub = live.Hub(runtime.games, runtime.store.keys, runtime.redis, buffer_bytes=3000, per_client=None)
    try:
        gid, _ = new_game(runtime)
        watcher = Reader(hub, gid, after=runtime.store.version(gid))
        for _ in range(5):  # read as they come (never 3,000 bytes behind, never dropped): the game stays watched
            last = play(runtime, gid, 1)
            assert watcher.until(last)[-1] == last
        late = Reader(hub, gid, after=0)  # six versions to catch up with, more than its buffer
        last = play(runtime, gid, 1)  # published before it reads anything
        assert late.until(last) == list(range(1, last + 1))
    finally:
        hub.stop()


def test_the_cap_counts_the_streams_of_every_web_process_and_a_dead_ones_expire(runtime, monkeypatch):
    # Leases of 2 s, renewed every third of that by readers that look up every 50 ms: a lease lapses only when a
    # process stops renewing it (a busy machine's pauses are far shorter than the 1.3 s of slack), not by chance.
    monkeypatch.setattr(live, "LEASE_MS", 2000)
    monkeypatch.setattr(live, "BLOCK_MS", 50)
    one, two = (live.Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=2) for _ in range(2))
    try:
        gid, _ = new_game(runtime)
        Reader(one, gid, 0, "10.0.0.7")
        kept = Reader(two, gid, 0, "10.0.0.7")  # the same client on another process
        with pytest.raises(errors.TooMany):
            Reader(one, gid, 0, "10.0.0.7")
        time.sleep(2.5)  # longer than a lease: the open streams' leases are renewed by their processes' readers
        with pytest.raises(errors.TooMany):
            Reader(two, gid, 0, "10.0.0.7")
        one.stop()  # the first process dies with its stream open: its place frees when the lease expires
        deadline = time.monotonic() + 20
        while True:
            try:
                Reader(two, gid, 0, "10.0.0.7")
                break
            except errors.TooMany:
                assert time.monotonic() < deadline, "a dead process's stream kept its place"
                time.sleep(0.05)
        two.unsubscribe(kept.sub)  # a closed stream frees its place at once
        Reader(two, gid, 0, "10.0.0.7")
    finally:
        one.stop()
        two.stop()


def test_readers_let_the_requests_of_their_process_finish_before_they_publish(runtime):
    hub = live.Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=None, patience=60)
    try:
        gid, _ = new_game(runtime)
        reader = Reader(hub, gid, after=runtime.store.version(gid))
        hub.answering.begin()  # a command being answered (its version is appended before its answer is sent)
        last = play(runtime, gid, 1)
        time.sleep(0.5)
        reader.read()
        assert reader.versions() == []  # held back while the request is answered
        hub.answering.end()  # answered: the version goes out at once, not after the patience
        assert reader.until(last, seconds=20) == [last]
    finally:
        hub.stop()


def test_a_request_that_does_not_finish_delays_the_watchers_by_the_patience_at_most(runtime):
    hub = live.Hub(runtime.games, runtime.store.keys, runtime.redis, per_client=None, patience=0.05)
    try:
        gid, _ = new_game(runtime)
        start = runtime.store.version(gid)
        reader = Reader(hub, gid, after=start)
        hub.answering.begin()  # never ends
        last = play(runtime, gid, 3)
        assert reader.until(last) == list(range(start + 1, last + 1))
    finally:
        hub.stop()


def notes(sub) -> list[dict]:
    """The notifications an account's stream has been given so far (``id`` and data)."""
    batch = sub.take() or []
    out = []
    for raw in b"".join(batch).decode().strip().split("\n\n") if batch else []:
        fields = dict(line.split(": ", 1) for line in raw.strip().split("\n"))
        assert fields["event"] == "notification"
        out.append({**json.loads(fields["data"]), "sse_id": fields["id"]})
    return out


def test_an_accounts_stream_gets_its_notifications_live_and_resumes_after_the_last_it_had(runtime, hub):
    """Every tab and device of an account: each stream gets every notification once, in order; a reconnect with
    the last id it had gets what came since, from the account's own stream."""
    woken = threading.Event()
    tabs = [hub.subscribe_account("ann", None, "10.0.0.1", woken.set) for _ in range(2)]
    other = hub.subscribe_account("ben", None, "10.0.0.2", woken.set)
    first = hub.notifications.to_account("ann", "challenge", id="c1", **{"from": "ben"}, game="murus")
    second = hub.notifications.to_account("ann", "your_turn", game="abcdefabcdef")
    deadline = time.monotonic() + 20
    got = [[] for _ in tabs]
    while any(len(g) < 2 for g in got):
        assert time.monotonic() < deadline, got
        woken.wait(0.05)
        woken.clear()
        for g, tab in zip(got, tabs):
            g += notes(tab)
    for g in got:
        assert [(n["sse_id"], n["type"]) for n in g] == [(first, "challenge"), (second, "your_turn")]
    assert notes(other) == []
    hub.unsubscribe(tabs[1])
    third = hub.notifications.to_account("ann", "game_over", game="abcdefabcdef", result={"winners": [0]})
    again = hub.subscribe_account("ann", first, "10.0.0.1", woken.set)  # Last-Event-ID: the first
    deadline = time.monotonic() + 20
    resumed = notes(again)
    while len(resumed) < 2:
        assert time.monotonic() < deadline, resumed
        woken.wait(0.05)
        resumed += notes(again)
    assert [n["sse_id"] for n in resumed] == [second, third]


def test_a_games_notices_reach_its_notice_streams_and_never_its_stream_of_versions(runtime, hub):
    gid, _ = new_game(runtime)
    reader = Reader(hub, gid, after=runtime.store.version(gid))
    woken = threading.Event()
    notices = hub.subscribe_notices(gid, "10.0.0.5", woken.set)
    hub.notifications.to_game(gid, "chat", room="players", id="1-0")
    deadline = time.monotonic() + 20
    text = b""
    while b"event: notice" not in text:
        assert time.monotonic() < deadline
        woken.wait(0.05)
        woken.clear()
        text += b"".join(notices.take() or [])
    block = next(b for b in text.decode().split("\n\n") if "event: notice" in b)
    assert "id:" not in block and json.loads(block.split("data: ", 1)[1]) == {"type": "chat", "room": "players",
                                                                            "id": "1-0"}
    assert reader.sub.take() == []  # a game's stream carries its versions and nothing else
    with pytest.raises(errors.NotFound):
        hub.subscribe_notices("abcdefabcdef", "10.0.0.5", woken.set)
