"""Languages: which one a request reads, the translations, texts said in it, and the page's strings.

The choice (docs/api.md "Languages"): ``?lang=en|fr|zh``, else the saved choice (the ``burrow_lang`` cookie, set
when a page is asked for with ``?lang=``, i.e. by the language switch; then the signed-in account's, through
``account_language``), else ``Accept-Language``, else English. One source for every string: the gettext catalogs
under ``web/translations/`` (``web/catalogs.py`` extracts, updates, compiles and checks them), read by Flask-Babel
for the templates, by ``say`` for the service's texts (errors, the feed, results) and served to the page's
scripts as JSON (``GET /i18n/<lang>.json``, ``static/i18n.js``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from babel import Locale, numbers
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, Response, has_request_context, request
from starlette.requests import Request as StarletteRequest
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from domain import text as texts

LANGUAGES = ("en", "fr", "zh")
DEFAULT = "en"
NAMES = {"en": "English", "fr": "Français", "zh": "中文"}
"""Each language in its own words (the switch)."""
HTML_LANG = {"en": "en", "fr": "fr", "zh": "zh-Hans"}
"""``<html lang>`` of each language: Chinese is simplified Chinese."""
COOKIE = "burrow_lang"
COOKIE_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).parent / "translations"
DOMAIN = "messages"
PAGE_SOURCES = ("web/static/", "domain/")
"""The page's strings: those of its scripts, and the domain's sentences it says itself (a stream's feed lines and
results, which carry their message id; ``static/i18n.js``)."""


def _no_account() -> str | None:
    return None


account_language: Callable[[], str | None] = _no_account
"""The signed-in account's saved language for the current request, or None: accounts set it
(``set_account_language``); until then nobody is signed in."""


def set_account_language(reader: Callable[[], str | None]) -> None:
    """Let ``reader`` (called within a request) tell the signed-in account's saved language."""
    global account_language
    account_language = reader


def known(lang: str | None) -> str | None:
    """``lang`` if it is one of ours (``fr``, ``fr-FR``, ``zh-Hans`` and ``zh_CN`` name ours too), else None."""
    if not lang:
        return None
    primary = re.split(r"[-_]", lang.strip().lower(), maxsplit=1)[0]
    return primary if primary in LANGUAGES else None


def from_accept(header: str | None) -> str | None:
    """The best of our languages for an ``Accept-Language`` header, or None: werkzeug parses and negotiates it
    (by quality, the order breaking ties), each tag read as ours when its primary language is (``zh-TW`` at 0.5
    is our ``zh``, before ``fr`` at 0.3: werkzeug alone would prefer any exact match)."""
    if not header:
        return None
    accepted = parse_accept_header(header, LanguageAccept)
    return known(LanguageAccept([(known(tag) or tag, q) for tag, q in accepted]).best_match(LANGUAGES))


def choose(query: str | None, cookie: str | None, account: str | None, accept: str | None) -> str:
    """The language of a request: the query's, the saved one (cookie, then the account's), the browser's."""
    return known(query) or known(cookie) or known(account) or from_accept(accept) or DEFAULT


def request_arg(name: str) -> str | None:
    """The current request's query argument ``name``; the query string is parsed only when it may hold it (most
    API calls carry none)."""
    return request.args.get(name) if name in request.environ.get("QUERY_STRING", "") else None


def request_cookie(name: str) -> str | None:
    """The current request's cookie ``name``; the cookies are parsed only when the header may hold it."""
    return request.cookies.get(name) if name in request.environ.get("HTTP_COOKIE", "") else None


LANG = "burrow.lang"
"""The environ's key of the request's language, once decided."""


def request_language() -> str:
    """The current Flask request's language (decided once per request, kept in its environ)."""
    if not has_request_context():
        return DEFAULT
    environ = request.environ
    lang = environ.get(LANG)
    if lang is None:
        lang = known(request_arg("lang")) or known(request_cookie(COOKIE))
        if lang is None:  # the account is looked up only when the query and the cookie say nothing
            try:
                account = account_language()
            except Exception:  # an account store that fails must not take the page down: the browser's language
                account = None
            lang = choose(None, None, account, environ.get("HTTP_ACCEPT_LANGUAGE"))
        environ[LANG] = lang
    return lang


def scope_language(scope: dict) -> str:
    """The language of an ASGI request that never reaches Flask (the front's own errors): query, cookie, header."""
    request = StarletteRequest(scope)
    return choose(request.query_params.get("lang"), request.cookies.get(COOKIE), None,
                  request.headers.get("accept-language"))


# -- translations ------------------------------------------------------------------------------------------


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (none for English: the message ids are English)."""
    if lang == DEFAULT:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [lang], DOMAIN)


def number(value: Any, lang: str) -> str:
    """A number written as ``lang`` writes it (no grouping: versions and years read as they are)."""
    return numbers.format_decimal(value, locale=Locale.parse(lang), group_separator=False)


def say(text: Any, lang: str | None = None, names: Iterable[str | None] = ()) -> str:
    """``text`` (a ``domain.text.Text``, or a plain string, said as it is) in ``lang`` (default: the request's),
    seats named by ``names``."""
    lang = lang or request_language()
    return texts.say(text, translations(lang), tuple(names), lambda v: number(v, lang))


def say_form(form: Any, lang: str, names: Iterable[str | None] = ()) -> str | None:
    """The JSON form of a text (``Text.form``) said in ``lang``, or None if ``form`` is not one."""
    if not isinstance(form, dict) or "id" not in form:
        return None
    try:
        return say(texts.Text.of_form(form), lang, names)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def localize_events(events: list[dict], lang: str, names: Iterable[str | None] = ()) -> list[dict]:
    """Feed events with their ``text`` said in ``lang`` (from the ``say`` form each carries; English is said
    already)."""
    if lang == DEFAULT:
        return events
    names = tuple(names)
    for event in events:
        said = say_form(event.get("say"), lang, names)
        if said is not None:
            event["text"] = said
    return events


def localize_result(result: dict | None, lang: str, names: Iterable[str | None] = ()) -> dict | None:
    """A result with its ``reason`` said in ``lang``."""
    if result:
        said = say_form(result.get("say"), lang, names)
        if said is not None:
            result["reason"] = said
    return result


def player_names(players: list[dict]) -> tuple[str | None, ...]:
    """The names of a document's players, by seat."""
    return tuple(p.get("name") for p in players or ())


def localize_document(doc: dict, lang: str) -> dict:
    """A game document or lobby line as ``lang`` reads it (its result's reason)."""
    if lang != DEFAULT and isinstance(doc, dict) and doc.get("result"):
        doc = {**doc, "result": localize_result(dict(doc["result"]), lang, player_names(doc.get("players") or []))}
    return doc


def words(english: str, lang: str) -> str:
    """A catalog's title, label or help (``domain.text.words``) in ``lang``: its English is its message id."""
    return translations(lang).gettext(english) if english else english


def catalog_entry(info: Any, lang: str) -> dict:
    """A game's catalog entry (``domain/catalog.py``) as ``GET /api/catalog`` serves it to a reader of ``lang``:
    its title, rules in short, options' labels, help and choices in that language (names, values and the notation
    never change)."""
    from domain.catalog import to_builtins

    entry = to_builtins(info)
    if lang == DEFAULT:
        return entry
    entry["title"], entry["rules"] = words(entry["title"], lang), words(entry["rules"], lang)
    for option in entry["options"]:
        option["label"], option["help"] = words(option["label"], lang), words(option.get("help", ""), lang)
        for choice in option.get("choices") or ():
            choice["label"] = words(choice["label"], lang)
    return entry


# -- the page's strings -------------------------------------------------------------------------------------


@functools.cache
def _page_ids() -> frozenset[str]:
    """The message ids the page's scripts may say (``PAGE_SOURCES``), from the extracted template."""
    pot = TRANSLATIONS / f"{DOMAIN}.pot"
    if not pot.is_file():
        return frozenset()
    with pot.open("rb") as f:
        catalog = read_po(f)
    return frozenset(m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id
                     and any(path.startswith(PAGE_SOURCES) for path, _ in m.locations))


@functools.cache
def page_catalog(lang: str) -> tuple[bytes, str]:
    """``lang``'s strings for the page, as JSON, and its ETag: ``{"lang", "plurals", "messages"}``, each message
    id with its translation (a list of forms for a plural; ``plurals`` names each form by its CLDR category, as
    the page's ``Intl.PluralRules`` chooses one)."""
    messages: dict[str, Any] = {}
    if lang != DEFAULT:
        catalog = getattr(translations(lang), "_catalog", {})
        plurals: dict[str, dict[int, str]] = {}
        for key, value in catalog.items():
            if isinstance(key, tuple):
                plurals.setdefault(key[0], {})[key[1]] = value
            elif key and key in _page_ids():
                messages[key] = value
        for key, forms in plurals.items():
            if key in _page_ids():
                messages[key] = [forms[i] for i in sorted(forms)]
    tags = Locale.parse(lang).plural_form.tags
    plurals = [tag for tag in ("zero", "one", "two", "few", "many") if tag in tags] + ["other"]
    raw = json.dumps({"lang": lang, "plurals": plurals, "messages": messages}, ensure_ascii=False,
                     sort_keys=True).encode()
    return raw, hashlib.sha256(raw).hexdigest()[:16]


i18n = Blueprint("i18n", __name__)


@i18n.get("/i18n/<lang>.json")
def page_strings(lang: str):
    """The page's strings in ``lang`` (404 for a language we do not have)."""
    if lang not in LANGUAGES:
        return Response(json.dumps({"error": {"code": "not_found", "message": f"no language {lang[:20]!r}"}}),
                        status=404, mimetype="application/json")
    raw, etag = page_catalog(lang)
    response = Response(raw, mimetype="application/json")
    response.set_etag(etag)
    # The page asks for it with its ETag in the query (``page_strings``): a new catalog is a new address.
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if request.args.get("v") == etag \
        else "no-cache"
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    """Flask-Babel over our catalogs with our choice of language, the page strings' route, the switch's cookie
    and what the templates need (``lang``, ``html_lang``, ``languages``, ``switch_url``)."""
    from flask_babel import Babel

    Babel(app, locale_selector=request_language, default_translation_directories=str(TRANSLATIONS),
          default_domain=DOMAIN)
    app.register_blueprint(i18n)

    @app.context_processor
    def languages():
        lang = request_language()
        return {"lang": lang, "html_lang": HTML_LANG[lang], "languages": NAMES, "switch_url": switch_url,
                "page_strings": f"/i18n/{lang}.json?v={page_catalog(lang)[1]}"}

    @app.after_request
    def remember_choice(response):
        chosen = known(request_arg("lang"))
        if chosen and response.mimetype == "text/html" and request.cookies.get(COOKIE) != chosen:
            response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                                secure=request.is_secure)
        return response  # every answer varies with the language's headers: web/headers.py


def switch_url(lang: str) -> str:
    """This page in ``lang`` (the switch's link: its other query arguments kept)."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return request.path + "?" + urlencode([*args, ("lang", lang)])
