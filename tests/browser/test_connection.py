"""#16 item 7: during a server outage the page says the connection is lost (not "Your turn"; #30: once), and when
the server is back it says nothing more, shows the live game again and plays on. A private server, stopped and
started again on the same port with the same data (the embedded journal keeps the game)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, shot

pytestmark = pytest.mark.browser


def test_connection_lost_then_recovered(new_page, watch):
    server = Server().start()
    try:
        created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
        watch.add_seats(created)
        gid, ana = created["id"], created["seats"][0]["token"]
        page = new_page()
        page.goto(f"{server.url}/games/{gid}#token={ana}")
        expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")

        server.halt()
        banner = page.locator("#connection-banner")
        expect(banner).to_be_visible(timeout=15_000)
        # #30: one message (the banner), not three: the status line (no "Your turn" on a board that may be out of
        # date) and the failed request's "cannot be reached" say nothing.
        expect(page.locator("#status")).to_be_hidden()
        expect(page.locator("#message")).to_be_hidden()
        assert page.get_by_text("Connection lost").count() == 1
        expect(page).to_have_title("Connection lost — Murus Gallicus — Burrow")
        expect(page.locator("#board [role=button]")).to_have_count(0)  # nothing to play while it is lost
        page.click('#board [data-cell="c1"]')
        expect(page.locator("#board-feedback")).to_contain_text("The connection is lost")
        shot(page, "connection-lost")

        server.start()
        expect(banner).to_be_hidden(timeout=20_000)
        expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
        expect(page.locator("#message")).to_be_hidden()
        page.click('#board [data-cell="c1"]')
        page.click('#board [data-cell="c3"]')
        expect(page.locator("#status")).to_have_text("Waiting for Bo (Gauls).")
        assert not any(token in server.log() for token in watch.tokens)
    finally:
        server.stop()
