"""Screenshots of every game, at desktop width and on a phone (390 × 844), for the README: ``docs/screenshots/``.

    python -m tests.browser.screenshots [--out docs/screenshots]

Starts its own ``burrow serve`` (a private data dir), sets up one game of each kind a few moves in, opens each as
its players would (hot seat, so the board is playable) and photographs it with Debian's Chromium: every game and
the lobby in English, and the lobby and Mouse Guard as a French and a Chinese browser see them
(``<name>-fr-desktop.png``…). Not a test: pytest collects nothing here.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from domain.base import commands
from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS, ROOT, Server

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LANGUAGES = {"en": ("en-US", None), "fr": ("fr-FR", ("mouseguard",)), "zh": ("zh-CN", ("mouseguard",))}
"""Each language's browser locale and the games photographed in it (None: every game)."""


def play(server: Server, gid: str, tokens: list[str], moves: int) -> None:
    """Play ``moves`` commands, each the first legal one of whichever seat must act."""
    for _ in range(moves):
        for token in tokens:
            doc = server.api("GET", f"/api/games/{gid}", token=token)
            if doc.get("legal"):
                server.api("POST", f"/api/games/{gid}/commands", {"move": commands(doc["legal"])[0]}, token=token)
                break


def games(server: Server) -> list[dict]:
    """One game of each kind, a few moves in: (name, id, seat tokens, what to click before the picture)."""
    out = []

    def create(game: str, names: list[str], moves: int, **extra) -> None:
        players = [{"name": n} for n in names]
        created = server.api("POST", "/api/games", {"game": game, "players": players, **extra})
        if "seats" not in created:
            raise SystemExit(f"{game}: the server refused the setup: {created}")
        tokens = [s["token"] for s in created["seats"] if s.get("token")]
        play(server, created["id"], tokens, moves)
        out.append({"game": game, "id": created["id"], "tokens": tokens})

    create("murus", ["Ana", "Bo"], 4)
    create("mouseguard", ["Ana", "Bo"], 0, position={
        "turn": "black", "mice": {"c3": "black", "d4": "black", "e3": "black", "C6": "white", "b7": "white",
                                  "e7": "white", "f7": "white"},
        "hands": {"black": ["sword", "stronghold", "diplomacy"], "white": ["sword", "sword", "stronghold"]},
        "captured": {"black": 1, "white": 0}})
    create("squirrels", ["Ana", "Bo", "Cy"], 4)
    create("commando", ["Ana", "Bo", "Cy", "Di"], 0, position={
        "turn": 0, "agents": [{"square": 0, "weapons": 1}, {"square": 0}, {"square": 0, "money": 5},
                              {"square": 27, "accessories": 2}]})
    play(server, out[-1]["id"], out[-1]["tokens"], 1)
    return out


def select_something(page, game: str) -> None:
    """Click what a player would click first, so the picture shows the targets."""
    if game in ("murus", "mouseguard"):
        movable = page.locator("#board [role=button][tabindex]").first
        if movable.count():
            movable.click()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    server = Server().start()
    try:
        setups = games(server)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            for (lang, (locale, only)), (size_name, size) in [(language, size) for language in LANGUAGES.items()
                                                             for size in (("desktop", DESKTOP), ("phone", PHONE))]:
                suffix = "" if lang == "en" else f"-{lang}"
                for setup in setups:
                    if only is not None and setup["game"] not in only:
                        continue
                    context = browser.new_context(viewport=size, base_url=server.url, device_scale_factor=1,
                                                  locale=locale)
                    page = context.new_page()
                    page.goto(f"/games/{setup['id']}#tokens={','.join(setup['tokens'])}")
                    page.wait_for_selector("#board svg")
                    page.wait_for_function("document.getElementById('status').classList.contains('your-turn')")
                    select_something(page, setup["game"])
                    page.evaluate("window.scrollTo(0, 0)")
                    path = out / f"{setup['game']}{suffix}-{size_name}.png"
                    page.screenshot(path=str(path))
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                    context.close()
                context = browser.new_context(viewport=size, base_url=server.url, locale=locale)
                page = context.new_page()
                page.goto("/")
                page.wait_for_selector("#games li")
                path = out / f"lobby{suffix}-{size_name}.png"
                page.screenshot(path=str(path), full_page=size_name == "desktop")
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                context.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
