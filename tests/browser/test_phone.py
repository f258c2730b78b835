"""#16 items 2 and 10: every board on a 390 × 844 phone without horizontal scrolling, the cards a move takes on
screen; Mission commando's agents never cover a square's number nor each other (up to eight on one square), and
the players panel shows each seat's colour."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_mouseguard import NEAR_WIN

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SPOTS = "#board svg [data-cell], #board svg [data-point], #board svg [data-square]"

SETUPS = {
    "murus": {},
    "mouseguard": {"position": NEAR_WIN, "seed": 1},
    "squirrels": {"seed": 7},
    "commando": {"players": 5, "position": {"turn": 0, "agents": [{"square": 0}] * 4 + [{"square": 3}]}},
}


def open_as_players(new_page, server, watch, game: str, size=PHONE):
    setup = dict(SETUPS[game])
    count = setup.pop("players", 2)
    created = server.api("POST", "/api/games", {"game": game, "players": [{"name": f"P{i}"} for i in range(count)],
                                                **setup})
    watch.add_seats(created)
    page = new_page(**size)
    page.goto(f"/games/{created['id']}#tokens={','.join(s['token'] for s in created['seats'])}")
    expect(page.locator("#status")).to_contain_text("Your turn")
    return page, created


def outside(boxes: list[dict], width: int) -> list[dict]:
    return [b for b in boxes if b["x"] < -0.5 or b["x"] + b["width"] > width + 0.5]


def boxes(page, selector: str) -> list[dict]:
    return page.locator(selector).evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); "
        "return {x: r.x, y: r.y, width: r.width, height: r.height}; })")


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] + 0.5 < b["x"] + b["width"] and b["x"] + 0.5 < a["x"] + a["width"]
            and a["y"] + 0.5 < b["y"] + b["height"] and b["y"] + 0.5 < a["y"] + a["height"])


@pytest.mark.parametrize("game", ["murus", "mouseguard", "squirrels", "commando"])
def test_every_board_fits_a_phone(new_page, server, watch, game):
    page, _ = open_as_players(new_page, server, watch, game)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    spots = boxes(page, SPOTS)
    assert spots and not outside(spots, PHONE["width"]), "part of the board is off screen"
    board = page.locator("#board svg").first.bounding_box()
    assert board["height"] <= PHONE["height"], "the board does not fit the screen's height"
    for move in boxes(page, "#board .controls button, #board .choices button, #board .move-grid button"):
        assert move["x"] >= 0 and move["x"] + move["width"] <= PHONE["width"] + 0.5, "a move button is off screen"
    if game == "squirrels":
        # A move's button lights the cards it would take: they are on screen beside it.
        page.locator("#board .move-grid button[data-move]:not([disabled])").first.focus()
        taken = boxes(page, '#board [data-hint][visibility="visible"]')
        assert taken and not outside(taken, PHONE["width"])
        names = page.locator("#board .card-name").evaluate_all(
            "nodes => nodes.map(n => parseFloat(getComputedStyle(n).fontSize) * n.getScreenCTM().a)")
        assert min(names) >= 9, "card names too small to read on a phone"
    shot(page, f"{game}-phone-390")


def agent_layout(page, container: str) -> dict:
    """Agent discs and square numbers as drawn in ``container``."""
    return page.evaluate("""sel => {
        const box = r => ({x: r.x, y: r.y, width: r.width, height: r.height});
        const root = document.querySelector(sel);
        const agents = [...root.querySelectorAll("[data-agent] circle")].map(c => box(c.getBoundingClientRect()));
        const numbers = [...root.querySelectorAll("[data-square] text")].filter(t => /^\\d+$/.test(t.textContent))
            .map(t => box(t.getBBox ? t.getBoundingClientRect() : t.getBoundingClientRect()));
        return {agents, numbers};
    }""", container)


def check_agents(layout: dict, count: int) -> None:
    agents, numbers = layout["agents"], layout["numbers"]
    assert len(agents) == count
    for i, a in enumerate(agents):
        assert a["width"] >= 9, "an agent too small to see"
        for b in agents[i + 1:]:
            assert not overlap(a, b), "two agents cover each other"
        for n in numbers:
            assert not overlap(a, n), "an agent covers a square's number"


@pytest.mark.parametrize("size", [{"width": 1200, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_commando_agents_and_colour_dots(new_page, server, watch, size):
    page, created = open_as_players(new_page, server, watch, "commando", size)
    check_agents(agent_layout(page, "#board"), 5)
    dots = page.locator("#players .seat-dot")
    expect(dots).to_have_count(5)
    for seat in range(5):  # each player's dot is the colour of their agent
        dot = page.locator("#players .seat-dot").nth(seat).evaluate("n => getComputedStyle(n).backgroundColor")
        agent = page.locator(f'#board [data-agent="{seat}"] circle').evaluate("n => getComputedStyle(n).fill")
        assert dot == agent, (seat, dot, agent)

    # Eight agents on one square (MC-1 allows more players than five): drawn off the page's own document.
    page.evaluate("""async () => {
        const doc = await (await fetch(location.pathname.replace("/games/", "/api/games/"))).json();
        doc.players = [...Array(8).keys()].map(i => ({seat: i, name: "P" + i}));
        doc.state.agents = [...Array(8).keys()].map(i => ({seat: i, square: 0, path: "main", money: 0, weapons: 0,
                                                          accessories: 0, maps: 0}));
        doc.to_act = [0];
        const box = document.createElement("div");
        box.id = "eight";
        document.getElementById("board").after(box);
        const narrow = document.getElementById("board").clientWidth < 600;
        const board = await import("/static/boards/commando.js");
        board.render(box, doc, {legal: [], interactive: false, memory: {}, narrow});
    }""")
    layout = agent_layout(page, "#eight")
    check_agents(layout, 8)
    colours = page.locator("#eight [data-agent] circle").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n).fill)")
    assert len(set(colours)) == 8, "two agents share a colour"


@pytest.mark.smoke
def test_the_lobby_fits_a_phone(new_page):
    page = new_page(**PHONE)
    page.goto("/")
    for game in ("murus", "mouseguard", "squirrels", "commando"):
        page.select_option("#game-choice", game)
        expect(page.locator("#seats > li")).not_to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], game


def test_every_board_fits_the_narrowest_phone(new_page, server, watch):
    """360 px, the narrow end of the range: no sideways scrolling, every cell and point on screen."""
    for game in SETUPS:
        page, _ = open_as_players(new_page, server, watch, game, {"width": 360, "height": 740})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, game
        assert not outside(boxes(page, SPOTS), 360), game
        page.context.close()
