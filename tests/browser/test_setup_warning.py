"""Fair hidden information on the page: a seed or a position the creator chose is shown to the other players."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
PLAYERS = [{"name": "Ana"}, {"name": "Ben"}]


def test_the_other_players_are_warned_of_a_chosen_seed(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": PLAYERS, "seed": 424242})
    watch.add_seats(created)
    gid, (ana, ben) = created["id"], [s["token"] for s in created["seats"]]
    page = new_page()
    page.goto(f"/games/{gid}#token={ben}")
    warning = page.locator("#setup-warning")
    expect(warning).to_contain_text("Ana (seat 0) chose the random seed (424242)")
    expect(warning).to_contain_text("unrated")
    page = new_page()
    page.goto(f"/games/{gid}")  # a spectator
    expect(page.locator("#setup-warning")).to_contain_text("Warning: Ana (seat 0) chose")
    page = new_page()
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#setup-warning")).to_contain_text("You chose the random seed")


def test_no_warning_when_the_server_chose(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": PLAYERS})
    watch.add_seats(created)
    page = new_page()
    page.goto(f"/games/{created['id']}#token={created['seats'][1]['token']}")
    expect(page.locator("#status")).not_to_have_text("Loading…")
    expect(page.locator("#setup-warning")).to_have_count(0)
