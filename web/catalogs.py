"""The translation catalogs' upkeep: extract every string to translate, update each language's ``.po``, compile the
``.mo`` the server reads, and check that nothing is missing.

    python -m web.catalogs update     # extract (babel.cfg) into messages.pot, merge it into every .po
    python -m web.catalogs compile    # .po -> .mo (commit both)
    python -m web.catalogs check      # what a language lacks, a broken placeholder, a stale .mo or .pot

``tests/web/test_i18n_catalogs.py`` runs ``check``: CI fails on a message without its French or Chinese.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import CommandLineInterface, parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "web" / "translations"
POT = TRANSLATIONS / "messages.pot"
LANGUAGES = ("fr", "zh")
"""The languages with a catalog (English is the message ids themselves)."""
KEYWORDS = {"Text": None, "plural": (1, 2), "words": None, "_": None, "gettext": None, "ngettext": (1, 2),
            "t": None, "tn": (1, 2)}
"""What marks a string: ``Text(...)``/``Text.plural(...)`` (domain, services), ``words(...)`` (the games'
catalog: titles, labels, help), ``_``/``gettext``/``ngettext`` (web, templates), ``t``/``tn`` (the page's
scripts)."""
SOURCES = ("domain", "services", "web")


def extract() -> Catalog:
    """Every marked string of the sources, as ``babel.cfg`` maps them."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="burrow", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True, directory_filter=_wanted):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def _wanted(dirpath: str) -> bool:
    """Only the sources' folders (not the virtualenv, the tests or caches)."""
    relative = Path(os.path.relpath(dirpath, ROOT))  # not resolved: a linked folder is not followed out
    return relative.parts == () or relative.parts[0] in SOURCES and not any(
        part.startswith(("_", ".")) for part in relative.parts)


def write_pot(catalog: Catalog) -> None:
    buffer = io.BytesIO()
    # Files, not lines: a string that moves within its file changes no catalog (nine people edit the sources at
    # once, and each catalog line that changes is a merge to do).
    write_po(buffer, catalog, omit_header=False, sort_output=True, width=115, include_lineno=False)
    POT.write_bytes(_without_date(buffer.getvalue()))


def _without_date(raw: bytes) -> bytes:
    """A catalog without its creation date: re-extracting unchanged sources changes nothing."""
    return re.sub(rb'"POT-Creation-Date: [^"]*\\n"\n', b"", raw)


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def mo_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo"


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def update() -> None:
    """Extract into ``messages.pot``, then merge it into every language's ``.po`` (new ids untranslated)."""
    TRANSLATIONS.mkdir(parents=True, exist_ok=True)
    write_pot(extract())
    for lang in LANGUAGES:
        if not po_path(lang).is_file():
            CommandLineInterface().run(["pybabel", "init", "-i", str(POT), "-d", str(TRANSLATIONS),
                                        "-l", lang])
        CommandLineInterface().run(["pybabel", "update", "-i", str(POT), "-d", str(TRANSLATIONS), "-l", lang,
                                    "--no-fuzzy-matching", "--ignore-obsolete", "--ignore-pot-creation-date",
                                    "-w", "115"])


def compiled(lang: str) -> bytes:
    """The ``.mo`` that ``lang``'s ``.po`` compiles to."""
    buffer = io.BytesIO()
    write_mo(buffer, read(po_path(lang), lang), use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> None:
    for lang in LANGUAGES:
        mo_path(lang).write_bytes(compiled(lang))


def _ids(catalog: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def _fields(text: str) -> set[str]:
    """The fields of a message: ``{name}`` (our texts, the page's) and ``%(name)s`` (the templates')."""
    return {a or b for a, b in re.findall(r"(?<!\{)\{(\w*)\}|%\((\w+)\)s", text)}


def check() -> list[str]:
    """Every problem of the catalogs, one sentence each (empty: all is well)."""
    problems = []
    fresh = _ids(extract())
    if not POT.is_file():
        return ["messages.pot is missing: run python -m web.catalogs update"]
    template = _ids(read(POT))
    for missing in sorted(fresh - template):
        problems.append(f"not extracted yet (python -m web.catalogs update): {missing!r}")
    for gone in sorted(template - fresh):
        problems.append(f"no longer in the sources (python -m web.catalogs update): {gone!r}")
    for lang in LANGUAGES:
        catalog = read(po_path(lang), lang)
        have = {}
        for message in catalog:
            if not message.id:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            have[key] = message
        for key in sorted(template):
            message = have.get(key)
            strings = [] if message is None else (
                list(message.string) if isinstance(message.string, (list, tuple)) else [message.string])
            if message is None or not all(strings) or message.fuzzy:
                problems.append(f"{lang}: no translation of {key!r}")
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            allowed = set().union(*(_fields(i) for i in ids))
            for string in strings:
                if not _fields(string) <= allowed or len(ids) == 1 and _fields(string) != allowed:
                    problems.append(f"{lang}: the fields of {key!r} are {sorted(allowed)}, its translation has "
                                    f"{sorted(_fields(string))}")
        if not mo_path(lang).is_file() or mo_path(lang).read_bytes() != compiled(lang):
            problems.append(f"{lang}: its messages.mo is stale: python -m web.catalogs compile")
    return problems


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        problems = check()
        print("\n".join(problems) or "the catalogs are complete")
        return 1 if problems else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
