"""The lobby: the live list of games and its filters, the per-game form (options, seat counts, AI levels),
errors in words, options reaching the game, and a seat's link copied from the lobby."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import game_id

pytestmark = pytest.mark.browser


def test_the_list_refreshes_and_filters(new_page, server, watch):
    page = new_page()
    page.goto("/")
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Zoé"}, {"name": "Yann"}]})
    watch.add_seats(created)
    item = page.locator(f'#games a[data-key="{created["id"]}"]')
    expect(item).to_contain_text("Zoé vs Yann", timeout=8000)  # polled every few seconds
    expect(item).to_contain_text("Running: Zoé to play")
    page.get_by_role("button", name="Finished", exact=True).click()
    expect(item).to_have_count(0)
    page.get_by_role("button", name="Running", exact=True).click()
    expect(item).to_have_count(1)
    expect(page.get_by_role("button", name="Running", exact=True)).to_have_attribute("aria-pressed", "true")
    shot(page, "lobby")


def test_the_form_follows_the_game_and_explains_errors(new_page):
    page = new_page()
    page.goto("/")
    page.select_option("#game-choice", "squirrels")
    page.click("#more-options summary")  # the options are folded
    expect(page.locator('#options [data-option="packs"]')).to_be_visible()
    expect(page.locator("#seats > li")).to_have_count(2)
    page.click("#add-seat")
    page.click("#add-seat")
    expect(page.locator("#seats > li")).to_have_count(4)
    expect(page.locator("#add-seat")).to_be_disabled()
    page.select_option("#game-choice", "murus")
    expect(page.locator("#seats > li")).to_have_count(2)
    expect(page.locator("#add-seat")).to_be_hidden()
    kinds = page.locator("#seats > li").first.locator(".seat-kind option")
    expect(kinds.filter(has_text="Computer — hard")).to_have_count(1)

    page.click("details.advanced summary")
    page.fill("#position", "{not json")
    page.click("#create-button")
    expect(page.locator("#create-error")).to_contain_text("The starting position is not valid JSON")
    page.fill("#position", '{"turn": "romans", "cells": {"a1": "RRRR"}}')
    page.click("#create-button")
    expect(page.locator("#create-error")).to_contain_text("The starting position (at cells")  # the server's reason
    expect(page.locator("#create-error")).not_to_contain_text("position.cells")
    expect(page.locator("#position")).to_have_attribute("aria-invalid", "true")
    page.fill("#position", "")
    page.locator("#seats .seat-name").first.fill("")
    page.click("#create-button")
    expect(page.locator("#create-error")).to_have_text("Player 1 needs a name.")
    expect(page.locator("#seats .seat-name").first).to_be_focused()


def test_form_errors_are_sentences_not_field_names(new_page):
    """#16 item 8: "options.max_plies: must be a positive integer or null, not 0" is said in the form's words."""
    page = new_page()
    page.goto("/")
    page.click("#more-options summary")
    page.fill('#options [data-option="max_plies"]', "0")
    page.click("#create-button")  # caught before asking the server
    error = page.locator("#create-error")
    expect(error).to_contain_text("“End in a draw after this many moves")
    expect(error).to_contain_text("a whole number above 0, or leave it empty")
    expect(page.locator('#options [data-option="max_plies"]')).to_have_attribute("aria-invalid", "true")
    # The server's own message, translated: the same words whatever the client checked first.
    page.route("**/api/games", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body='{"error": {"code": "unprocessable", "message": '
             '"options.max_plies: must be a positive integer or null, not 0"}}')
        if route.request.method == "POST" else route.continue_())
    page.fill('#options [data-option="max_plies"]', "")
    page.click("#create-button")
    expect(error).to_have_text("“End in a draw after this many moves (empty: never)”: must be a whole number "
                               "above 0, or left empty (you gave 0).")
    assert "options." not in error.inner_text()


@pytest.mark.smoke
def test_lobby_rows_and_an_empty_filter(new_page, server, watch):
    """#16 item 9: a row's title stays on one line; an empty filter does not say "No games yet"."""
    players = [{"name": "Ana"}, {"name": "Bo"}]
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": players})
    watch.add_seats(created)
    page = new_page()
    page.route("**/api/games?status=finished*", lambda route: route.fulfill(
        status=200, content_type="application/json", body='{"games": [], "next": null}'))
    page.goto("/")
    title = page.locator(f'#games a[data-key="{created["id"]}"] .game-title')
    expect(title).to_have_text("Mouse Guard: Swords & Strongholds")
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.game-title')).lineHeight) || 22")
    assert title.bounding_box()["height"] < 1.6 * line, "the title wraps"
    page.get_by_role("button", name="Finished", exact=True).click()
    expect(page.locator("#games-status")).to_have_text("No finished games right now.")
    page.get_by_role("button", name="All", exact=True).click()
    expect(page.locator("#games-status")).not_to_contain_text("No")
    shot(page, "lobby-rows")


def test_options_reach_the_game_and_a_link_is_copied(new_page):
    page = new_page()
    page.goto("/")
    page.click("#more-options summary")
    page.select_option('#options [data-option="variant"]', "advanced")
    page.locator("#seats .seat-name").nth(0).fill("Ana")
    page.locator("#seats .seat-name").nth(1).fill("Bo")
    page.click("#create-button")
    expect(page.locator("#created")).to_be_visible()
    summary = page.locator("#created-summary").inner_text()
    gid = game_id(summary)
    page.get_by_role("button", name="Copy Bo's link").click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert f"/games/{gid}#token=" in link
    guest = new_page()
    guest.goto(link)
    expect(guest.locator("#board .board-info")).to_contain_text("Advanced variant")
    expect(guest.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    page.get_by_role("button", name="Play Ana here").click()
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.goto("/")
    expect(page.locator(f'#games a[data-key="{gid}"]')).to_contain_text("you play here")
