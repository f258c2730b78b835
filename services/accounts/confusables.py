"""Names that look alike: UTS #39's confusable skeletons and its mixed-script test, with Unicode's own
``confusables.txt`` data as the ``confusable-homoglyphs`` package ships it (a guest may not take a name that looks
like an account's: ``аlice`` in Cyrillic, ``ａｌｉｃｅ``, ``aIice``, ``alicé``).

``skeleton`` is UTS #39's: NFD, each character that is a *source* of ``confusables.txt`` replaced by its
prototype, NFD again. The package keeps each line of the file in both directions (source → prototype and back);
a source is the side that maps to exactly one string which maps back to more than it or to it alone. Where two
characters name only each other either way round, both map to the smaller, the same equivalence. ``name_key``,
what reserved names are compared by, goes further than the skeleton, on purpose: the skeleton's lower case
skeleton (``I`` → ``l``, then any case), without combining marks (an accent added to a name is the same name).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from pathlib import Path

import confusable_homoglyphs
from confusable_homoglyphs import categories

MARK = "\u200e"  # the package's data wraps right-to-left characters in left-to-right marks: not part of them
# UTS #39's "highly restrictive" level: one script, or Latin with the scripts written beside it in East Asia.
ALLOWED_MIXES = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"},
                 {"LATIN", "HAN", "HANGUL"})
ANY_SCRIPT = {"COMMON", "INHERITED"}  # digits, punctuation, spaces; combining marks take their base's script


@functools.cache
def _prototypes() -> dict[str, str]:
    """Source character → its prototype, from the package's two-way table."""
    raw = json.loads((Path(confusable_homoglyphs.__file__).parent / "confusables.json").read_text("utf-8"))
    table = {key.replace(MARK, ""): [h["c"].replace(MARK, "") for h in found] for key, found in raw.items()}
    out = {}
    for key, found in table.items():
        if len(key) != 1 or len(found) != 1:
            continue  # a prototype (several sources map to it, or a string of several characters)
        other = found[0]
        back = table.get(other, [])
        if len(back) > 1 or len(other) != 1:
            out[key] = other  # ``key`` is one of ``other``'s sources
        elif back == [key]:
            out[key] = min(key, other)  # each names only the other: one of them stands for both
    return out


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal skeletons look alike."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(text: str) -> str:
    """What two names are compared by: equal keys look alike (see the module)."""
    folded = skeleton(skeleton(text).casefold())
    return "".join(ch for ch in folded if not unicodedata.combining(ch)).replace(" ", "")


def name_keys(text: str) -> set[str]:
    """The keys of ``text`` as written and in lower case (``ＡＬＩＣＥ`` is ``alice``, and ``I`` an ``l`` too)."""
    return {name_key(text), name_key(text.casefold())}


def scripts(text: str) -> set[str]:
    """The scripts ``text`` is written in (digits, punctuation and marks belong to none)."""
    return {categories.aliases_categories(ch)[0] for ch in text} - ANY_SCRIPT


def is_mixed_script(text: str) -> bool:
    """Whether ``text`` mixes scripts beyond what UTS #39's highly restrictive level allows."""
    found = scripts(text)
    return len(found) > 1 and not any(found <= mix for mix in ALLOWED_MIXES)
