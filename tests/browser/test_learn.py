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


def test_a_blunder_between_two_accounts_becomes_a_card_reviewed_on_train(server, new_page):
    from tests.browser.test_accounts import fresh, sign_up
    from tests.domain.test_ai_analysis import BLUNDER_POSITION

    ana, bob = fresh("Ana"), fresh("Bob")
    pages = {}
    for name in (ana, bob):
        pages[name] = new_page()
        sign_up(pages[name], name)
    created = pages[ana].evaluate("""async (position) => (await fetch('/api/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'murus', players: [{me: true}, {open: true}], position})})).json()""",
                                  BLUNDER_POSITION)
    gid = created["id"]
    joined = pages[bob].evaluate(f"""async () => (await fetch('/api/games/{gid}/seats/1', {{method: 'POST',
        headers: {{'Content-Type': 'application/json'}}, body: '{{}}'}})).json()""")
    server.api("POST", f"/api/games/{gid}/commands", {"move": "e2-e4"}, token=created["seats"][0]["token"])
    server.api("POST", f"/api/games/{gid}/commands", {"move": "d3-f1"}, token=joined["token"])

    page = pages[ana]
    page.goto(f"/games/{gid}")  # the analysis explains: Ana's accuracy and her blunder
    expect(page.locator("tr.analysis-player[data-seat='0'] .analysis-count.blunder")).to_have_text("1",
                                                                                                 timeout=60_000)
    page.goto("/train")
    for _ in range(60):  # the card comes with the extraction job, after the analysis
        if "Card 1 of 1" in page.locator("#train-status").inner_text():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(page.locator("#train-status")).to_contain_text("Card 1 of 1 due")
    expect(page.locator("#train-text")).to_contain_text("e2-e4, a blunder")
    expect(page.locator("#board [data-cell='e2']")).to_be_visible()
    shot(page, "learn-train")
    card = page.evaluate("async () => (await fetch('/api/me/deck')).json()")["cards"][0]["id"]
    page.locator("input.train-move").fill("e2-e4")
    page.locator("button.train-answer").click()
    expect(page.locator("#train-said.wrong")).to_contain_text("The engine's moves:")
    shot(page, "learn-train-answered")
    deck = page.evaluate("async () => (await fetch('/api/me/deck')).json()")
    assert deck["due"] == 0 and deck["total"] == 1  # again soon, not now
    best = page.evaluate(f"""async () => (await fetch('/api/me/deck/{card}/answer', {{method: 'POST',
        headers: {{'Content-Type': 'application/json'}}, body: JSON.stringify({{move: 'e2-e4'}})}})).json()""")
    assert "best" in best, best
    right = page.evaluate(f"""async (move) => (await fetch('/api/me/deck/{card}/answer', {{method: 'POST',
        headers: {{'Content-Type': 'application/json'}}, body: JSON.stringify({{move}})}})).json()""",
                          best["best"][0])
    assert right["correct"] is True and right["next_due"] > best["next_due"]
    guest = new_page()
    guest.goto("/train")
    expect(guest.locator("#train-status")).to_contain_text("sign in")
