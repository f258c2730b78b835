"""The tutorials in Chromium (#39): each game's whole tutorial played on its page — a wrong move explained, a right
one advancing, the last step offering a real game against the easy AI — and the list of tutorials."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser


def steps(server, game: str, lang: str = "en") -> list[dict]:
    with urllib.request.urlopen(f"{server.url}/api/learn/{game}?lang={lang}") as answer:
        return json.loads(answer.read())["steps"]


def click_move(page, move: str) -> None:
    """Play ``move`` with its button in the list of every possible move (the board-independent way)."""
    details = page.locator("details.learn-legal")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    details.locator("button.legal-move").get_by_text(move, exact=True).click()


def wrong_move(step: dict) -> str:
    return next(m for m in step["board"]["legal"] if m not in step["moves"] and ".." not in m)


def play_through(page, server, game: str, name: str | None = None) -> None:
    all_steps = steps(server, game)
    page.goto(f"/learn/{game}")
    for index, step in enumerate(all_steps):
        expect(page.locator("#learn-step")).to_contain_text(f"Step {index + 1} of {len(all_steps)}")
        expect(page.locator("#learn-text")).to_have_text(step["text"])
        if index < 3:  # a wrong move is explained and changes nothing
            wrong = wrong_move(step)
            click_move(page, wrong)
            expect(page.locator("#learn-said.wrong")).to_contain_text(step["why"])
            expect(page.locator("#learn-step")).to_contain_text(f"Step {index + 1} of")
        if name and index == 0:
            shot(page, name)
        click_move(page, step["moves"][0])
        for follow in step["then"]:
            expect(page.locator("#learn-text")).to_have_text(follow["text"])
            click_move(page, follow["move"])
    expect(page.locator("#learn-said.right")).to_contain_text("The tutorial is done")
    expect(page.locator("button.learn-play")).to_be_visible()


@pytest.mark.smoke
def test_the_murus_tutorial_waits_for_a_move_on_the_board_explains_a_wrong_one_and_advances(server, new_page):
    page = new_page()
    page.goto("/learn/murus")
    first = steps(server, "murus")[0]
    expect(page.locator("#learn-text")).to_have_text(first["text"])
    board = page.locator("#board")
    board.locator("[data-cell='a1']").click()  # a legal move, not the step's
    board.locator("[data-cell='a3']").click()
    expect(page.locator("#learn-said.wrong")).to_contain_text("d1-d3")
    board.locator("[data-cell='d1']").click()
    board.locator("[data-cell='d3']").click()
    expect(page.locator("#learn-said.right")).to_be_visible()
    expect(page.locator("#learn-step")).to_contain_text("Step 2 of")
    shot(page, "learn-murus")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["murus", "mouseguard", "squirrels", "commando"])
def test_a_whole_tutorial_then_a_real_game_against_easy(server, new_page, game):
    page = new_page()
    play_through(page, server, game, name=f"learn-{game}-first")
    page.locator("button.learn-play").click()
    page.wait_for_url("**/games/*")
    expect(page.locator("#players")).to_contain_text("Easy AI")
    # The browser kept the progress: the list says every step is done.
    page.goto("/learn")
    total = len(steps(server, game))
    expect(page.locator(f".learn-item[data-game='{game}']")).to_contain_text(f"{total} of {total} steps done")


def test_the_front_page_offers_the_tutorials_until_one_has_played(server, new_page, watch):
    page = new_page()
    page.goto("/")
    offer = page.locator("#learn-offer")
    expect(offer).to_be_visible()
    offer.locator("a.learn-offer-link").click()
    expect(page.locator(".learn-item")).to_have_count(4)
    expect(page.locator(".learn-item[data-game='squirrels']")).to_contain_text("0 of 5 steps done")
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
    watch.add_seats(created)
    page.goto(f"/games/{created['id']}#token={created['seats'][0]['token']}")
    expect(page.locator("#players")).to_contain_text("Ana")
    page.goto("/")
    expect(page.locator("#pairing-title")).to_be_visible()
    expect(offer).to_be_hidden()
