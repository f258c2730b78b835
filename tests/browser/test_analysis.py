"""The post-game analysis on the game page: the evaluation graph under a finished game's board, a click on it
jumps the replay, and the blunder is marked in the move list with the better move."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.domain.test_ai_analysis import BLUNDER_POSITION

pytestmark = pytest.mark.browser


@pytest.mark.smoke
def test_the_graph_shows_each_seat_and_a_click_jumps_the_replay(server, new_page, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "position": BLUNDER_POSITION})
    watch.add_seats(created)
    gid = created["id"]
    server.api("POST", f"/api/games/{gid}/commands", {"move": "e2-e4"}, token=created["seats"][0]["token"])
    server.api("POST", f"/api/games/{gid}/commands", {"move": "d3-f1"}, token=created["seats"][1]["token"])

    page = new_page()
    page.goto(f"/games/{gid}")  # a spectator: the game is finished, everyone may see its analysis
    expect(page.locator("#result")).to_be_visible()
    analysis = page.locator("#analysis")
    expect(analysis).to_be_visible()
    # Queued automatically when the game (with human seats) finished; the page shows progress, then the graph.
    expect(analysis.locator(".analysis-graph")).to_be_visible(timeout=30_000)
    expect(analysis).to_contain_text("1 blunder", timeout=30_000)
    expect(analysis.locator("polyline.analysis-line")).to_have_count(2)
    expect(analysis.locator(".analysis-legend")).to_contain_text("Ana")
    expect(analysis.locator("circle.analysis-blunder")).to_have_count(1)
    expect(page.locator("#moves .blunder-mark")).to_have_count(1)
    expect(page.locator("#moves .blunder-mark")).to_contain_text("better:")
    # #39: each player's accuracy and counts; the lines in the colours of the pieces
    romans = analysis.locator("tr.analysis-player[data-seat='0']")
    expect(romans.locator(".analysis-count.blunder")).to_have_text("1")
    expect(analysis.locator("tr.analysis-player[data-seat='1'] .analysis-count.blunder")).to_have_text("0")
    expect(romans.locator(".analysis-accuracy")).to_contain_text("%")
    expect(analysis.locator("polyline.analysis-line.dot-romans")).to_have_count(1)
    shot(page, "analysis-graph")

    # A click at the graph's left edge shows the position before the first move.
    graph = analysis.locator(".analysis-graph")
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] * 0.06, "y": box["height"] / 2})
    expect(page.locator("#replay-label")).to_contain_text("The start (of 2 moves) (replay)")
    expect(page.locator("#game")).to_have_class("game replaying")
    expect(analysis.locator(".analysis-cursor")).to_have_count(1)
    # The position before the blunder: the engine's move as a green arrow, the move played as a red one, in words.
    board = page.locator("#board")
    expect(board.locator(".analysis-overlay line.analysis-arrow.best")).to_have_count(1)
    expect(board.locator(".analysis-overlay line.analysis-arrow.played")).to_have_count(1)
    expect(page.locator("#analysis-move")).to_contain_text("e2-e4 ??")
    best = page.evaluate(f"fetch('/api/games/{gid}/analysis').then((r) => r.json())")["plies"][0]["best"]
    expect(page.locator("#analysis-move")).to_contain_text(best)
    shot(page, "analysis-arrows")
    # Learn from your mistakes: the blunder's position, the engine's move hidden until found.
    analysis.locator(".analysis-learn-start").click()
    expect(board.locator(".analysis-overlay line.analysis-arrow.best")).to_have_count(0)
    analysis.locator(".analysis-learn-move").fill("e2-e4")
    analysis.locator(".analysis-learn-check").click()
    expect(analysis.locator(".analysis-learn-said.wrong")).to_contain_text("the move played")
    analysis.locator(".analysis-learn-move").fill(best)
    analysis.locator(".analysis-learn-check").click()
    expect(analysis.locator(".analysis-learn-said.right")).to_be_visible()
    expect(board.locator(".analysis-overlay line.analysis-arrow.best")).to_have_count(1)
    analysis.locator(".analysis-learn-stop").click()
    # … and a click at its right edge, the end of the game.
    graph.click(position={"x": box["width"] * 0.99, "y": box["height"] / 2})
    expect(page.locator("#replay-label")).to_contain_text("live")

    # #30: on a phone the graph is drawn at its width, its labels as large as on a desktop (not shrunk to a third).
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(graph).to_be_visible(timeout=30_000)
    shown = graph.bounding_box()["width"]
    drawn = float(graph.get_attribute("viewBox").split()[2])
    assert abs(drawn - shown) < 0.15 * shown, (drawn, shown)
    label = graph.locator("text.analysis-axis").first.bounding_box()
    assert label["height"] >= 9, label
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "analysis-graph-phone")


@pytest.mark.slow
def test_mission_commando_moves_are_drawn_between_the_squares_they_join(server, new_page, watch):
    """Commando's moves name no cell: a map is drawn from the mover's square to the one it lands on, the
    engine's roll as a ring on the mover's square (#39)."""
    created = server.api("POST", "/api/games", {"game": "commando", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "position": {"turn": 0, "agents": [{"square": 53},
                                                                                   {"square": 10}]}})
    watch.add_seats(created)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    server.api("POST", f"/api/games/{gid}/commands", {"move": "map 2"}, token=tokens[0])
    for _ in range(30):  # then each plays its map, else the first command offered, to the end
        doc = server.api("GET", f"/api/games/{gid}")
        if doc["status"] == "finished":
            break
        seat = doc["to_act"][0]
        legal = server.api("GET", f"/api/games/{gid}", token=tokens[seat])["legal"]
        move = next((m for m in legal if m.startswith("map")), legal[0].split("..")[0])
        server.api("POST", f"/api/games/{gid}/commands", {"move": move}, token=tokens[seat])
    page = new_page()
    page.goto(f"/games/{gid}")
    expect(page.locator("#analysis .analysis-graph")).to_be_visible(timeout=60_000)
    page.locator("#replay-first").click()
    expect(page.locator("#analysis-move")).to_contain_text("Played: map 2")
    played = page.locator("#board .analysis-overlay .analysis-arrow.played")
    expect(played).to_have_count(1)
    start = page.locator("#board [data-square='53']").bounding_box()
    end = page.locator("#board [data-square='55']").bounding_box()
    line = played.bounding_box()
    low, high = min(start["x"], end["x"]) - 5, max(start["x"], end["x"]) + end["width"]
    assert low <= line["x"] <= high, (line, start, end)
