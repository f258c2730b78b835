"""Tables in the browser: an open seat joined from the lobby in a second browser, seats kept across a reload and a
new tab (localStorage), the resign flow with its confirmation and the rematch offer, and a ticking clock."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import created, first_moves, game_id, join_from_lobby

pytestmark = pytest.mark.browser


def kept_tokens(page, gid: str) -> list[str]:
    return json.loads(page.evaluate(f"localStorage.getItem('burrow:tokens:{gid}') || '[]'"))


def test_join_from_the_lobby_keep_the_seat_resign_and_rematch(new_page, watch):
    ana = new_page()
    ana.goto("/")
    rows = ana.locator("#seats > li")
    rows.nth(0).locator(".seat-name").fill("Ana")
    rows.nth(1).locator(".seat-kind").select_option("open")
    ana.click("#create-button")
    gid = game_id(created(ana))  # the creator sits at once: no game lost for want of a click
    watch.tokens.update(kept_tokens(ana, gid))
    expect(ana.locator("#table-note")).to_contain_text("Waiting for a player")

    ben = new_page()  # a second browser context: another person
    ben.goto("/")
    line = ben.locator("#open-games li", has_text=gid)
    expect(line).to_be_visible(timeout=10_000)
    join_from_lobby(line, "Ben")
    ben.wait_for_url(f"**/games/{gid}")
    expect(ben.locator("#players")).to_contain_text("Ben")
    watch.tokens.update(kept_tokens(ben, gid))
    expect(ben.locator("#table-tools")).to_contain_text("Resign")
    expect(ana.locator("#players")).to_contain_text("Ben", timeout=10_000)  # Ana's page follows live

    ben.reload()  # a reload keeps the seat
    expect(ben.locator(".table-command", has_text="Resign")).to_be_visible()
    tab = ben.context.new_page()  # so does a new tab
    tab.goto(f"/games/{gid}")
    expect(tab.locator(".table-command", has_text="Resign")).to_be_visible()
    tab.close()

    ben.goto("/")  # "My games" lists it, with its link to copy and a way to forget it
    mine = ben.locator("#my-games li", has_text=gid)
    expect(mine).to_be_visible()
    expect(mine.get_by_role("button", name="Copy my link")).to_be_visible()
    expect(mine.get_by_role("button", name="Forget")).to_be_visible()
    ben.goto(f"/games/{gid}")

    ben.once("dialog", lambda dialog: dialog.dismiss())  # "Resign this game?" — no
    ben.locator(".table-command", has_text="Resign").click()
    expect(ben.locator(".table-command", has_text="Resign")).to_be_visible()
    ben.once("dialog", lambda dialog: dialog.accept())
    ben.locator(".table-command", has_text="Resign").click()
    expect(ben.locator("#result")).to_contain_text("Ben resigns. Ana wins.", timeout=10_000)
    expect(ana.locator("#result")).to_contain_text("Ben resigns. Ana wins.", timeout=10_000)
    expect(ana.locator(".rematch")).to_be_visible()
    expect(ben.locator(".rematch")).to_be_visible()
    shot(ben, "table-resigned")

    ana.locator(".rematch").click()  # Ana asks for the rematch: her page moves to the new game
    ana.wait_for_url(lambda url: "/games/" in url and gid not in url)
    new_gid = ana.url.rsplit("/", 1)[1]
    watch.tokens.update(kept_tokens(ana, new_gid))
    expect(ben.locator(".rematch")).to_have_text("Take your seat in the rematch", timeout=10_000)
    ben.locator(".rematch").click()
    ben.wait_for_url(f"**/games/{new_gid}")
    watch.tokens.update(kept_tokens(ben, new_gid))
    expect(ben.locator(".table-command", has_text="Resign")).to_be_visible()
    for page in (ana, ben):
        watch.snapshot(page)


def test_the_main_list_with_the_open_filter_has_join_buttons(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"open": True}]})
    watch.add_seats(created)
    gid = created["id"]
    ben = new_page()
    ben.goto("/")
    ben.get_by_role("button", name="Open", exact=True).click()
    line = ben.locator("#games li", has_text=gid)
    expect(line).to_be_visible(timeout=10_000)
    join_from_lobby(line, "Ben")
    ben.wait_for_url(f"**/games/{gid}")
    watch.tokens.update(kept_tokens(ben, gid))
    expect(ben.locator("#players")).to_contain_text("Ben")
    expect(ben.locator(".table-command", has_text="Resign")).to_be_visible()


@pytest.mark.smoke
@pytest.mark.parametrize("minutes", [10, -10])
def test_a_clock_shows_the_servers_time_on_a_browser_whose_clock_is_minutes_off(new_page, server, watch, minutes):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                                "clock": {"initial": 300}})
    watch.add_seats(created)
    first_moves(server, created)
    page = new_page()
    page.add_init_script(f"(() => {{ const now = Date.now; Date.now = () => now() + {minutes * 60_000}; }})()")
    page.goto(f"/games/{created['id']}")
    running = page.locator(".clock.running .clock-time")
    # Ahead, the clock read against the browser's own time would show 0:00; behind, 5:00 standing still.
    expect(running).to_have_text(re.compile(r"^4:5\d$"), timeout=5000)


def test_a_clock_ticks(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                                "clock": {"initial": 300, "increment": 2}})
    watch.add_seats(created)
    first_moves(server, created)
    page = new_page()
    page.goto(f"/games/{created['id']}#token={created['seats'][1]['token']}")
    running = page.locator(".clock.running .clock-time")
    expect(running).to_have_count(1)
    first = running.inner_text()
    page.wait_for_timeout(1500)
    assert running.inner_text() != first  # Ana's clock runs down while she thinks
    expect(page.locator('.clock[data-seat="1"] .clock-time')).to_have_text("5:00")
    shot(page, "table-clock")
