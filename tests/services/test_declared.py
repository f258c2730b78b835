"""Refusals said from the declared type (``services/declared.py``): msgspec says where a value goes wrong, the
sentence comes from the type at that place and the value found there."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from services import declared


class Seat(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=5)]
    level: Literal["easy", "hard"] | None = None


class Body(msgspec.Struct, forbid_unknown_fields=True):
    move: str
    seats: list[Seat] = []
    host: Seat | None = None
    version: Annotated[int, msgspec.Meta(ge=0, le=10)] | None = None
    rated: bool = True
    weight: float | None = None


@pytest.mark.parametrize("value, message, field", [
    ({}, "the field move is missing", "move"),
    ({"move": "x", "colour": 1}, "colour: unknown field (known: move, seats, host, version, rated, weight)",
     "colour"),
    ({"move": "x", "host": {"name": "a", "x": 1}}, "host.x: unknown field (known: name, level)", "host.x"),
    ({"move": "x", "host": 3}, "host: must be an object, not 3", "host"),
    ({"move": 5}, "move: must be a text, not 5", "move"),
    ({"move": "x", "version": -1}, "version: must be at least 0, not -1", "version"),
    ({"move": "x", "version": 11}, "version: must be at most 10, not 11", "version"),
    ({"move": "x", "version": "3"}, 'version: must be an integer, not "3"', "version"),
    ({"move": "x", "version": 1.5}, "version: must be an integer, not 1.5", "version"),
    ({"move": "x", "rated": "yes"}, 'rated: must be true or false, not "yes"', "rated"),
    ({"move": "x", "weight": "1"}, 'weight: must be a number, not "1"', "weight"),
    ({"move": "x", "seats": {}}, "seats: must be a list, not {}", "seats"),
    ({"move": "x", "seats": [{"name": "a"}, 3]}, "seats[1]: must be an object, not 3", "seats[1]"),
    ({"move": "x", "seats": [{"name": "abcdef"}]}, "seats[0].name: must be at most 5 characters, not 6",
     "seats[0].name"),
    ({"move": "x", "seats": [{"name": "a", "level": "x"}]}, 'seats[0].level: must be one of easy, hard, not "x"',
     "seats[0].level"),
    ({"move": "x", "seats": [{}]}, "seats[0]: the field name is missing", "seats[0].name"),
    ({"move": "x", "seats": [{"name": "a", "ai": 1}]}, "seats[0].ai: unknown field (known: name, level)",
     "seats[0].ai"),
])
def test_the_sentence_comes_from_the_type_at_the_place_msgspec_names(value, message, field):
    with pytest.raises(declared.Refused) as refused:
        declared.convert(value, Body)
    assert (str(refused.value.text), refused.value.field) == (message, field)
    assert refused.value.unknown == ("unknown field" in message)


def test_a_refusal_is_a_text_said_in_other_languages_and_named_from_the_value_own_name():
    from web.i18n import say

    with pytest.raises(declared.Refused) as refused:
        declared.convert([{"name": 5}], list[Seat], "players")
    text = refused.value.text
    assert (str(text), refused.value.field) == ("players[0].name: must be a text, not 5", "players[0].name")
    assert say(text, "fr") == "players[0].name : doit être un texte, pas 5"
    assert say(text, "zh") == "players[0].name：必须是文本，而不是 5"


def test_a_long_value_is_cut_short_in_the_sentence():
    with pytest.raises(declared.Refused) as refused:
        declared.convert({"move": ["x" * 500]}, Body)
    assert len(str(refused.value.text)) < 100 and str(refused.value.text).endswith("…")


def test_the_location_is_read_from_msgspec_error():
    with pytest.raises(msgspec.ValidationError) as error:
        msgspec.convert({"move": "x", "seats": [{"name": "a"}, {"name": 1}]}, Body)
    assert declared.location(error.value) == ["seats", 1, "name"]
