"""Sentences the domain says without translating them (``domain/text.py``)."""

from __future__ import annotations

import copy
import json
import pickle

from domain.text import Seat, Text, match, plain, say, seat, term


class French:
    """A translator of two sentences."""

    table = {"{seat} resigns.": "{seat} abandonne.", "Player {number}": "Joueur {number}", "Romans": "Romains",
             "{side} reached row {row}": "les {side} ont atteint la rangée {row}"}

    def gettext(self, message):
        return self.table.get(message, message)

    def ngettext(self, singular, plural, n):
        return {"{n} card": "{n} carte" if n <= 1 else "{n} cartes"}.get(singular, singular if n == 1 else plural)


def test_a_text_is_its_english_and_knows_its_id_and_values():
    text = Text("{seat} resigns.", seat=Seat(0))
    assert text == "Seat 0 resigns." and isinstance(text, str) and json.dumps(text) == '"Seat 0 resigns."'
    assert text.id == "{seat} resigns." and text.args == {"seat": Seat(0)}
    assert text.form() == {"id": "{seat} resigns.", "args": {"seat": {"seat": 0}}}
    assert Text.of_form(text.form()).form() == text.form()
    for again in (copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert again == text and again.form() == text.form()


def test_said_with_names_in_a_language_seats_are_players():
    text = Text("{seat} resigns.", seat=Seat(1))
    assert say(text) == "Player 2 resigns."
    assert say(text, names=["Ana", "Bo"]) == "Bo resigns."
    assert say(text, French(), ["Ana", None]) == "Joueur 2 abandonne."


def test_plurals_and_nested_texts_are_said_in_the_language():
    cards = Text.plural("{n} card", "{n} cards", n=2)
    assert cards == "2 cards" and Text.plural("{n} card", "{n} cards", n=1) == "1 card"
    assert say(cards, French()) == "2 cartes"
    reason = Text("{side} reached row {row}", side=Text("Romans"), row=7)
    assert say(reason, French(), number=lambda v: f"<{v}>") == "les Romains ont atteint la rangée <7>"


def test_a_stored_english_sentence_is_read_back_to_its_text():
    stored = "Seat 2 resigns."
    found = match(stored, "{seat} resigns.", seat=seat)
    assert found == stored and found.args == {"seat": Seat(2)}
    side = match("Romans reached row 7", "{side} reached row {row}", side=term(Text("Romans")), row=int)
    assert say(side, French()) == "les Romains ont atteint la rangée 7"
    assert match("Vikings reached row 7", "{side} reached row {row}", side=term(Text("Romans")), row=int) is None
    assert match("Bo resigns.", "{seat} resigns.", seat=seat) is None


def test_a_plain_sentence_is_said_as_it_is():
    assert say(plain("Expected `int`, got `str`"), French()) == "Expected `int`, got `str`"


def test_a_broken_translation_falls_back_to_english():
    class Broken(French):
        table = {"{seat} resigns.": "{who} abandonne."}

    assert say(Text("{seat} resigns.", seat=Seat(0)), Broken(), ["Ana"]) == "Ana resigns."


def test_stored_reasons_are_read_back_to_their_message_ids():
    """A ``game_ended`` event stores its reason as English; every game reads it back to the text it was made
    from, so that old games are said in any language too."""
    from domain.commando.rules import reason_text as commando
    from domain.mouseguard.turns import reason_text as mouseguard
    from domain.murus.rules import reason_text as murus
    from domain.squirrels.scoring import reason_text as squirrels

    cases = [(murus, "Romans have no legal move", "{side} have no legal move"),
             (murus, "Draw: the limit of 1 ply was reached", "Draw: the limit of {n} move was reached"),
             (murus, "Draw: the limit of 3 moves was reached", "Draw: the limit of {n} move was reached"),
             (mouseguard, "White built a stronghold on F1, in the enemy's corner",
              "White built a stronghold on {square}, in the enemy's corner"),
             (mouseguard, "a draw: the limit of 2 plies was reached", "Draw: the limit of {n} move was reached"),
             (squirrels, "Seat 0 wins with 11 points.", "{seat} wins with {n} point."),
             (squirrels, "Seat 0, Seat 1 and Seat 2 share the win with 5 points each.",
              "{seats} share the win with {n} point each."),
             (commando, "Seat 2's agent reached the enemy base", "{seat}'s agent reached the enemy base"),
             (commando, "Seat 2's agent reached the enemy base. Seat 2 wins.",
              "{seat}'s agent reached the enemy base. {seat} wins.")]
    for read, stored, id in cases:
        text = read(stored)
        assert text.id == id, (stored, text.id)
        # Games stored before #15 now open with "Draw:", and before #30 said "ply": they say "move" now.
        assert text == stored or stored.startswith("a draw:") or " ply" in stored or " plies" in stored
    assert say(squirrels("Seat 0, Seat 1 and Seat 2 share the win with 5 points each."), names=["A", "B", "C"]) \
        == "A, B and C share the win with 5 points each."
