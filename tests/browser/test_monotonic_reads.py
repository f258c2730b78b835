"""Monotonic reads on the page: an answer older than what the page already shows (a lagging projection, an answer
overtaken by a newer one) never takes the page back; the page asks with ``min_version``."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import current_version, wait_version

pytestmark = pytest.mark.browser


def test_an_older_answer_never_takes_the_page_back(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
    watch.add_seats(created)
    gid, ana, bo = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    page = new_page()
    page.goto(f"/games/{gid}#token={bo}")
    wait_version(page, 1)
    stale = server.api("GET", f"/api/games/{gid}", token=bo)  # version 1, as Bo sees it
    assert server.api("POST", f"/api/games/{gid}/commands", {"move": "a1-a3"}, token=ana)["version"] == 2
    wait_version(page, 2)
    expect(page.locator("#status")).to_contain_text("Your turn")

    asked = []

    def old_answer(route):  # every document request now gets version 1, as a lagging projection would give
        asked.append(route.request.url)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(stale))

    page.route(lambda url: url.split("?")[0].endswith(f"/api/games/{gid}"), old_answer)
    assert server.api("POST", f"/api/games/{gid}/commands", {"move": "a7-a5"}, token=bo)["version"] == 3
    # The stream's message makes the page fetch its document (version 1 here), then the new moves, then render.
    expect(page.locator("#moves")).to_contain_text("a7-a5")
    assert asked and all("min_version=3" in url for url in asked), asked
    assert current_version(page) >= 2
    expect(page.locator("#status")).to_contain_text("Your turn")  # not version 1's "Waiting for Ana"
