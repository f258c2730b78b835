"""Mission commando in the browser: from a position near the base, a collision fight (the dialog, a secret
commitment) and the race to the base, every decision clicked from the buttons built out of ``legal``, at one
screen (hot seat), watched live by a second page; then the replay back to the start."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import create_from_lobby, current_version, finished, game_id, replay_to_start, wait_past

pytestmark = pytest.mark.browser

# Seat 0's map of 2 lands on seat 1 (MC-8a): a fight first, then a short race to square 59.
NEAR_BASE = {"turn": 0, "agents": [{"square": 50, "weapons": 1}, {"square": 52}]}
BUTTONS = "#board .controls button[data-move]"


def choose(page) -> str:
    """The command to click: the longest map when there is one, else a roll, else the first choice."""
    moves = page.locator(BUTTONS).evaluate_all("bs => bs.map(b => b.dataset.move)")
    maps = sorted((m for m in moves if m.startswith("map ")), key=lambda m: int(m.split()[1]))
    if maps:
        return maps[-1]
    return "roll" if "roll" in moves else moves[0]


def test_fight_and_race_to_the_base(new_page):
    page = new_page()
    summary = create_from_lobby(page, "commando", [("Ana", ""), ("Bo", "")], position=NEAR_BASE, seed=3)
    gid = game_id(summary)
    page.get_by_role("button", name="Play all 2 players here (one screen)").click()
    watcher = new_page()
    watcher.goto(f"/games/{gid}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana.")
    expect(page.locator("#board [data-agent]")).to_have_count(2)

    version = current_version(page)
    page.locator(f'{BUTTONS}[data-move="map 2"]').click()
    wait_past(page, version)
    expect(page.locator("#board .fight")).to_be_visible()
    expect(watcher.locator("#board .fight")).to_contain_text("Ana attacks Bo")
    shot(page, "commando-fight")
    # The commitment is one number to choose (its legal entry is "commit 0..1"), sent as "commit 1".
    weapons = page.locator("#board .commit-choice input")
    expect(weapons).to_have_attribute("max", "1")
    weapons.fill("1")
    expect(page.locator(BUTTONS).first).to_have_attribute("data-move", "commit 1")
    version = current_version(page)
    page.locator(f'{BUTTONS}[data-move="commit 1"]').click()
    wait_past(page, version)
    expect(watcher.locator("#moves")).to_contain_text("Weapons revealed: attacker 1, defender 0")

    for _ in range(60):
        if finished(page):
            break
        version = current_version(page)
        page.locator(f'{BUTTONS}[data-move="{choose(page)}"]').click()
        wait_past(page, version)
    expect(page.locator("#result")).to_be_visible()
    expect(watcher.locator("#result")).to_have_text(page.locator("#result").inner_text())
    step = watcher.locator("#moves li", has_text="uses a map to move 2")
    step.get_by_role("button", name="What happened").click()
    expect(watcher.locator("#moves .event-list")).to_contain_text("collides with")  # the step's events, on demand
    shot(page, "commando-finished")
    replay_to_start(watcher)
    expect(watcher.locator('#board [data-agent="0"]')).to_have_count(1)
    shot(watcher, "commando-replay-start")
