"""#16 on a Murus board: every click answers (items 5, 6), the turn is noticed from another tab (item 11), the
keyboard keeps its focus after a move (item 12), and the replay steps by move with a "your turn — back to live"
banner and arrow keys, never showing "thinking…" in a replayed position (item 4)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import wait_version

pytestmark = pytest.mark.browser

FEEDBACK = "#board-feedback"


def murus(server, watch, players=None):
    created = server.api("POST", "/api/games", {"game": "murus",
                                                "players": players or [{"name": "Ana"}, {"name": "Bo"}]})
    watch.add_seats(created)
    return created["id"], [s.get("token") for s in created["seats"]]


def test_illegal_clicks_say_why(new_page, server, watch):
    gid, (ana, bo) = murus(server, watch)
    page = new_page()
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.click('#board [data-cell="c7"]')  # a Gaul tower
    expect(page.locator(FEEDBACK)).to_have_text("That is a Gaul tower: you play the Romans.")
    page.click('#board [data-cell="d4"]')  # an empty cell, nothing selected
    expect(page.locator(FEEDBACK)).to_contain_text("d4 is empty: first click one of your towers")
    page.click('#board [data-cell="c1"]')
    expect(page.locator('#board [data-cell="c1"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board .hint")).not_to_have_count(0)  # the selected tower shows its targets
    page.click('#board [data-cell="f5"]')  # not a target of c1
    expect(page.locator(FEEDBACK)).to_contain_text("The tower on c1 cannot reach f5")
    shot(page, "feedback-illegal-click")

    guest = new_page()
    guest.goto(f"/games/{gid}#token={bo}")
    expect(guest.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    guest.click('#board [data-cell="c7"]')  # its own tower, but not its turn
    expect(guest.locator(FEEDBACK)).to_have_text("It is not your turn: waiting for Ana (Romans).")
    spectator = new_page()
    spectator.goto(f"/games/{gid}")
    expect(spectator.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    spectator.click('#board [data-cell="c1"]')
    expect(spectator.locator(FEEDBACK)).to_have_text("You are watching: open a player's link to play.")


@pytest.mark.smoke
def test_a_rejected_typed_command_does_not_empty_the_list(new_page, server, watch):
    gid, (ana, _) = murus(server, watch)
    page = new_page()
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.click("#legal-details summary")
    legal = int(page.locator("#legal-count").inner_text())
    page.fill("#typed-move", "a1-a7")
    page.click("#typed button")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#legal button.move")).to_have_count(legal)  # not filtered down to nothing
    expect(page.locator("#legal .no-match")).to_contain_text("No move contains “a1-a7”")
    assert page.evaluate("document.activeElement.id") == "typed-move"
    assert page.evaluate("window.getSelection().toString() || "
                         "document.activeElement.value.slice(document.activeElement.selectionStart, "
                         "document.activeElement.selectionEnd)") == "a1-a7"  # selected: typing replaces it


def test_your_turn_in_the_title_and_icon_and_a_notification_when_hidden(new_page, server, watch):
    gid, (ana, bo) = murus(server, watch)
    page = new_page()
    # A hidden tab whose browser allows notifications: record them instead of showing them.
    page.add_init_script("""
        Object.defineProperty(document, "hidden", {get: () => window.__hidden === true});
        window.__notes = [];
        window.Notification = class {
            constructor(title, options) { window.__notes.push([title, options.body]); }
            static get permission() { return "granted"; }
            static requestPermission() { return Promise.resolve("granted"); }
        };
        window.__beeps = 0;
        window.AudioContext = class {
            constructor() { this.currentTime = 0; this.destination = {}; }
            createOscillator() { return {frequency: {}, connect: (g) => g, start() { window.__beeps += 1; },
                                         stop() {}}; }
            createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                                   connect: (d) => d}; }
        };
    """)
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    expect(page).to_have_title("▶ Your turn — Murus Gallicus — Burrow")
    assert page.locator("link[rel=icon]").get_attribute("href").endswith("favicon-turn.svg")
    page.check("#notify-turn")
    page.check("#sound-turn")
    page.click('#board [data-cell="a1"]')
    page.click('#board [data-cell="a3"]')
    expect(page.locator("#status")).to_have_text("Waiting for Bo (Gauls).")
    expect(page).to_have_title("Bo (Gauls) to play — Murus Gallicus — Burrow")  # whose turn, in the tab
    assert page.locator("link[rel=icon]").get_attribute("href").endswith("favicon.svg")
    page.evaluate("window.__hidden = true")
    server.api("POST", f"/api/games/{gid}/commands", {"move": "a7-a5"}, token=bo)
    expect(page).to_have_title("▶ Your turn — Murus Gallicus — Burrow")
    assert page.evaluate("window.__notes") == [["Burrow: your turn", "Ana (Romans) to play"]]
    assert page.evaluate("window.__beeps") == 1
    assert page.evaluate("localStorage.getItem('burrow:sound')") == "yes"  # the choice is kept


def test_focus_stays_on_the_board_after_a_keyboard_move(new_page, server, watch):
    gid, (ana, _) = murus(server, watch)
    page = new_page()
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.focus('#board [data-cell="b1"]')
    page.keyboard.press("Enter")
    page.focus('#board [data-cell="b3"]')
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_have_text("Waiting for Bo (Gauls).")
    page.wait_for_function("document.getElementById('board').contains(document.activeElement)")
    assert page.evaluate("document.activeElement !== document.body")


def test_replay_by_move_arrow_keys_and_back_to_live_when_it_is_your_turn(new_page, server, watch):
    gid, (ana, bo) = murus(server, watch)
    for move, token in (("a1-a3", ana), ("a7-a5", bo), ("b1-b3", ana)):
        server.api("POST", f"/api/games/{gid}/commands", {"move": move}, token=token)
    page = new_page()
    page.goto(f"/games/{gid}#token={bo}")
    expect(page.locator("#status")).to_have_text("Your turn: Bo (Gauls).")
    expect(page.locator("#moves > li")).to_have_count(4)  # the start and three moves
    page.locator("body").press("ArrowLeft")
    expect(page.locator("#replay-label")).to_contain_text("Move 2 of 3 (replay")
    expect(page.locator("#moves li.current .version")).to_have_text("1…")  # Bo's first move: numbered by turn
    page.locator("body").press("Home")
    expect(page.locator("#replay-label")).to_contain_text("The start (of 3 moves) (replay")
    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-label")).to_contain_text("Move 1 of 3 (replay")
    expect(page.locator('#board [data-cell="a3"] ellipse')).to_have_count(1)
    expect(page.locator("#replay-banner")).to_contain_text("It is your turn in the live game")
    shot(page, "replay-your-turn-banner")
    page.get_by_role("button", name="Your turn — back to live").click()
    expect(page.locator("#replay-banner")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Your turn: Bo (Gauls).")
    page.locator("body").press("ArrowLeft")
    page.locator("body").press("End")  # before the replay position has arrived: it is cancelled
    expect(page.locator("#replay-label")).to_contain_text("3 moves (live)")
    page.wait_for_timeout(300)
    expect(page.locator("#replay-label")).to_contain_text("3 moves (live)")
    page.locator("body").press("ArrowLeft")
    page.locator("body").press("ArrowLeft")  # at once: steps on from the position on its way
    expect(page.locator("#replay-label")).to_contain_text("Move 1 of 3 (replay")


def test_a_replayed_position_never_says_thinking(new_page, server, watch):
    gid, (ana, _) = murus(server, watch, [{"name": "Ana"}, {"name": "Bot", "ai": "easy"}])
    page = new_page()
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.click('#board [data-cell="h1"]')
    page.click('#board [data-cell="h3"]')
    wait_version(page, 3)  # the AI answered
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    page.locator("body").press("ArrowLeft")  # after Ana's move: the AI to play in that position
    expect(page.locator("#replay-label")).to_contain_text("Move 1 of 2 (replay")
    expect(page.locator("#status")).to_have_text("Replay. Bot (Gauls) to play.")
    expect(page.locator("#players")).not_to_contain_text("thinking")
    expect(page.locator("#replay-banner")).to_contain_text("It is your turn in the live game")
    page.get_by_role("button", name="Your turn — back to live").click()
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
