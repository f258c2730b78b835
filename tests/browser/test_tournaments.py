"""A tournament in Chromium: made with the form, joined by two players (one on a 390 px phone), started by its
creator; the page shows each change live from its stream (no reload): players, then the first round's table with
a link to its game. Both widths fit the screen; the French and Chinese pages say their words."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot


def account(page, prefix: str) -> str:
    """A new account signed in in ``page``'s context (its session cookie)."""
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    answer = page.request.post("/api/accounts", data={"username": name, "password": "correct horse battery"})
    assert answer.status == 201, answer.text()
    return name


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"the page is {width}px wide"


@pytest.mark.smoke
def test_a_tournament_made_joined_and_started_live(new_page):
    desk, phone = new_page(1280, 900), new_page(390, 844)
    creator, player = account(desk, "Cre"), account(phone, "Pla")
    desk.goto("/tournaments")
    desk.fill("#new-tournament [name=title]", "Friday Swiss")
    desk.select_option("#new-tournament [name=system]", "swiss")
    desk.fill("#new-tournament [name=rounds]", "2")
    desk.click("#new-tournament button[type=submit]")
    desk.wait_for_url("**/tournaments/*")
    tid = desk.url.rsplit("/", 1)[1]
    expect(desk.locator("#t-name")).to_have_text("Friday Swiss")  # once the page has read the tournament
    desk.get_by_role("button", name="Join").click()
    desk.locator("#t-players", has_text=creator).wait_for()
    phone.goto(f"/tournaments/{tid}")
    phone.get_by_role("button", name="Join").click()
    desk.locator("#t-players", has_text=player).wait_for()  # live, from the stream
    desk.get_by_role("button", name="Start now").click()
    link = desk.locator("#pairings a[href^='/games/']")
    link.wait_for()
    assert creator in link.inner_text() and player in link.inner_text()
    phone.locator("#pairings a[href^='/games/']").wait_for()  # the phone's page too, live
    assert phone.locator("#standings-rows tr").count() == 2
    for page, name in ((desk, "desk"), (phone, "phone")):
        shot(page, f"tournament-{name}")
        fits(page)
    phone.goto("/tournaments")
    phone.locator("#list-running a").first.wait_for()
    fits(phone)
    shot(phone, "tournaments-phone")
    for lang, word in (("fr", "Tournois"), ("zh", "锦标赛")):
        desk.goto(f"/tournaments?lang={lang}")
        assert word in desk.locator("h1").inner_text()
        desk.goto(f"/tournaments/{tid}?lang={lang}")
        desk.locator("#pairings a").wait_for()
        shot(desk, f"tournament-{lang}")
