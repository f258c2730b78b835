"""Mouse Guard in the browser: the secret setup by clicking four points for each seat (hot seat), and a game
from a position played to a stronghold win by clicking mouse → step → card, watched live by a second page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import create_from_lobby, current_version, game_id, replay_to_start, wait_past

pytestmark = pytest.mark.browser

DECK = ["sword"] * 7 + ["stronghold"] * 9 + ["diplomacy"] * 8
# Black wins at its third turn: c8-b8 stronghold A8 (MG-19a).
NEAR_WIN = {"turn": "black",
            "mice": {"d4": "black", "c8": "black", "b3": "black", "e3": "black",
                     "d6": "white", "e7": "white", "c6": "white", "f7": "white"},
            "hands": {"black": ["stronghold", "sword", "diplomacy"], "white": ["sword", "sword", "diplomacy"]},
            "deck": DECK}


def test_secret_setup_by_clicking_at_one_screen(new_page):
    page = new_page()
    create_from_lobby(page, "mouseguard", [("Ana", ""), ("Bo", "")])
    page.get_by_role("button", name="Play all 2 players here (one screen)").click()
    for _ in range(2):
        expect(page.locator("#board .controls .prompt")).to_contain_text("Place your four mice")
        version = current_version(page)
        points = page.locator("#board [data-point][role=button]")
        for i in range(4):
            points.nth(i * 2).click()
        expect(page.locator("#board [data-point][aria-pressed=true]")).to_have_count(4)
        shot(page, "mouseguard-setup")
        page.locator("#board .controls button.primary").click()
        wait_past(page, version)
    expect(page.locator("#board .controls .prompt")).to_contain_text("Click one of your mice")
    expect(page.locator("#board [data-point] .mouse-black")).to_have_count(12)  # 4 mice × body and ears
    expect(page.locator("#board [data-point] .mouse-white")).to_have_count(12)


def play(page, mouse: str, step: str, card_button: str | None, choice: str | None = None) -> None:
    """The mouse, the card to play with the step if any (chosen before the step), the step; a plain step is two
    clicks (#38)."""
    version = current_version(page)
    page.click(f'#board [data-point="{mouse}"]')
    if card_button:
        page.locator("#board .controls button", has_text=card_button).first.click()
    page.click(f'#board [data-point="{step}"]')
    if choice:
        page.locator(f'#board .controls button[data-move="{choice}"]').click()
    wait_past(page, version)


def test_play_to_a_stronghold_win_watched_live(new_page):
    page = new_page()
    summary = create_from_lobby(page, "mouseguard", [("Ana", ""), ("Bo", "")], position=NEAR_WIN, seed=1)
    gid = game_id(summary)
    page.get_by_role("button", name="Play all 2 players here (one screen)").click()
    watcher = new_page()
    watcher.goto(f"/games/{gid}")
    expect(page.locator("#status")).to_contain_text("(Black)")
    expect(page.locator("#board .hand .card-chip")).to_have_count(3)

    play(page, "d4", "d5", None)  # a plain step: two clicks
    expect(watcher.locator("#moves")).to_contain_text("d4-d5")
    expect(page.locator("#status")).to_contain_text("(White)")
    shot(page, "mouseguard-white-to-play")
    play(page, "f7", "f6", None)
    expect(page.locator("#status")).to_contain_text("(Black)")

    page.click('#board [data-point="c8"]')
    page.locator("#board .controls button", has_text="Stronghold").click()  # the card first, then the step
    page.click('#board [data-point="b8"]')
    target = page.locator('#board .controls button[data-move="c8-b8 stronghold A8"]')  # one of its ways
    target.focus()  # previews the stronghold on the board
    expect(page.locator("#board .preview")).to_have_count(1)
    shot(page, "mouseguard-card-choice")
    target.press("Enter")
    for p in (page, watcher):
        expect(p.locator("#result")).to_contain_text("(Black) wins")
    shot(page, "mouseguard-finished")
    replay_to_start(watcher)
    shot(watcher, "mouseguard-replay-start")


def white_at_the_bottom(page) -> bool:
    """White's side (row 9) drawn at the bottom: the board is turned for White (waits for a redraw to settle)."""
    try:
        page.wait_for_function("""() => {
            const y = (p) => { const n = document.querySelector(`#board [data-point="${p}"]`);
                               return n ? n.getBoundingClientRect().y : null; };
            return y("a9") !== null && y("a1") !== null && y("a9") > y("a1");
        }""", timeout=3000)
        return True
    except PlaywrightError:
        return False


def test_white_keeps_its_view_after_the_end_and_in_replays_with_one_step_per_turn(new_page, server, watch):
    """#16 items 1, 4 and 12: the board stays turned for White when the game ends and in its replays; the replay
    steps by turn (not by card draw); the last move is highlighted."""
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "position": NEAR_WIN, "seed": 1})
    watch.add_seats(created)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    # min_version: the document as of the creation at least (the colours are drawn then).
    doc = server.api("GET", f"/api/games/{gid}?min_version={created['version']}", token=tokens[0])
    seats = doc["state"]["seats"]
    black, white = tokens[seats["black"]], tokens[seats["white"]]
    server.api("POST", f"/api/games/{gid}/commands", {"move": "d4-d5"}, token=black)
    page = new_page()
    page.goto(f"/games/{gid}#token={white}")
    expect(page.locator("#status")).to_contain_text("(White).")
    assert white_at_the_bottom(page)
    for point in ("d4", "d5"):  # the last move, highlighted
        expect(page.locator(f'#board [data-point="{point}"] .last-move')).to_have_count(1)
    expect(page.locator("#board .last-move")).to_have_count(2)
    page.click('#board [data-point="d5"]')  # Black's mouse: the click says why nothing happens (item 5)
    expect(page.locator("#board-feedback")).to_have_text("That is a black mouse: you play White.")
    page.click('#board [data-point="f7"]')
    page.click('#board [data-point="b5"]')  # not a step of the selected mouse
    expect(page.locator("#board-feedback")).to_contain_text("The mouse on f7 cannot go to b5")
    page.click('#board [data-point="f7"]')  # let it go again

    server.api("POST", f"/api/games/{gid}/commands", {"move": "f7-f6"}, token=white)
    server.api("POST", f"/api/games/{gid}/commands", {"move": "c8-b8 stronghold A8"}, token=black)
    expect(page.locator("#result")).to_contain_text("(Black) wins")
    assert white_at_the_bottom(page), "the finished game turned the board to Black's view"
    expect(page.locator('#board rect.last-move')).to_have_count(1)  # the stronghold's square, A8
    shot(page, "mouseguard-finished-white")
    expect(page.locator("#moves > li")).to_have_count(4)  # the start and three turns …
    assert current_version(page) > 10  # … of many more events (draws, "turn ended")
    page.locator("body").press("Home")
    expect(page.locator("#replay-label")).to_contain_text("The start (of 3 moves)")
    assert white_at_the_bottom(page), "the replay turned the board to Black's view"
    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-label")).to_contain_text("Move 1 of 3")
    assert white_at_the_bottom(page)
    page.locator("#moves > li").nth(1).get_by_role("button", name="What happened").click()
    expect(page.locator("#moves .event-list li")).not_to_have_count(0)
    page.locator("#moves .event-list button").last.click()  # one event of that move: its exact version
    expect(page.locator("#moves .event-list li.current-event")).to_have_count(1)
