"""Completeness of the translations: every string marked in the sources is extracted, translated into French and
Chinese with the same fields, and compiled (``web/catalogs.py``)."""

from __future__ import annotations

from web import catalogs


def test_every_message_has_its_french_and_chinese_and_every_mo_is_fresh():
    problems = catalogs.check()
    assert not problems, "\n".join(problems[:40]) + (f"\n… and {len(problems) - 40} more" if len(problems) > 40
                                                     else "")


def test_a_missing_translation_or_a_stale_mo_is_found(tmp_path, monkeypatch):
    import shutil

    copy = tmp_path / "translations"
    shutil.copytree(catalogs.TRANSLATIONS, copy)
    monkeypatch.setattr(catalogs, "TRANSLATIONS", copy)
    monkeypatch.setattr(catalogs, "POT", copy / "messages.pot")
    po = catalogs.po_path("fr")
    text = po.read_text()
    po.write_text(text.replace('msgstr "Joueur {number}"', 'msgstr ""', 1))
    problems = catalogs.check()
    assert "fr: no translation of 'Player {number}'" in problems
    assert any(p.startswith("fr:") and "is stale" in p for p in problems)
    po.write_text(text.replace('msgstr "Joueur {number}"', 'msgstr "Joueur {numero}"', 1))
    catalogs.compile_all()
    assert catalogs.check() == ["fr: the fields of 'Player {number}' are ['number'], its translation has "
                                "['numero']"]
