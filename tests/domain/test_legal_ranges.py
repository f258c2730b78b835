"""A legal entry ``verb a..b`` stands for ``verb a`` … ``verb b`` (``domain.base.commands``, ``allows``): a
command whose number is chosen in a range is one entry, not one per number (issue #31: a Mission commando agent
holding 2·10⁶ weapons made a 33 MB document of ``commit 0`` … ``commit 2000000``)."""

from __future__ import annotations

from domain import commando
from domain.base import allows, commands
from tests.domain.test_commando_helpers import Game, agent


def test_commands_lists_what_a_range_stands_for():
    assert commands(["roll", "commit 0..3", "map 2"]) == ["roll", "commit 0", "commit 1", "commit 2", "commit 3",
                                                          "map 2"]
    assert commands([]) == [] and commands(["no challenge"]) == ["no challenge"]


def test_allows_reads_a_range_without_listing_it():
    legal = ["commit 0..2000000", "no challenge"]
    assert allows(legal, "commit 0") and allows(legal, "commit 2000000") and allows(legal, "no challenge")
    for text in ("commit 2000001", "commit -1", "commit 01", "commit x", "commit", "roll", "challenge 1",
                 "commit ٣"):
        assert not allows(legal, text), text


def test_MC_9_a_commitment_is_one_legal_entry_however_many_weapons_are_held():
    game = Game(agent(10, weapons=1000), agent(12, weapons=3))
    game.play("roll", 2)
    assert commando.legal(game.state, 0) == ["commit 0..1000"] and commando.legal(game.state, 1) == ["commit 0..3"]
    assert game.refuse("commit 1001", seat=0) == "you hold only 1000 weapons"
    game.play("commit 1000", seat=0)
