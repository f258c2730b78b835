"""Foraging Squirrels in the browser: a hot-seat game (two seats, one page) played to the end with the colour ×
direction buttons and one dig, a spectator following live, then the replay back to the start."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import create_from_lobby, current_version, finished, game_id, replay_to_start, wait_past

pytestmark = pytest.mark.browser

MOVE_BUTTONS = "#board .move-grid button[data-move]:not([disabled])"


def dig_then_move(page) -> None:
    page.get_by_role("button", name="Dig, then move").click()
    page.locator("#board [data-cell][role=button]").first.click()   # a food card that may be dug
    empty = page.locator("#board [data-cell][role=button]:not([aria-pressed])").first  # an empty cell
    cell = empty.get_attribute("data-cell")
    empty.hover()  # the dig's preview: the dug card shown where it would go (#38)
    expect(page.locator(f'#board .dig-ghost[data-ghost="{cell}"]')).to_have_attribute("visibility", "visible")
    empty.click()
    expect(page.locator(f'#board [data-cell="{cell}"] > .card-bg')).to_have_count(1)  # shown dug, before the move
    expect(page.locator("#board .controls .prompt").last).to_contain_text("then:")
    page.locator(MOVE_BUTTONS).first.click()


def test_hot_seat_to_the_end_with_a_dig_and_a_spectator(new_page):
    page = new_page()
    summary = create_from_lobby(page, "squirrels", [("Ana", ""), ("Bo", "")], seed=7)
    gid = game_id(summary)
    page.get_by_role("button", name="Play all 2 players here (one screen)").click()
    expect(page.locator("#status")).to_contain_text("Your turn")
    spectator = new_page()
    spectator.goto(f"/games/{gid}")
    expect(spectator.locator("#status")).to_contain_text("Waiting for")
    shot(page, "squirrels-start")

    dug = False
    for _ in range(40):
        if finished(page):
            break
        version = current_version(page)
        if not dug and page.get_by_role("button", name="Dig, then move").count():
            shot(page, "squirrels-dig-choice")
            dig_then_move(page)
            dug = True
        else:
            page.locator(MOVE_BUTTONS).first.click()
        wait_past(page, version)
        expect(spectator.locator("#replay-slider")).to_have_attribute("data-latest", str(current_version(page)))
    assert dug, "the second player could dig"
    # The last move is highlighted (#16 item 12): the squirrel's new cell outlined, the cells it emptied shaded.
    expect(page.locator("#board [data-cell]:has(.squirrel-cell) .last-move-outline")).to_have_count(1)
    expect(page.locator("#board [data-cell] rect.last-move")).not_to_have_count(0)
    expect(page.locator("#result")).to_be_visible()
    expect(spectator.locator("#result")).to_have_text(page.locator("#result").inner_text())
    expect(spectator.locator("#moves")).to_contain_text("digs the card on")
    last = page.locator("#moves > li").last
    # The last move's lines, on demand: the end is one of them.
    last.get_by_role("button", name="What happened").click()
    expect(last.locator(".event-list")).to_contain_text("Game over.")
    shot(page, "squirrels-finished")

    replay_to_start(spectator)
    expect(spectator.locator("#board [data-cell]")).to_have_count(25)
    shot(spectator, "squirrels-replay-start")
