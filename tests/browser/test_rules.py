"""#16 item 3, "rules at hand": every game page has a rules panel (how to win, every card, symbol and option, small
pictures), its summary from the game catalog; the lobby shows the chosen game's rules, and its "starting position"
field links to them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser

# What each game's help must explain (the list) and how many pictures it draws (#30: its start too).
MUST_SAY = {
    "murus": (["How to win", "Wall", "Tower", "Distribute", "Sacrifice", "catapult", "Variant"], 3),
    "mouseguard": (["How to win", "Sword", "Stronghold", "Diplomacy", "Rescue", "Diplomacy distance",
                    "outer line"], 2),
    "squirrels": (["How to win", "Bonuses", "★", "Set or Draft", "Dig", "colourless",
                   "A bonus category needs at least one card"], 2),
    "commando": (["How to win", "Purchase", "Fight", "Caution", "Teleport", "green path", "Fine"], 1),
}


def test_every_game_page_has_its_rules_with_the_catalog_summary(new_page, server, watch):
    catalog = {g["name"]: g for g in server.api("GET", "/api/catalog").get("games", [])}
    page = new_page()
    for game, (phrases, pictures) in MUST_SAY.items():
        created = server.api("POST", "/api/games", {"game": game, "players": [{"name": "Ana"}, {"name": "Bo"}]})
        watch.add_seats(created)
        page.goto(f"/games/{created['id']}")
        rules = page.locator("#rules")
        expect(rules).not_to_have_attribute("open", "")
        page.get_by_role("link", name="How to play").click()
        expect(rules).to_have_attribute("open", "")
        # #30: over the board, as wide as the page allows (not the side column's width), and it closes again.
        assert rules.bounding_box()["width"] > page.locator("#board").bounding_box()["width"] * 0.9
        for phrase in phrases:
            expect(rules).to_contain_text(phrase)
        expect(rules.locator("figure svg[role=img]")).to_have_count(pictures)
        if catalog.get(game, {}).get("rules"):
            expect(page.locator("#rules-summary")).to_have_text(catalog[game]["rules"])
        if game == "commando":
            for symbol in ("$", "⚔", "!", "⇢"):
                expect(rules.locator(".symbols dt", has_text=symbol)).to_have_count(1)
        page.keyboard.press("Escape")
        expect(rules).not_to_have_attribute("open", "")
    shot(page, "rules-panel")


def test_the_lobby_explains_the_chosen_game(new_page, server):
    page = new_page()
    page.goto("/")
    help_box = page.locator("#help")
    expect(help_box.locator(".help-game:visible")).to_have_count(1)
    page.select_option("#game-choice", "squirrels")
    expect(page.locator("#help-title")).to_have_text("How to play Foraging Squirrels")
    visible = help_box.locator(".help-game:visible")
    expect(visible).to_have_count(1)
    visible.locator("details.rules-more > summary").click()
    expect(visible).to_contain_text("Bonuses")
    expect(visible).to_contain_text("Set or Draft")
    page.select_option("#game-choice", "mouseguard")
    expect(help_box.locator(".help-game:visible")).to_contain_text("Diplomacy")
    page.click("details.advanced summary")
    link = page.locator("#position-help a")
    expect(link).to_have_attribute("href", "#help")
    link.click()
    assert page.evaluate("location.hash") == "#help"
