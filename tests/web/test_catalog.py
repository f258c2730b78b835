"""The catalog (domain/catalog.py): GET /api/catalog as docs/api.md says, every game fact derived from it (the
options check, the players check, the page titles, the OpenAPI document, the README's games table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import registry
from domain.base import BadSetup, Setup, check_options
from domain.catalog import FORM_TYPES, GameInfo

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry.catalog()


def test_every_game_has_one_catalog_entry_named_like_it():
    assert [info.name for info in GAMES] == list(registry.GAME_NAMES)
    for info in GAMES:
        module = registry.game_module(info.name)
        assert isinstance(info, GameInfo)
        assert (info.name, info.seats, info.defaults()) == (module.NAME, module.SEATS, module.OPTIONS)
        assert info.title and info.rules and info.notation and info.levels
        for option in info.options:
            assert option.label and option.help, (info.name, option.name)
            assert (option.type == "choice") == bool(option.choices), (info.name, option.name)
            assert option.problem(option.default) is None, (info.name, option.name)


def test_get_catalog_is_the_contract_shape(client):
    answer = client.get("/api/catalog")
    assert answer.status_code == 200
    games = answer.get_json()["games"]
    assert [g["name"] for g in games] == list(registry.GAME_NAMES)
    for game in games:
        assert {"name", "title", "seats", "levels", "options", "rules"} <= set(game)
        low, high = game["seats"]
        assert 1 <= low <= high and game["levels"] == ["easy", "normal", "hard"]
        for option in game["options"]:
            assert {"name", "type", "default", "label"} <= set(option)
            if option["type"] == "choice":
                assert option["default"] in [c["value"] for c in option["choices"]]


@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.name)
def test_options_are_checked_by_their_catalog_type(info):
    bad = {"bool": "yes", "choice": "nonesuch", "count": 0, "int": -1, "text": 5, "object": [1]}
    for option in info.options:
        with pytest.raises(BadSetup) as caught:
            check_options({option.name: bad[option.type]}, info.options)
        assert caught.value.field == f"options.{option.name}"
    with pytest.raises(BadSetup, match="unknown option"):
        check_options({"colour": 1}, info.options)


@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.name)
def test_a_game_accepts_every_choice_its_catalog_offers(info):
    import random

    module = registry.game_module(info.name)
    for option in info.options:
        for choice in option.choices or ():
            events = module.initial(Setup(seats=info.seats[0], options={option.name: choice.value}),
                                    random.Random(1))
            assert events


def test_players_are_checked_against_the_catalog(client):
    three = [{"name": "a"}, {"name": "b"}, {"name": "c"}]
    answer = client.post("/api/games", json={"game": "murus", "players": three})
    assert answer.status_code == 422 and answer.get_json()["error"]["message"] == "players: murus needs 2 players"
    five = [{"name": str(i)} for i in range(5)]
    answer = client.post("/api/games", json={"game": "squirrels", "players": five})
    assert answer.status_code == 422 and "squirrels needs 2 to 4 players" in answer.get_json()["error"]["message"]
    bad_level = [*three[:2], {"name": "x", "ai": "m"}]
    answer = client.post("/api/games", json={"game": "squirrels", "players": bad_level})
    message = answer.get_json()["error"]["message"]
    assert answer.status_code == 400 and "players[2].ai: must be one of easy, normal, hard" in message


def test_pages_and_openapi_take_titles_and_levels_from_the_catalog(client):
    lobby = client.get("/").get_data(as_text=True)
    for info in GAMES:
        assert info.title.replace("&", "&amp;") in lobby
    doc = client.get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    assert schemas["CreateGame"]["properties"]["players"]["items"] == {"$ref": "#/components/schemas/Player"}
    player = schemas["Player"]
    assert set(player["properties"]) == {"name", "ai", "open", "me"} and player["additionalProperties"] is False
    assert player["properties"]["ai"]["anyOf"][0]["enum"] == ["easy", "normal", "hard"]
    assert "Catalog" in doc["components"]["schemas"] and "/api/catalog" in doc["paths"]
    described = doc["components"]["schemas"]["CreateGame"]["properties"]["options"]["description"]
    for info in GAMES:
        assert f"{info.name}: {', '.join(o.name for o in info.options)}" in described


def readme_table(games: list[GameInfo]) -> str:
    """The README's games table as the catalog makes it."""

    def option(o) -> str:
        if o.type == "choice":
            return f"`{o.name}`: " + "/".join(f'`"{c.value}"`' for c in o.choices)
        return f"`{o.name}`"

    def seats(info: GameInfo) -> str:
        low, high = info.seats
        text = str(low) if low == high else f"{low}–{high}"
        return f"{text} ({info.seats_note})" if info.seats_note else text

    def command(n) -> str:
        return f"`{n.move}`" + (f" {n.meaning}" if n.meaning else "")

    lines = ["| game (`\"game\"`) | seats | options | commands |", "|---|---|---|---|"]
    for info in games:
        options = ", ".join(option(o) for o in info.options)
        commands = ", ".join(command(n) for n in info.notation)
        lines.append(f"| {info.title} (`{info.name}`) | {seats(info)} | {options} | {commands} |")
    return "\n".join(lines)


def test_the_readme_games_table_is_the_catalog():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^\| game \(`\"game\"`\).*?(?=\n\n)", readme, re.S | re.M)
    expected = readme_table(GAMES)
    assert found, "README.md has no games table"
    assert found.group(0) == expected, "README.md's games table is not the catalog's; it should read:\n" + expected


def test_form_types_are_what_the_lobby_renders():
    lobby = (ROOT / "web" / "static" / "lobby.js").read_text(encoding="utf-8")
    assert "/api/catalog" in lobby
    for kind in FORM_TYPES:
        assert f'"{kind}"' in lobby, kind
