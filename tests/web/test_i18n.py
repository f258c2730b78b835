"""Three languages (docs/api.md "Languages"): the choice of a request's language, the switch and its cookie,
``<html lang>``, the page's strings as JSON, and error messages in the reader's language with the same code."""

from __future__ import annotations

import re

import pytest

from web import i18n


@pytest.mark.parametrize("query, cookie, account, accept, expected", [
    (None, None, None, None, "en"),
    (None, None, None, "fr-FR,fr;q=0.9,en;q=0.8", "fr"),
    (None, None, None, "zh-CN,zh;q=0.9", "zh"),
    (None, None, None, "de-DE,de;q=0.9,zh-TW;q=0.5,fr;q=0.3", "zh"),  # the best of ours, not the first
    (None, None, None, "en;q=0.1,fr;q=0.8", "fr"),
    (None, None, None, "de", "en"),
    (None, None, "zh", "fr-FR", "zh"),  # the account's saved language before the browser's
    (None, "fr", "zh", "en", "fr"),  # the switch's cookie before the account's
    ("zh", "fr", "en", "fr", "zh"),  # ?lang= first
    ("xx", "yy", None, "fr", "fr"),  # unknown choices are ignored
])
def test_the_language_of_a_request(query, cookie, account, accept, expected):
    assert i18n.choose(query, cookie, account, accept) == expected


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def test_a_page_follows_accept_language_and_says_so_in_html_lang(client):
    assert html_lang(client.get("/").get_data(as_text=True)) == "en"
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert html_lang(french) == "fr" and "Partie sur mesure" in french and "Custom game" not in french
    chinese = client.get("/", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert html_lang(chinese) == "zh-Hans" and "自定义对局" in chinese


def test_the_switch_is_on_every_page_and_its_choice_is_remembered(client):
    page = client.get("/games/nosuchgame").get_data(as_text=True)
    for code in ("en", "fr", "zh"):
        assert f'href="/games/nosuchgame?lang={code}"' in page
    answer = client.get("/?lang=zh", headers={"Accept-Language": "fr"})
    assert html_lang(answer.get_data(as_text=True)) == "zh-Hans"
    assert "burrow_lang=zh" in answer.headers["Set-Cookie"]
    # The cookie now decides, whatever the browser says; a page without ?lang= sets nothing.
    later = client.get("/", headers={"Accept-Language": "fr"})
    assert html_lang(later.get_data(as_text=True)) == "zh-Hans" and "Set-Cookie" not in later.headers
    assert "Accept-Language" in later.headers["Vary"]


def test_a_signed_in_account_language_comes_before_the_browser(client, monkeypatch):
    monkeypatch.setattr(i18n, "account_language", lambda: "fr")
    page = client.get("/", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert html_lang(page) == "fr"


def test_the_page_strings_come_from_the_same_catalogs(client):
    answer = client.get("/i18n/fr.json")
    body = answer.json
    assert body["lang"] == "fr" and body["plurals"] == ["one", "many", "other"]
    assert body["messages"]["Player {number}"] == "Joueur {number}"
    assert "How to play" not in body["messages"]  # a template's string: the server says it, not the page
    assert client.get("/i18n/zh.json").json["plurals"] == ["other"]
    again = client.get("/i18n/fr.json", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    page = client.get("/?lang=fr").get_data(as_text=True)
    address = re.search(r'data-strings="([^"]+)"', page).group(1)
    assert client.get(address).headers["Cache-Control"].startswith("public, max-age=31536000")
    assert client.get("/i18n/de.json").status_code == 404


def test_api_errors_follow_the_language_with_the_same_code(client):
    english = client.get("/api/games/nosuchgame")
    french = client.get("/api/games/nosuchgame", headers={"Accept-Language": "fr-FR"})
    chinese = client.get("/api/games/nosuchgame?lang=zh")
    assert english.status_code == french.status_code == chinese.status_code == 404
    codes = {english.json["error"]["code"], french.json["error"]["code"], chinese.json["error"]["code"]}
    assert codes == {"not_found"}
    assert english.json["error"]["message"] == "no game 'nosuchgame'"
    assert french.json["error"]["message"] == "aucune partie 'nosuchgame'"
    assert chinese.json["error"]["message"] == "没有对局 'nosuchgame'"


def test_the_feed_and_the_result_are_said_in_the_reader_language(client):
    """Documents are stored once and said when read: the feed's ``text`` and the result's ``reason`` follow the
    request's language, players named; ``say`` keeps the message id for the page."""
    created = client.post("/api/games", json={"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]}).json
    token = created["seats"][1]["token"]
    answer = client.post(f"/api/games/{created['id']}/commands", json={"move": "resign"},
                         headers={"Authorization": f"Bearer {token}", "Accept-Language": "fr"})
    assert answer.json["events"][0]["text"] == "Ben abandonne."
    english = client.get(f"/api/games/{created['id']}/events").json["events"]
    french = client.get(f"/api/games/{created['id']}/events?lang=fr").json["events"]
    chinese = client.get(f"/api/games/{created['id']}/events", headers={"Accept-Language": "zh-CN"}).json["events"]
    assert [e["text"] for e in english][-1] == "Ben resigns."
    assert [e["text"] for e in french][-1] == "Ben abandonne."
    assert [e["text"] for e in chinese][-1] == "Ben 认输。"
    assert french[0]["text"] == "Nouvelle partie : les Romains commencent"
    doc = client.get(f"/api/games/{created['id']}", headers={"Accept-Language": "fr"}).json
    assert doc["result"]["reason"] == "Ben abandonne. Ana gagne."
    assert doc["result"]["say"]["id"] == "{why} {seat} wins."
    chinese = client.get(f"/api/games/{created['id']}?lang=zh").json
    assert chinese["result"]["reason"] == "Ben 认输。Ana 获胜。"
