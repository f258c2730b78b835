"""Murus in the browser: lobby → two players on two pages and a spectator, live updates, keyboard play, the win,
the replay; a game against the AI at phone width; errors in words (illegal move, stale version)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import create_from_lobby, current_version, game_id, replay_to_start, wait_version

pytestmark = pytest.mark.browser

# Romans break through in their second move: c3-c5, (Gauls h7-h5), a5-a7 reaches the Gauls' home row (MS-6).
QUICK_WIN = {"turn": "romans", "cells": {"c3": "RR", "a5": "RR", "h7": "GG", "e6": "GG"}}


def click_move(page, frm: str, to: str) -> None:
    page.click(f'#board [data-cell="{frm}"]')
    expect(page.locator(f'#board [data-cell="{frm}"]')).to_have_attribute("aria-pressed", "true")
    page.click(f'#board [data-cell="{to}"]')


def test_two_pages_and_a_spectator_play_to_the_end_live(new_page, watch):
    host = new_page()
    summary = create_from_lobby(host, "murus", [("Ana", ""), ("<b>Bo</b>", "")], position=QUICK_WIN)
    gid = game_id(summary)
    host.get_by_role("button", name="Play all 2 players here (one screen)").click()
    expect(host.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    assert "#" not in host.url

    # Hand the second player over: copy their link, stop playing them here, open it elsewhere.
    host.get_by_role("button", name="Copy the link that plays <b>Bo</b> (Gauls)").click()
    link = host.evaluate("navigator.clipboard.readText()")
    assert f"/games/{gid}#token=" in link
    host.get_by_role("button", name="Stop playing <b>Bo</b> (Gauls) here").click()
    guest = new_page()
    guest.goto(link)
    expect(guest.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    assert "#" not in guest.url and "token" not in guest.url
    expect(guest.locator("#players .mine .seat-name")).to_have_text("<b>Bo</b> (Gauls)")  # escaped, not markup

    spectator = new_page()
    spectator.goto(f"/games/{gid}")
    expect(spectator.locator("#seat-tools")).to_contain_text("You are watching")
    expect(spectator.locator("#legal button")).to_have_count(0)

    # Romans: click a tower, its destinations light up, click one.
    host.click('#board [data-cell="c3"]')
    expect(host.locator("#board .hint")).to_have_count(7)
    host.click('#board [data-cell="c5"]')
    expect(guest.locator("#status")).to_have_text("Your turn: <b>Bo</b> (Gauls).")
    expect(spectator.locator("#moves")).to_contain_text("Ana: c3-c5")

    # Gauls by keyboard only.
    guest.focus('#board [data-cell="h7"]')
    guest.keyboard.press("Enter")
    expect(guest.locator('#board [data-cell="h7"]')).to_have_attribute("aria-pressed", "true")
    guest.focus('#board [data-cell="h5"]')
    guest.keyboard.press("Enter")
    expect(host.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    expect(spectator.locator("#moves")).to_contain_text("<b>Bo</b>: h7-h5")

    click_move(host, "a5", "a7")
    for page in (host, guest, spectator):
        expect(page.locator("#result")).to_contain_text("Ana (Romans) wins")
        expect(page.locator("#status")).to_have_text("The game is over.")
    shot(host, "murus-finished")

    replay_to_start(spectator)
    expect(spectator.locator('#board [data-cell="c3"] ellipse')).to_have_count(2)
    expect(spectator.locator('#board [data-cell="a7"] ellipse')).to_have_count(0)
    shot(spectator, "murus-replay-start")
    spectator.click("#replay-live")
    expect(spectator.locator("#replay-banner")).to_be_hidden()
    assert watch.tokens, "the lobby's answer was seen"


def test_against_the_ai_at_phone_width(new_page):
    page = new_page(width=390, height=844)
    create_from_lobby(page, "murus", [("Ana", ""), ("Bot", "normal")])  # it searches for most of a second
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    shot(page, "murus-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("""() => {
        const status = document.getElementById("status");
        new MutationObserver(() => {
            if (status.textContent.includes("thinking…")) window.sawThinking = status.textContent;
        }).observe(status, {childList: true, characterData: true, subtree: true});
    }""")
    click_move(page, "d1", "d3")
    wait_version(page, 3)  # the AI answered
    assert page.evaluate("window.sawThinking") == "Bot (Gauls) thinking…"
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    expect(page.locator("#moves li")).to_have_count(3)
    expect(page.locator("#moves")).to_contain_text("Bot: ")
    assert current_version(page) == 3


@pytest.mark.smoke
def test_errors_are_shown_in_words(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    page = new_page()
    # No live updates: this page falls behind. Its stream is held open and silent, not refused: a refused stream
    # makes the page "offline", and an offline page asks for the game every 3 s, which under load could see the
    # move below before the click it is meant to refuse.
    page.route("**/stream*", lambda route: None)
    page.goto(f"/games/{gid}#token={token}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")

    page.fill("#typed-move", "a1-a5")
    page.click("#typed button")
    expect(page.locator("#message")).to_be_visible()
    message = page.locator("#message").inner_text()
    assert "a1" in message or "a5" in message, message

    page.fill("#typed-move", "")
    assert server.api("POST", f"/api/games/{gid}/commands", {"move": "a1-a3"}, token=token)["version"] == 2
    click_move(page, "b1", "b3")
    expect(page.locator("#message")).to_have_text("The game moved on; the board is refreshed.")
    expect(page.locator("#status")).to_have_text("Waiting for Bo (Gauls).")
    expect(page.locator('#board [data-cell="a3"] ellipse')).to_have_count(1)


def test_a_wrong_link_falls_back_to_watching(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
    watch.add_seats(created)
    page = new_page()
    page.goto(f"/games/{created['id']}#token=not-a-real-token")
    expect(page.locator("#message")).to_contain_text("not valid for this game")
    expect(page.locator("#seat-tools")).to_contain_text("You are watching")
    assert page.evaluate(f"sessionStorage.getItem('burrow:tokens:{created['id']}')") is None
    page.goto("/games/no-such-game")
    expect(page.locator("h1")).to_have_text("No such game")
