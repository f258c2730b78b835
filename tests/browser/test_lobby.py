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
    page.get_by_role("button", name="Finished").click()
    expect(item).to_have_count(0)
    page.get_by_role("button", name="Running").click()
    expect(item).to_have_count(1)
    expect(page.get_by_role("button", name="Running")).to_have_attribute("aria-pressed", "true")
    shot(page, "lobby")


def test_the_form_follows_the_game_and_explains_errors(new_page):
    page = new_page()
    page.goto("/")
    page.select_option("#game-choice", "squirrels")
    expect(page.locator('#options [data-option="packs"]')).to_be_visible()
    expect(page.locator("#seats > li")).to_have_count(2)
    page.click("#add-seat")
    page.click("#add-seat")
    expect(page.locator("#seats > li")).to_have_count(4)
    expect(page.locator("#add-seat")).to_be_disabled()
    page.select_option("#game-choice", "murus")
    expect(page.locator("#seats > li")).to_have_count(2)
    expect(page.locator("#add-seat")).to_be_hidden()
    expect(page.locator("#seats > li").first.locator(".seat-kind option")).to_have_count(4)

    page.click("details.advanced summary")
    page.fill("#position", "{not json")
    page.click("#create-button")
    expect(page.locator("#create-error")).to_have_text("The starting position is not valid JSON.")
    page.fill("#position", '{"turn": "romans", "cells": {"a1": "RRRR"}}')
    page.click("#create-button")
    expect(page.locator("#create-error")).to_contain_text("position")
    page.fill("#position", "")
    page.locator("#seats .seat-name").first.fill("")
    page.click("#create-button")
    expect(page.locator("#create-error")).to_contain_text("players[0].name")


def test_options_reach_the_game_and_a_link_is_copied(new_page):
    page = new_page()
    page.goto("/")
    page.select_option('#options [data-option="variant"]', "advanced")
    page.locator("#seats .seat-name").nth(0).fill("Ana")
    page.locator("#seats .seat-name").nth(1).fill("Bo")
    page.click("#create-button")
    expect(page.locator("#created")).to_be_visible()
    summary = page.locator("#created-summary").inner_text()
    gid = game_id(summary)
    page.get_by_role("button", name="Copy the link for seat 1").click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert f"/games/{gid}#token=" in link
    guest = new_page()
    guest.goto(link)
    expect(guest.locator("#board .board-info")).to_contain_text("Advanced variant")
    expect(guest.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    page.get_by_role("button", name="Play seat 0 (Ana) here").click()
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.goto("/")
    expect(page.locator(f'#games a[data-key="{gid}"]')).to_contain_text("you hold a seat")
