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
    expect(warning).to_contain_text("Ana chose the random seed (424242)")
    expect(warning).to_contain_text("unrated")
    page = new_page()
    page.goto(f"/games/{gid}")  # a spectator
    expect(page.locator("#setup-warning")).to_contain_text("Warning: Ana chose")
    page = new_page()
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#setup-warning")).to_contain_text("You chose the random seed")


@pytest.mark.smoke
def test_no_warning_when_the_server_chose(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": PLAYERS})
    watch.add_seats(created)
    page = new_page()
    page.goto(f"/games/{created['id']}#token={created['seats'][1]['token']}")
    expect(page.locator("#status")).not_to_have_text("Loading…")
    expect(page.locator("#setup-warning")).to_have_count(0)


def test_the_other_player_is_warned_of_a_chosen_murus_position(new_page, server, watch):
    """Murus hides nothing, but a position its creator chose may be a trap: the warning says so, sensibly."""
    position = {"turn": "romans", "cells": {"d5": "RR", "a1": "RR", "h7": "GG", "a7": "GG"}}
    created = server.api("POST", "/api/games", {"game": "murus", "players": PLAYERS, "position": position})
    watch.add_seats(created)
    page = new_page()
    page.goto(f"/games/{created['id']}#token={created['seats'][1]['token']}")
    warning = page.locator("#setup-warning")
    expect(warning).to_contain_text("Ana chose the starting position of this game, which they may have "
                                    "studied in advance")
    expect(warning).not_to_contain_text("dice")
    expect(warning).to_contain_text("unrated")
