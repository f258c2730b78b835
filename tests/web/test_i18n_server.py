"""#30: what the server says besides pages and the game's own sentences, in the reader's language: the games'
catalog (titles, option labels, help, choices, rules in short), the front's own errors (a foreign host, a body
too large, a bad stream request) and the meeting-people errors; codes and values never change."""

from __future__ import annotations

from tests.web.test_front import through_front

GAME = {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]}


def test_the_catalog_is_said_in_the_reader_language_with_the_same_names_and_values(client):
    english = {g["name"]: g for g in client.get("/api/catalog").json["games"]}
    french = {g["name"]: g for g in client.get("/api/catalog", headers={"Accept-Language": "fr-FR"}).json["games"]}
    chinese = {g["name"]: g for g in client.get("/api/catalog?lang=zh").json["games"]}
    assert english["squirrels"]["title"] == "Foraging Squirrels"
    assert french["squirrels"]["title"] == "Écureuils fourrageurs" and chinese["squirrels"]["title"] == "觅食松鼠"
    assert english["mouseguard"]["title"] == "Mouse Guard: Swords & Strongholds"
    assert chinese["mouseguard"]["title"] == "小鼠守卫：剑与要塞"  # the Chinese seed's name
    variant = {o["name"]: o for o in french["murus"]["options"]}["variant"]
    assert variant["label"] == "Variante" and variant["default"] == "basic"
    assert [c["value"] for c in variant["choices"]] == ["basic", "advanced"]
    assert [c["label"] for c in variant["choices"]] == ["De base", "Avancée (catapultes)"]
    assert "Romains" in french["murus"]["rules"] and "罗马人" in chinese["murus"]["rules"]
    for lang in (french, chinese):
        for name, game in lang.items():
            assert game["notation"] == english[name]["notation"] and game["levels"] == english[name]["levels"]
            for option, original in zip(game["options"], english[name]["options"], strict=True):
                assert option["name"] == original["name"] and option["type"] == original["type"]
                assert option["label"] != original["label"] or option["label"] in ("Boosters", "Fine")


def test_the_lobby_and_a_game_page_name_the_game_in_the_reader_language(client):
    lobby = client.get("/", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "觅食松鼠" in lobby and "突击任务" in lobby and "Foraging Squirrels" not in lobby
    gid = client.post("/api/games", json={**GAME, "game": "squirrels"}).json["id"]
    page = client.get(f"/games/{gid}?lang=fr").get_data(as_text=True)
    assert "<title>Écureuils fourrageurs — Burrow</title>" in page


def test_the_front_says_its_own_errors_in_the_reader_language_with_the_same_code(runtime):
    client = through_front(runtime)
    english = client.get("/api/health", headers={"Host": "rebind.example"})
    french = client.get("/api/health", headers={"Host": "rebind.example", "Accept-Language": "fr-FR"})
    assert english.json()["error"] == {"code": "bad_host",
                                       "message": "this site is not served as 'rebind.example'"}
    assert french.json()["error"] == {"code": "bad_host",
                                      "message": "ce site n'est pas servi sous le nom 'rebind.example'"}
    big = client.post("/api/games?lang=zh", content=b"{" + b" " * 70_000 + b"}",
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and big.json()["error"] == {"code": "too_large",
                                                               "message": "请求体超过 65536 字节"}
    stream = client.get("/api/games/nosuchgame00/stream", headers={"Accept-Language": "fr"})
    assert stream.status_code == 404 and stream.json()["error"] == {"code": "not_found",
                                                                    "message": "aucune partie 'nosuchgame00'"}


def test_the_chat_errors_follow_the_reader_language(client):
    gid = client.post("/api/games", json=GAME).json["id"]
    english = client.get(f"/api/games/{gid}/chat?room=players")
    chinese = client.get(f"/api/games/{gid}/chat?room=players", headers={"Accept-Language": "zh-CN"})
    assert english.status_code == chinese.status_code == 401
    assert english.json["error"]["code"] == chinese.json["error"]["code"]
    assert english.json["error"]["message"] == "the players' room is for the game's players: send a player's token"
    assert chinese.json["error"]["message"] == "玩家聊天室只对本局玩家开放：请发送玩家的令牌"
