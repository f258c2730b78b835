"""Meeting people in Chromium: two players in two browser contexts find each other by quick pairing, chat, see
each other online and play a move; a challenge reaches its recipient's page and is accepted there."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot
from tests.browser.test_accounts import fits, fresh, sign_up


@pytest.mark.parametrize("width", [1200, 390])
def test_two_players_meet_by_quick_pairing_chat_and_play(new_page, width):
    ann, ben = new_page(width), new_page(width)
    sign_up(ann, fresh("Ann"))
    sign_up(ben, fresh("Ben"))
    ann.click("#pairing-tiles button:has-text('Murus Gallicus 5+3')")
    ann.wait_for_selector("#pairing-tiles button.waiting")
    ben.wait_for_selector("#open-seeks li.seek:has-text('Murus Gallicus')", timeout=20_000)
    ben.click("#pairing-tiles button:has-text('Murus Gallicus 5+3')")
    for page in (ann, ben):  # both taken to the board, each as its seat
        page.wait_for_url("**/games/*", timeout=20_000)
        page.wait_for_selector("#board svg")
    assert ann.url == ben.url
    for page in (ann, ben):
        page.wait_for_selector("#chat:not([hidden]) .chat-form input")
        page.wait_for_function("() => document.querySelectorAll('#players .online').length === 2",
                               timeout=20_000)
    ann.fill("#chat .chat-form input", "good luck <b>!</b>")
    ann.press("#chat .chat-form input", "Enter")
    ben.wait_for_selector("#chat .chat-message:has-text('good luck <b>!</b>')", timeout=20_000)
    assert ben.locator("#chat .chat-message b").count() == 0  # shown as text, never as HTML
    mover = ann if ann.locator("#status").inner_text().lower().find("your turn") >= 0 else ben
    other = ben if mover is ann else ann
    mover.wait_for_selector("#legal-details")
    mover.click("#legal-details summary")
    mover.locator("#legal button").first.click()
    other.wait_for_function("() => document.querySelectorAll('#moves li').length >= 2", timeout=20_000)
    for page, who in ((ann, "ann"), (ben, "ben")):
        fits(page)
        shot(page, f"meeting-{who}-{width}")


def test_a_challenge_reaches_its_recipient_who_accepts_it(new_page, server):
    ann, ben = new_page(), new_page()
    ann_name, ben_name = fresh("Ann"), fresh("Ben")
    sign_up(ann, ann_name)
    sign_up(ben, ben_name)
    answer = ann.evaluate("""async (to) => {
        const r = await fetch('/api/challenges', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                  body: JSON.stringify({to, game: 'murus'})});
        return r.status;
    }""", ben_name)
    assert answer == 201
    ben.wait_for_selector(f".notice:has-text('{ann_name} challenges you')", timeout=20_000)
    ben.click(".notice button:has-text('Accept')")
    ben.wait_for_url("**/games/*", timeout=20_000)
    ben.wait_for_selector("#board svg")
    ann.wait_for_url("**/games/*", timeout=20_000)  # the challenger is told, and taken to the board (#38)
    ann.wait_for_selector("#players .player.mine")
    shot(ben, "challenge-accepted")
