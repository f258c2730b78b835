"""The page shells without a browser: what the server renders, and static checks that keep the pages within the
Content-Security-Policy (no inline script or style) and away from HTML injection (no innerHTML)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


def test_every_game_has_a_board_module():
    for name in GAME_NAMES:
        module = WEB / "static" / "boards" / f"{name}.js"
        assert f"window.BurrowBoards.{name} = " in module.read_text()
    assert "window.BurrowBoards.generic = " in (WEB / "static" / "boards" / "generic.js").read_text()
