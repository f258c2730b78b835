"""``GET /metrics`` (docs/api.md, "Operations"), scraped through the whole front and read with Prometheus's own
parser: a burst of commands moves the counters and histograms by exactly that burst."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from burrow.runtime import build
from services.config import Settings, allowed, networks
from tests.web.site import Site

COMMANDS = "/api/games/<gid>/commands"


def samples(site: Site) -> dict[tuple[str, tuple], float]:
    """Every sample of a scrape: (name, sorted labels) → value."""
    r = site.get("/metrics")
    assert r.status_code == 200, r.data
    assert r.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(r.get_data(as_text=True)):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def moved(before: dict, after: dict, name: str, **labels) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


@pytest.fixture
def site(runtime):
    site = Site(runtime)
    yield site
    site.close()


def test_a_burst_of_commands_moves_the_counters_by_exactly_the_burst(site):
    game = site.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}).json
    gid, (t0, t1) = game["id"], [s["token"] for s in game["seats"]]
    before = samples(site)
    burst = [(t0, "a1-a3", 200), (t0, "a1-a2", 403), (t1, "a7-a5", 200), (t1, "hello", 403),
             (t0, "a1-a2", 422), (t0, "zzz", 400), (t0, "a1-a2", 422)]
    for token, move, status in burst:
        r = site.post(f"/api/games/{gid}/commands", json={"move": move},
                      headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == status, (move, r.json)
    after = samples(site)
    outcomes = {"ok": 2, "not_your_turn": 2, "illegal_move": 2, "bad_notation": 1}
    for outcome, count in outcomes.items():
        assert moved(before, after, "burrow_commands_total", game="murus", outcome=outcome) == count, outcome
    assert moved(before, after, "burrow_command_seconds_count", game="murus") == len(burst)
    assert moved(before, after, "burrow_command_seconds_bucket", game="murus", le="+Inf") == len(burst)
    assert moved(before, after, "burrow_command_seconds_sum", game="murus") > 0
    for status, count in (("200", 2), ("403", 2), ("422", 2), ("400", 1)):
        assert moved(before, after, "burrow_http_requests_total", route=COMMANDS, status=status) == count, status
    # The scrape itself was counted (the one before; this one's own after it is answered), under its route.
    assert moved(before, after, "burrow_http_requests_total", route="/metrics", status="200") == 1


def test_routes_are_templates_never_paths(site):
    for gid in ("aaaaaaaaaaaa", "bbbbbbbbbbbb", "nosuch"):
        site.get(f"/api/games/{gid}")
    site.get("/no/such/page/at/all")
    names = {dict(labels).get("route") for (name, labels) in samples(site) if name == "burrow_http_requests_total"}
    assert "/api/games/<gid>" in names and "unmatched" in names
    assert not any(r and ("aaaa" in r or "nosuch" in r or "/no/such" in r) for r in names)


def test_state_read_from_redis_at_the_scrape(site, runtime):
    found = samples(site)
    assert found[("burrow_redis_up", (("redis", "events"),))] == 1
    assert found[("burrow_redis_roundtrip_seconds", (("redis", "events"),))] >= 0
    for kind in ("project", "ai", "analysis"):
        assert ("burrow_queue_jobs", (("queue", kind),)) in found
        assert ("burrow_workers", (("queue", kind),)) in found
    assert ("burrow_dead_letters", (("partition", "0"),)) in found
    runtime.jobs.queue("ai").enqueue("workers.jobs.ai_turn", "x", 0, 1)
    assert samples(site)[("burrow_queue_jobs", (("queue", "ai"),))] == found[("burrow_queue_jobs",
                                                                               (("queue", "ai"),))] + 1


def test_live_streams_gauge_counts_open_streams(site):
    game = site.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Bob"}]}).json
    streams = site.front.state.streams
    gauge, seen = streams.live, []

    class Watching:
        def inc(self):
            gauge.inc()
            seen.append(samples(site)[("burrow_live_streams", ())])

        def dec(self):
            gauge.dec()

    streams.live = Watching()
    site.get(f"/api/games/{game['id']}/stream")
    assert seen == [1]  # open while it streamed
    assert samples(site)[("burrow_live_streams", ())] == 0  # and closed after


def test_only_allowed_addresses_read_it(runtime):
    outside = Site(runtime, client="203.0.113.9")
    try:
        r = outside.get("/metrics")
        assert r.status_code == 403 and r.json["error"]["code"] == "forbidden"
        assert Site(runtime, client="10.1.2.3").get("/metrics").status_code == 200
    finally:
        outside.close()


def test_off_means_no_route(prefix, tmp_path):
    rt = build(Settings(prefix=prefix, data_dir=str(tmp_path), metrics=False), journal=False)
    site = Site(rt)
    try:
        assert site.get("/metrics").status_code == 404
    finally:
        site.close()


def test_allow_list_parsing():
    allow = networks("10.0.0.0/8, 192.0.2.7,::1")
    assert allowed("10.9.9.9", allow) and allowed("192.0.2.7", allow) and allowed("::1", allow)
    assert not allowed("192.0.2.8", allow) and not allowed("testclient", allow) and not allowed(None, allow)
    assert allowed("::ffff:10.1.1.1", allow)  # an IPv4 client on a dual-stack socket
    with pytest.raises(ValueError):
        networks("10.0.0.0/8, example.org")
