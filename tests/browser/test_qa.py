"""Bugs found by play-testing the pages (#16 qa), each checked where a person would have seen it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["squirrels", "commando", "mouseguard"])
def test_an_open_seat_is_called_open_never_undefined_or_seat_n(server, new_page, watch, game):
    seats = 3 if game != "mouseguard" else 2
    players = [{"name": "Ana"}, {"open": True}] + [{"name": "Cy", "ai": "easy"}] * (seats - 2)
    created = server.api("POST", "/api/games", {"game": game, "players": players})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    page = new_page()
    page.goto(f"/games/{gid}#token={token}")
    expect(page.locator("#players")).to_contain_text("Open seat")
    expect(page.locator("#players")).not_to_contain_text("Seat 1")
    expect(page.locator("#board")).to_be_visible()
    assert "undefined" not in page.locator("#board").inner_text()
    assert "undefined" not in page.locator("#moves").inner_text()

    page.goto("/")  # the lobby's list of games: not "Ana vs " with nothing after it
    row = page.locator("#games li", has_text=gid)
    expect(row.locator(".game-players")).to_contain_text("Ana vs (open)")


def test_a_draw_offer_is_told_to_the_other_player_who_accepts_it(server, new_page, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    gid, (ana_seat, ben_seat) = created["id"], created["seats"]
    ana, ben = new_page(), new_page()
    ana.goto(f"/games/{gid}#token={ana_seat['token']}")
    ben.goto(f"/games/{gid}#token={ben_seat['token']}")
    expect(ben.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    ana.get_by_role("button", name="Offer a draw").click()
    expect(ben.locator("#table-note")).to_have_text("A draw is offered: accept or decline it.")
    ben.get_by_role("button", name="Accept the draw").click()
    expect(ana.locator("#result")).to_contain_text("agree a draw")
    expect(ben.locator("#table-note")).to_have_text("")
