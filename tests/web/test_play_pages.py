"""The pages of the first ten minutes (#38), as the server renders them: the front page's play menu and an invite
link's page."""

from __future__ import annotations

import re


def test_the_front_page_leads_with_the_play_menu(client):
    page = client.get("/").get_data(as_text=True)
    assert page.index('id="play"') < page.index('id="custom"')  # the menu first, the custom game after it
    games = re.findall(r'class="tile computer-game" data-game="(\w+)"', page)
    assert games == ["murus", "mouseguard", "squirrels", "commando"]  # one click per game against the computer
    assert '<option value="normal" selected>' in page  # a sane default level
    assert re.search(r'id="computer-seat">\s*<option value="random" selected>', page)  # a side drawn at random
    assert 'id="friend-invite"' in page  # a guest may make an invite link too
    french = client.get("/?lang=fr").get_data(as_text=True)
    assert "Mouse Guard : Épées et Forteresses" in french  # one title per game in each language
    assert "Jouer contre l&#39;ordinateur" in french or "Jouer contre l'ordinateur" in french


def test_an_invite_links_page(client):
    answer = client.get("/challenge/0123abcd4567ef89")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert 'data-challenge="0123abcd4567ef89"' in page and 'id="invite-name"' in page  # a guest names themself
    for junk in ("not-an-id!", "x" * 41, "%3Cscript%3E"):
        assert client.get(f"/challenge/{junk}").status_code == 404
