"""Sentences for people, in any language: the domain says what happened with a message id and its values, and the
service or the page says it in the reader's language (``web/i18n.py``, ``web/static/i18n.js``). Nothing here
translates: the tables of translations are given to ``say`` by its caller.

A ``Text`` *is* its English sentence (a ``str``: logs, the CLI, stored events and old clients read it as before)
and also knows its message id (the English with ``{named}`` fields, as gettext and Babel's extractor see it: the
keywords ``Text`` and ``Text.plural``) and its values. A value is a plain string or number, a ``Seat`` (said as
the player's name, or "Player N" before it has one) or another ``Text`` (a term of the game, a nested reason),
itself translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Seat:
    """A seat in a sentence: "Seat 0" in the domain's English, its player's name (or "Player 1") when said."""

    n: int
    name: str | None = None
    """The player's name when the sentence was made (a stored form), said before ``say``'s names."""

    def __str__(self) -> str:
        return f"Seat {self.n}"


@dataclass(frozen=True)
class Side:
    """A side drawn per game (Mouse Guard's colours) named in a sentence: its word ("Black") in the domain's
    English; said as its player, "Bo (Black)", once the service knows which seat has it (``with_sides``)."""

    word: Any

    def __str__(self) -> str:
        return str(self.word)


def with_sides(text: Any, sides: Sequence[str]) -> Any:
    """``text`` with each ``Side`` that is one of ``sides`` (each seat's side, by seat) said as that seat's player
    and the side: "{player} ({side})"."""
    if isinstance(text, Side):
        word = str(text.word)
        if word in sides:
            return Text("{player} ({side})", player=Seat(list(sides).index(word)), side=text.word)
        return text.word
    if isinstance(text, Text) and any(isinstance(v, (Side, Text)) for v in text.args.values()):
        return Text._make(text.id, text.plural_id, {k: with_sides(v, sides) for k, v in text.args.items()})
    return text


class Text(str):
    """An English sentence that knows its message id and values (see the module)."""

    id: str
    plural_id: str | None
    args: dict[str, Any]

    def __new__(cls, id: str, /, **args: Any) -> Text:
        return cls._make(id, None, args)

    @classmethod
    def plural(cls, singular: str, plural: str, /, n: int, **args: Any) -> Text:
        """A sentence whose form follows the number ``n`` (a field of it): "{n} card" / "{n} cards"."""
        return cls._make(singular, plural, {"n": n, **args})

    @classmethod
    def _make(cls, id: str, plural_id: str | None, args: dict[str, Any], english: str | None = None) -> Text:
        if english is None:
            pattern = id if plural_id is None or args.get("n") == 1 else plural_id
            english = pattern.format_map(_Fields({k: _english(v) for k, v in args.items()}))
        text = str.__new__(cls, english)
        text.id, text.plural_id, text.args = id, plural_id, args
        return text

    def __reduce__(self):  # copies and pickles keep the id and values
        return (_rebuild, (str(self), self.id, self.plural_id, self.args))

    def form(self, names: Sequence[str | None] = ()) -> dict[str, Any]:
        """The JSON form a page says in its language: ``{"id", "plural"?, "args"}`` with seats as ``{"seat": n}``
        (``{"seat": n, "name": ...}`` with the players' ``names``) and nested texts as forms."""
        out: dict[str, Any] = {"id": self.id, "args": {k: _form(v, names) for k, v in self.args.items()}}
        if self.plural_id is not None:
            out["plural"] = self.plural_id
        return out

    @classmethod
    def of_form(cls, form: dict[str, Any]) -> Text:
        """The text of a JSON form (``form``'s inverse)."""
        return cls._make(form["id"], form.get("plural"), {k: _of_form(v) for k, v in form["args"].items()})


class _Fields(dict):
    """Values for ``str.format_map``; a field without one stays as it is (a sentence kept as a pattern)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _rebuild(english: str, id: str, plural_id: str | None, args: dict[str, Any]) -> Text:
    return Text._make(id, plural_id, args, english)


def _english(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _form(value: Any, names: Sequence[str | None] = ()) -> Any:
    if isinstance(value, Text):
        return value.form(names)
    if isinstance(value, Side):
        return _form(value.word, names)
    if isinstance(value, Seat):
        name = names[value.n] if 0 <= value.n < len(names) else None
        return {"seat": value.n, "name": name} if name else {"seat": value.n}
    if isinstance(value, (list, tuple)):
        return [_form(v, names) for v in value]
    return value


def _of_form(value: Any) -> Any:
    if isinstance(value, dict):
        return Seat(value["seat"], value.get("name")) if "seat" in value else Text.of_form(value)
    return value


def words(english: str) -> str:
    """``english`` as it is: a title, a label or a help text of the games' catalog, which the web layer says in the
    reader's language with ``english`` as its message id (``words`` marks it for the catalogs' extraction)."""
    return english


def plain(text: str) -> Text:
    """A sentence with no id of its own (a stored sentence no template matches, a library's message): as is."""
    return text if isinstance(text, Text) else Text._make("{text}", None, {"text": str(text)}, str(text))


def match(raw: str, id: str, /, **kinds: Callable[[str], Any]) -> Text | None:
    """The text ``raw`` is, if it is the English of ``id``: each field's words read back by its kind (``seat``,
    ``int``, ``term(...)``, ``str``; a field not named in ``kinds`` is a string). For sentences stored as plain
    English (a ``game_ended`` event's reason), which are said again in any language."""
    fields = list(dict.fromkeys(re.findall(r"\{(\w+)\}", id)))
    seen: set[str] = set()

    def group(name: str) -> str:  # a field said twice is the same words twice
        if name in seen:
            return f"(?P={name})"
        seen.add(name)
        return f"(?P<{name}>.+?)"

    pattern = "".join(re.escape(part.replace("{{", "{").replace("}}", "}")) if i % 2 == 0 else group(part)
                      for i, part in enumerate(re.split(r"\{(\w+)\}", id)))
    found = re.fullmatch(pattern, raw, flags=re.S)
    if found is None:
        return None
    args = {}
    for name in fields:
        try:
            value = kinds.get(name, str)(found.group(name))
        except (ValueError, KeyError):
            return None
        if value is None:
            return None
        args[name] = value
    return Text._make(id, None, args, raw)


def match_plural(raw: str, singular: str, plural: str, /, **kinds: Callable[[str], Any]) -> Text | None:
    """``match`` for a sentence whose form follows its number ``{n}``."""
    for id in (singular, plural):
        found = match(raw, id, n=int, **kinds)
        if found is not None:
            return Text._make(singular, plural, found.args, raw)
    return None


def first_match(raw: str, *readers: Callable[[str], Text | None]) -> Text:
    """The text of the first reader that reads ``raw`` back, else ``raw`` as it is (``plain``)."""
    for reader in readers:
        found = reader(raw)
        if found is not None:
            return found
    return plain(raw)


def seat(words: str) -> Seat:
    """A seat read back from its English ("Seat 2", "seat 2")."""
    found = re.fullmatch(r"[Ss]eat (\d+)", words)
    if found is None:
        raise ValueError(words)
    return Seat(int(found.group(1)))


def term(*texts: Text) -> Callable[[str], Text]:
    """A reader of a field that is one of ``texts`` (a game's words: "Romans", "Gauls")."""
    by_english = {str(t): t for t in texts}
    return lambda words: by_english[words]


class Translator(Protocol):
    """What ``say`` needs of a language: its gettext functions and how it writes numbers."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


def say(text: Any, translator: Translator | None = None, names: Sequence[str | None] = (),
        number: Callable[[Any], str] | None = None) -> str:
    """``text`` in the translator's language (English without one), seats said with the players' ``names``
    ("Player N" for a seat without one); a plain string is said as it is."""
    if isinstance(text, Side):
        return say(text.word, translator, names, number)
    if isinstance(text, Seat):
        name = text.name or (names[text.n] if 0 <= text.n < len(names) else None)
        return name or say(Text("Player {number}", number=text.n + 1), translator, names, number)
    if not isinstance(text, Text):
        if number is not None and isinstance(text, (int, float)) and not isinstance(text, bool):
            return number(text)
        return _english(text)
    if text.plural_id is not None:
        n = text.args.get("n", 0)
        pattern = translator.ngettext(text.id, text.plural_id, n) if translator else (
            text.id if n == 1 else text.plural_id)
    else:
        pattern = translator.gettext(text.id) if translator else text.id
    values = {k: say(v, translator, names, number) for k, v in text.args.items()}
    try:
        return pattern.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English still says it
        return (text.id if text.plural_id is None or text.args.get("n") == 1 else text.plural_id).format(**values)
