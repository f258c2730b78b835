"""The page shells without a browser: what the server renders, and static checks that keep the pages within the
Content-Security-Policy (no inline script or style) and away from HTML injection (no innerHTML)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import registry
from domain.registry import GAME_NAMES

WEB = Path(__file__).resolve().parents[2] / "web"
fakeredis_only = pytest.mark.parametrize("runtime", ["fakeredis"], indirect=True)


@fakeredis_only
def test_lobby_lists_every_game_and_sends_the_csp(client):
    r = client.get("/")
    assert r.status_code == 200
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    html = r.get_data(as_text=True)
    for name in GAME_NAMES:
        assert f'<option value="{name}"' in html


@fakeredis_only
def test_game_page_carries_ids_in_data_attributes_and_never_a_token(client):
    players = [{"name": "<b>Ana</b>"}, {"name": "Bo"}]
    created = client.post("/api/games", json={"game": "murus", "players": players})
    gid = created.json["id"]
    r = client.get(f"/games/{gid}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert f'data-gid="{gid}"' in html and 'data-game="murus"' in html
    assert "/static/boards/murus.js" in html and "/static/game.js" in html
    for seat in created.json["seats"]:
        assert seat["token"] not in html
    assert "<b>Ana</b>" not in html  # names are drawn by the script with textContent, not by the server


@fakeredis_only
def test_a_missing_game_is_a_404_page(client):
    r = client.get("/games/nope")
    assert r.status_code == 404
    assert "No such game" in r.get_data(as_text=True)


def test_templates_have_no_inline_script_style_or_handlers():
    for template in (WEB / "templates").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"inline script in {template.name}"
        assert "<style" not in text, f"inline style in {template.name}"
        assert not re.search(r"\sstyle=", text), f"style attribute in {template.name}"
        assert not re.search(r"\son[a-z]+=", text), f"event handler attribute in {template.name}"


def test_scripts_never_parse_html_or_log():
    for script in (WEB / "static").rglob("*.js"):
        text = script.read_text()
        for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                      'setAttribute("style"'):
            assert risky not in text, f"{risky} in {script.relative_to(WEB)}"
        assert not re.search(r"\bconsole\.\w+\(", text), f"console output in {script.relative_to(WEB)}"


def test_every_board_a_registration_names_is_a_module_exporting_render():
    boards = [game.board for game in registry.game_types() if game.board] + ["generic.js"]
    assert len(boards) == len(GAME_NAMES) + 1  # every built-in game draws its own board
    for board in boards:
        text = (WEB / "static" / "boards" / board).read_text()
        assert re.search(r"^export \{render\b", text, re.MULTILINE), f"boards/{board} exports no render"


def test_the_scripts_are_es_modules_that_share_nothing_through_window():
    """No build step and no globals between files: every script imports what it uses; each page loads one entry
    module (the board module is imported by the game page's, from the address the page gives)."""
    for script in (WEB / "static").rglob("*.js"):
        text, name = script.read_text(), script.relative_to(WEB)
        assert not re.search(r"\bwindow\.\w+\s*=[^=]", text), f"a window global set in {name}"
        assert "window.Burrow" not in text, name
        assert not re.search(r"^\(function \(\) \{", text, re.MULTILINE), f"{name} is not a module"
    for page in ("game.html", "lobby.html"):
        tags = re.findall(r"<script\b[^>]*>", (WEB / "templates" / page).read_text())
        assert len(tags) == 1 and 'type="module"' in tags[0], (page, tags)


@fakeredis_only
def test_the_game_page_names_the_board_module_of_the_games_registration(client):
    for name in GAME_NAMES:
        players = [{"name": f"P{i}"} for i in range(registry.game_info(name).seats[0])]
        gid = client.post("/api/games", json={"game": name, "players": players}).json["id"]
        html = client.get(f"/games/{gid}").get_data(as_text=True)
        board = registry.game_type(name).board
        assert f'<link rel="modulepreload" id="board-module" href="/static/boards/{board}">' in html
        assert '<script type="module" src="/static/game.js"></script>' in html
