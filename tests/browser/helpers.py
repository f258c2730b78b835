"""Steps shared by the browser tests: creating a game from the lobby, waiting for the page, replaying."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect


def create_from_lobby(page: Page, game: str, players: list[tuple[str, str]], *, position: dict | None = None,
                      seed: int | None = None) -> str:
    """Fill the lobby's form by clicking and typing; ``players`` are (name, "" | "easy" | "normal" | "hard").
    Returns the text of the "created" summary (which names the game id)."""
    page.goto("/")
    page.select_option("#game-choice", game)
    rows = page.locator("#seats > li")
    while rows.count() < len(players):
        page.click("#add-seat")
    for i, (name, level) in enumerate(players):
        rows.nth(i).locator(".seat-name").fill(name)
        rows.nth(i).locator(".seat-kind").select_option(level)
    if position is not None or seed is not None:
        page.click("details.advanced summary")
        if seed is not None:
            page.fill("#seed", str(seed))
        if position is not None:
            page.fill("#position", json.dumps(position))
    page.click("#create-button")
    return created(page)


def created(page: Page) -> str:
    """What the lobby says of the game it just created: its summary when it made several people's seats (their
    links to hand out), else — its creator taken to the board at once — "game <gid>: <the players>"."""
    page.wait_for_function("() => location.pathname.startsWith('/games/') || "
                           "(document.getElementById('created') && !document.getElementById('created').hidden)")
    if "/games/" in page.url:
        gid = page.url.split("/games/", 1)[1].split("#")[0].split("?")[0]
        page.wait_for_selector("#players .player")
        names = ", ".join(n.strip() for n in page.locator("#players .seat-name").all_inner_texts())
        return f"game {gid}: {names}"
    return page.locator("#created-summary").inner_text()


def game_id(summary: str) -> str:
    return re.search(r"game ([0-9a-f]+)", summary).group(1)


LATEST = "Number((document.getElementById('replay-slider') || {dataset: {}}).dataset.latest)"


def wait_version(page: Page, version: int) -> None:
    """Wait until the page shows (live) at least ``version``."""
    page.wait_for_function(f"v => ({LATEST} || 0) >= v", arg=version)


def current_version(page: Page) -> int:
    return int(page.locator("#replay-slider").get_attribute("data-latest"))


def moves_count(page: Page) -> int:
    """The number of moves (steps after the start) the page lists."""
    return int(page.locator("#replay-slider").get_attribute("max"))


def replay_to_start(page: Page) -> None:
    """Step back by moves with the replay buttons to the start, checking the labels and the move list follow."""
    moves = moves_count(page)
    page.click("#replay-prev")
    expect(page.locator("#replay-label")).to_contain_text(f"Move {moves - 1} of {moves} (replay" if moves > 1
                                                          else f"The start (of {moves} moves) (replay")
    page.click("#replay-first")
    expect(page.locator("#replay-label")).to_contain_text(f"The start (of {moves} moves) (replay")
    expect(page.locator("#replay-banner")).to_be_visible()
    expect(page.locator("#moves li.current")).to_have_count(1)
    expect(page.locator("#moves li.current .version")).to_have_text("·")
    page.click("#replay-next")
    expect(page.locator("#replay-label")).to_contain_text(f"Move 1 of {moves} (replay")
    page.click("#replay-first")
    expect(page.locator("#replay-label")).to_contain_text("The start")


def wait_past(page: Page, version: int) -> int:
    """Wait until the page shows a version newer than ``version``; returns it."""
    page.wait_for_function(f"v => ({LATEST} || 0) > v", arg=version)
    return current_version(page)


def join_from_lobby(line, name: str) -> None:
    """Join the game of lobby line ``line`` as its second player, naming oneself ``name`` in the page's form."""
    line.get_by_role("button", name=re.compile(r"^Join .+ as Player 2$")).click()
    form = line.locator("form.join-form")
    form.get_by_label("Your name").fill(name)
    form.locator("button[type=submit]").click()


def finished(page: Page) -> bool:
    return page.locator("#result").is_visible()


def first_moves(server, created: dict) -> None:
    """Both seats of a new two-seat Murus game (``created``: POST /api/games' answer) make their first move, so
    that its clocks run: no clock runs before its seat's first move."""
    for seat, move in ((0, "a1-a3"), (1, "a7-a5")):
        server.api("POST", f"/api/games/{created['id']}/commands", {"move": move},
                   token=created["seats"][seat]["token"])
