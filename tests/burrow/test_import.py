"""``burrow import`` validates the whole file before it appends: one line naming the first problem, exit 1,
nothing appended. The golden games of every game import as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from burrow import cli

GOLDEN = Path(__file__).parent.parent / "golden"




def golden(game: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / f"{game}.jsonl").read_text().splitlines() if line.strip()]


def write(tmp_path, lines: list[dict]) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


@pytest.mark.parametrize("game", ["murus", "mouseguard", "squirrels", "commando"])
def test_every_golden_game_imports(redis_env, tmp_path, capsys, game):
    lines = golden(game)
    assert cli.main(["import", write(tmp_path, lines)]) == 0
    gid = capsys.readouterr().out.split()[2]
    assert redis_env.store.version(gid) == len(lines) - 1


def _drop(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


def broken(game: str, change) -> list[dict]:
    lines = golden(game)
    change(lines)
    return lines


CASES = [
    ("no players", lambda ls: ls[0].update(meta=_drop(ls[0]["meta"], "players")),
     "header: players must be a list of players"),
    ("unknown game", lambda ls: ls[0]["meta"].update(game="chess"), "header: unknown game 'chess'"),
    ("three players", lambda ls: ls[0]["meta"]["players"].append({"name": "Cy"}),
     "header: murus takes 2 players, not 3"),
    ("bad AI level", lambda ls: ls[0]["meta"]["players"][0].update(ai="genius"),
     "header: players[0].ai must be one of easy, normal, hard"),
    ("empty name", lambda ls: ls[0]["meta"]["players"][1].update(name=" "), "header: players[1].name"),
    ("no id", lambda ls: ls[0].pop("id"), "header: id must be a game id"),
    ("bad option", lambda ls: ls[1]["data"]["options"].update(variant="giant"),
     "version 1 ('game_created'): options.variant: must be"),
    ("seats differ", lambda ls: ls[1]["data"].update(seats=3),
     "version 1 ('game_created'): the game is created for 3 seats, the header has 2 players"),
    ("unknown type", lambda ls: ls[3].update(type="teleported", data={"type": "teleported"}),
     "version 3 ('teleported'): not a murus event"),
    ("field of the wrong type", lambda ls: ls[3]["data"].update(seat="zero"),
     "version 3 ('moved'): not a murus event"),
    ("type and data differ", lambda ls: ls[3].update(type="game_ended"),
     "version 3 ('game_ended'): the data says it is a 'moved' event"),
    ("inconsistent move", lambda ls: ls[3]["data"].update(cells={"z9": "R"}), "version 3 ('moved'): "),
    ("bad time", lambda ls: ls[2].update(at="noon"), "version 2 ('moved'): at must be a time"),
]


def _draw_another_card(lines: list[dict]) -> None:
    drawn = next(line for line in lines[1:] if line["type"] == "card_drawn")
    drawn["data"]["card"] = "sword" if drawn["data"]["card"] != "sword" else "stronghold"


CASES += [
    ("a drawn card that is not the deck's top (Mouse Guard)", _draw_another_card,
     "('card_drawn'): CardDrawn names"),
]
GAME_OF = {"a drawn card that is not the deck's top (Mouse Guard)": "mouseguard"}


@pytest.mark.parametrize("name, change, message", CASES, ids=[c[0] for c in CASES])
def test_a_bad_export_is_one_line_exit_1_nothing_appended(redis_env, tmp_path, capsys, name, change, message):
    path = write(tmp_path, broken(GAME_OF.get(name, "murus"), change))
    assert cli.main(["import", path]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert list(redis_env.store.game_ids()) == []
    assert list(redis_env.redis.scan_iter(match=f"{redis_env.settings.prefix}*")) == []
