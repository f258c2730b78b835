"""The game page's live updates (#14): a spectator's page renders each move from the stream alone (the stream
carries the spectator's document), with no request per move; a seat's page fetches only its own document."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

PLAYERS = [{"name": "Ana"}, {"name": "Bo"}]


def legal_move(server, gid: str, tokens: dict[int, str], version: int) -> dict:
    doc = server.api("GET", f"/api/games/{gid}?min_version={version}")
    seat = doc["to_act"][0]
    mine = server.api("GET", f"/api/games/{gid}?min_version={version}", token=tokens[seat])
    return server.api("POST", f"/api/games/{gid}/commands", {"move": mine["legal"][0]}, token=tokens[seat])


def test_a_spectator_page_renders_moves_from_the_stream_without_fetching(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": PLAYERS})
    watch.add_seats(created)
    gid, version = created["id"], created["version"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    page = new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"/games/{gid}")
    expect(page.locator("#seat-tools")).to_contain_text("You are watching")
    expect(page.locator("#status")).not_to_have_text("Loading…")
    page.wait_for_timeout(300)  # the stream connects
    requests.clear()
    listed = page.locator("#moves li").count()
    for _ in range(3):
        answer = legal_move(server, gid, tokens, version)
        version = answer["version"]
        listed += len(answer["events"])
        expect(page.locator("#moves li")).to_have_count(listed)
        expect(page.locator("#moves")).to_contain_text(answer["events"][-1]["text"])
    doc_requests = [url for url in requests if f"/api/games/{gid}" in url and "/stream" not in url]
    assert doc_requests == [], doc_requests  # the documents and the moves came with the stream


@pytest.mark.smoke
def test_a_seat_page_fetches_only_its_own_document(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": PLAYERS})
    watch.add_seats(created)
    gid, version = created["id"], created["version"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    page = new_page()
    page.goto(f"/games/{gid}#token={tokens[1]}")  # the Gauls' page: the Romans move first
    expect(page.locator("#status")).to_contain_text("Waiting")
    page.wait_for_timeout(300)
    sent = []  # the requests (their headers are read afterwards, not in the event handler)
    page.on("request", lambda request: sent.append(request) if f"/api/games/{gid}?" in request.url
            or request.url.endswith(f"/api/games/{gid}") else None)
    with page.expect_request(lambda request: f"/api/games/{gid}?" in request.url):
        legal_move(server, gid, tokens, version)
    expect(page.locator("#status")).to_contain_text("Your turn")
    headers = [request.all_headers() for request in sent]
    assert headers and all(h.get("authorization") == f"Bearer {tokens[1]}" for h in headers)
