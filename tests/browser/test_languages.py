"""#30: every page in English, French and Chinese, as Chromium with that locale (its Accept-Language) shows it:
the right ``<html lang>``, no English left where the page is French or Chinese (no phrase of a message id the
catalogs translate), and no horizontal overflow at 390 px (French is long, Chinese needs its font); and the
players' words: moves numbered by turn, keyboard play, a low clock in red, a guest's name asked in the page."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.helpers import first_moves, join_from_lobby

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LOCALES = {"en": "en-US", "fr": "fr-FR", "zh": "zh-CN"}
HTML_LANG = {"en": "en", "fr": "fr", "zh": "zh-Hans"}
PHONE = {"width": 390, "height": 844}
GAMES = {"murus": 2, "mouseguard": 2, "squirrels": 3, "commando": 3}
# Everything a reader meets on a page: its text, and the words of its labels, titles and placeholders.
READ = """() => [document.body.innerText, ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')]
  .flatMap((n) => [n.getAttribute('aria-label'), n.getAttribute('title'), n.getAttribute('placeholder')])
  .filter(Boolean)].join('\\n')"""


def english_phrases() -> list[str]:
    """Pieces of English that a French or Chinese page must not show: from every message id the catalogs
    translate (its French differs), the runs of words between its {fields}, of two words and ten letters or more,
    unless the French keeps them (a name, "Modern Horizons 2")."""
    with (ROOT / "web/translations/fr/LC_MESSAGES/messages.po").open("rb") as f:
        catalog = read_po(f, locale="fr")
    found = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        french = " ".join(strings)
        for english in ids:
            if english in strings:
                continue
            for piece in re.split(r"\{\w*\}|%\(\w+\)s", english):
                piece = piece.strip(" .,:;()“”\"'")
                if len(piece) >= 10 and len(piece.split()) >= 2 and piece not in french:
                    found.add(piece)
    return sorted(found, key=len, reverse=True)


PHRASES = english_phrases()


@pytest.fixture
def reader(new_page):
    """A page of a fresh browser context speaking ``lang`` (its locale: the Accept-Language it sends)."""

    def make(lang: str, width: int = PHONE["width"], height: int = PHONE["height"]):
        return new_page(width, height, locale=LOCALES[lang])

    return make


def english_left(page) -> list[str]:
    text = page.evaluate(READ)
    return [phrase for phrase in PHRASES if phrase in text]


def check(page, lang: str, what: str) -> None:
    """The page is in ``lang``, fits 390 px, and (French, Chinese) shows no English phrase of the catalogs."""
    assert page.evaluate("document.documentElement.lang") == HTML_LANG[lang], what
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{what} in {lang} is {width}px wide"
    if lang != "en":
        assert not english_left(page), f"{what} in {lang} still says {english_left(page)[:5]}"


def played(server, watch, game: str, moves: int = 3) -> tuple[str, dict]:
    """A game of ``game`` a few moves in, and the tokens of its seats."""
    players = [{"name": name} for name in ("Ana", "Ben", "Cy")[:GAMES[game]]]
    created = server.api("POST", "/api/games", {"game": game, "players": players, "seed": 5})
    watch.add_seats(created)
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    for _ in range(moves):
        doc = server.api("GET", f"/api/games/{gid}")
        if not doc["to_act"]:
            break
        seat = doc["to_act"][0]
        mine = server.api("GET", f"/api/games/{gid}", token=tokens[seat])
        move = next(m for m in mine["legal"] if ".." not in m)
        server.api("POST", f"/api/games/{gid}/commands", {"move": move}, token=tokens[seat])
    return gid, tokens


def test_english_phrases_are_many_and_real():
    """The check below looks for something: hundreds of phrases, such as the lobby's and the game page's."""
    assert len(PHRASES) > 300
    assert {"Create the game", "Waiting for a player to take the open seat"} <= set(PHRASES)


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_every_page_in_each_language_at_390_px(server, watch, reader, lang):
    page = reader(lang)
    page.goto("/")
    expect(page.locator("#games-status")).not_to_be_empty()
    expect(page.locator("#options label")).not_to_have_count(0)  # the catalog's options, said in the language
    check(page, lang, "the lobby")
    shot(page, f"lobby-{lang}-390")
    # One title per game per language (#38): the tiles say the catalog's title, as the rest of the page does.
    title = {"en": "Murus Gallicus", "fr": "Murus Gallicus", "zh": "高卢城墙"}[lang]
    expect(page.locator("#pairing-tiles")).to_contain_text(f"{title} 5+3")
    if lang == "zh":
        expect(page.locator("#pairing-tiles")).not_to_contain_text("Murus")
    if lang == "fr":
        expect(page.locator("#computer-games")).to_contain_text("Mouse Guard : Épées et Forteresses")
    for game in GAMES:
        gid, tokens = played(server, watch, game)
        page.goto(f"/games/{gid}#tokens={','.join(tokens.values())}")
        expect(page.locator("#players .player")).to_have_count(GAMES[game])
        expect(page.locator("#moves li")).not_to_have_count(0)
        page.wait_for_timeout(300)  # the board's own texts
        check(page, lang, f"a game of {game}")
        assert " 的玩法" not in page.locator("body").inner_text()  # "高卢城墙的玩法", not "高卢城墙 的玩法"
        shot(page, f"{game}-{lang}-390")
        if game == "commando":  # every column of the agents' table on screen (none scrolled out of sight)
            fits = "t => t.scrollWidth <= t.parentElement.clientWidth + 1"
            assert page.locator("#board .agents-table").evaluate(fits), f"the agents' table in {lang}"
        page.locator("a.rules-link").click()  # the rules, over the board: in the language too
        expect(page.locator("#rules")).to_have_attribute("open", "")
        check(page, lang, f"the rules of {game}")
        page.keyboard.press("Escape")
    for path in ("/signin", "/signup", "/leaderboard/murus"):
        page.goto(path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        check(page, lang, path)
    name = f"Zoe{uuid.uuid4().hex[:8]}"
    answer = page.context.request.post("/api/accounts",
                                       data={"username": name, "password": "correct horse battery"})
    assert answer.status == 201, answer.text()
    for path in ("/account", f"/@/{name}"):
        page.goto(path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(500)
        check(page, lang, path)


@pytest.mark.smoke
@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_the_language_follows_the_query_over_the_browser(server, watch, reader, lang):
    """An English browser asking for ``?lang=``: that language, remembered for the next page (the switch)."""
    page = reader("en", 1200, 900)
    page.goto(f"/?lang={lang}")
    expect(page.locator("#games-status")).not_to_be_empty()
    assert page.evaluate("document.documentElement.lang") == HTML_LANG[lang]
    assert not english_left(page)
    gid, tokens = played(server, watch, "murus")
    page.goto(f"/games/{gid}#token={tokens[0]}")
    expect(page.locator("#moves li")).to_have_count(4)
    assert page.evaluate("document.documentElement.lang") == HTML_LANG[lang]
    assert not english_left(page)
    page.goto("/?lang=en")
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator("#new-title")).to_have_text("Custom game")


def test_moves_are_numbered_by_turn_and_the_table_lines_are_not(server, watch, reader):
    gid, tokens = played(server, watch, "murus", moves=3)
    server.api("POST", f"/api/games/{gid}/commands", {"move": "offer draw"}, token=tokens[1])
    page = reader("en", 1200, 900)
    page.goto(f"/games/{gid}")
    numbers = page.locator("#moves li .version")
    expect(numbers).to_have_count(5)
    assert numbers.all_inner_texts() == ["·", "1.", "1…", "2.", ""]  # the draw offer: the table's, unnumbered
    expect(page.locator("#moves li").last).to_contain_text("Ben offers a draw.")
    expect(page.locator("#replay-label")).to_have_text("3 moves (live)")
    # Three players: one number a round.
    gid, _ = played(server, watch, "squirrels", moves=4)
    page.goto(f"/games/{gid}")
    numbers = page.locator("#moves li .version")
    expect(numbers).to_have_count(5)
    assert numbers.all_inner_texts() == ["·", "1.", "…", "…", "2."]
    page.locator("body").press("ArrowLeft")
    expect(page.locator("#replay-label")).to_contain_text("Move 3 of 4 (replay)")
    assert "version" not in page.inner_text("body").lower() and " ply" not in page.inner_text("body")


def test_keyboard_play_moves_a_cursor_over_the_cells(server, watch, reader):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    gid, ana = created["id"], created["seats"][0]["token"]
    page = reader("en", 1200, 900)
    page.goto(f"/games/{gid}#token={ana}")
    expect(page.locator("#status")).to_have_text("Your turn: Ana (Romans).")
    # The board's cells are one stop of the Tab key, not one per piece.
    assert page.locator("#board [data-key][tabindex='0']").count() == 1
    page.locator("#board [data-key][tabindex='0']").focus()
    page.keyboard.press("Tab")  # out of the board at once: to the controls after it, not the next tower
    assert page.evaluate("!document.activeElement.closest('#board svg')")
    page.keyboard.press("Shift+Tab")
    focused = "document.activeElement.getAttribute('data-cell')"
    start = page.evaluate(focused)
    assert start == "a1"  # the first of the towers that can move
    for key in ("ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    assert page.evaluate(focused) == "c1"
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == "c2"
    page.keyboard.press("Enter")  # an empty cell: the page says why nothing happens
    expect(page.locator("#board-feedback")).to_contain_text("c2 is empty")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # the tower on c1: selected, its destinations light up
    expect(page.locator('#board [data-cell="c1"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == "c3"
    page.keyboard.press("Enter")  # played
    expect(page.locator("#status")).to_have_text("Waiting for Ben (Gauls).")
    expect(page.locator("#moves")).to_contain_text("Ana: c1-c3")


def test_a_clock_under_ten_seconds_turns_red(server, watch, reader):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                                "clock": {"initial": 12, "increment": 0}})
    watch.add_seats(created)
    first_moves(server, created)
    page = reader("en", 1200, 900)
    page.goto(f"/games/{created['id']}#token={created['seats'][0]['token']}")
    ana = page.locator('#table-clocks [data-seat="0"]')
    ben = page.locator('#table-clocks [data-seat="1"]')
    expect(ana).to_contain_text(re.compile(r"\d:\d\d"))
    # Read at once (the time it shows and its class): above 10 s it is not red. (How much of Ana's 12 s is left
    # when the page first shows it depends on the machine; Ben's stopped clock is the check that does not.)
    text, classes = ana.evaluate("n => [n.textContent, n.className]")
    minutes, seconds = re.search(r"(\d+):(\d\d(?:\.\d)?)", text).groups()
    if int(minutes) * 60 + float(seconds) > 10:
        assert "low" not in classes.split(), (text, classes)
    expect(ana).to_have_class(re.compile(r"\blow\b"), timeout=20_000)  # Ana's clock runs down past 10 s
    color = "n => getComputedStyle(n).color"
    assert ana.evaluate(color) != ben.evaluate(color)  # in red, Ben's 12 s not
    expect(ben).not_to_have_class(re.compile(r"\blow\b"))


def test_a_guest_names_themself_in_the_page_and_the_name_is_remembered(server, watch, reader):
    page = reader("en", 1200, 900)
    names = []
    for _ in range(2):
        created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"open": True}]})
        watch.add_seats(created)
        gid = created["id"]
        page.goto("/")
        line = page.locator("#open-games li", has_text=gid)
        line.get_by_role("button", name=re.compile(r"^Join .+ as Player 2$")).click()
        names.append(line.locator("form.join-form").get_by_label("Your name").input_value())
        join_from_lobby(line, "Zoé")
        page.wait_for_url(f"**/games/{gid}")
        expect(page.locator("#players")).to_contain_text("Zoé")
    assert names == ["", "Zoé"]  # asked in the page (no window.prompt), then remembered


def test_mouse_guard_shows_a_cards_ways_on_the_board_without_hover(server, watch, reader):
    position = {"turn": "black", "mice": {"c4": "black", "f8": "white", "b8": "white"},
                "hands": {"black": ["sword"] * 3, "white": ["sword"] * 3},
                "deck": ["sword"] * 4 + ["stronghold"] * 10 + ["diplomacy"] * 10,
                "captured": {"black": 3, "white": 2}}
    players = [{"name": "Ana"}, {"name": "Ben"}]
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": players, "position": position,
                                                "seed": 1})
    watch.add_seats(created)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    doc = server.api("GET", f"/api/games/{gid}?min_version={created['version']}", token=tokens[0])
    black = tokens[doc["state"]["seats"]["black"]]
    page = reader("en", 1200, 900)
    page.goto(f"/games/{gid}#token={black}")
    expect(page.locator("#status")).to_contain_text("Your turn")
    expect(page.locator("#board svg text.coord")).to_have_count(7 + 9)  # one set of coordinates: the points'
    page.click('#board [data-point="c4"]')
    page.locator("#board .hand button", has_text="Sword").click()
    page.click('#board [data-point="c5"]')
    ways = page.locator("#board .controls .choices button.move")
    assert ways.count() > 1
    expect(page.locator("#board .way-number")).to_have_count(ways.count())  # each way drawn, numbered
    assert ways.first.inner_text().startswith("1. sword")
    shot(page, "mouseguard-sword-ways")


@pytest.mark.parametrize("width", [1200, 390])
def test_commando_wall_and_teleport_clear_the_squares_and_their_labels(server, watch, reader, width):
    gid, tokens = played(server, watch, "commando", moves=0)
    page = reader("en", width, 900)
    page.goto(f"/games/{gid}#tokens={','.join(tokens.values())}")
    wall = page.locator("#board line.wall").bounding_box()
    boxes = "rs => rs.map((r) => r.getBoundingClientRect().toJSON())"
    squares = page.locator("#board rect.sq").evaluate_all(boxes)
    overlaps = [s for s in squares if wall["x"] < s["right"] - 1 and s["left"] + 1 < wall["x"] + wall["width"]
                and wall["y"] < s["bottom"] - 1 and s["top"] + 1 < wall["y"] + wall["height"]]
    assert not overlaps, overlaps  # the bar lies in the gap at a square's edge, on no square
    assert page.locator("#board .teleport-line").count() == 0  # no arc across other squares
    expect(page.locator('#board [data-square="22"]')).to_contain_text("⇢37")  # the teleport names its exit


@pytest.mark.parametrize("width", [1200, 390])
def test_squirrels_card_texts_never_overlap_in_french(server, watch, reader, width):
    gid, tokens = played(server, watch, "squirrels", moves=0)
    page = reader("fr", width, 900)
    page.goto(f"/games/{gid}#tokens={','.join(tokens.values())}")
    expect(page.locator("#board [data-cell] text")).not_to_have_count(0)
    clashes = page.evaluate("""() => {
      const found = [];
      for (const card of document.querySelectorAll('#board [data-cell]')) {
        const box = card.querySelector('rect').getBoundingClientRect();
        const texts = [...card.querySelectorAll('text')].map((t) => [t.textContent, t.getBoundingClientRect()]);
        for (const [words, r] of texts) {
          if (r.left < box.left - 1 || r.right > box.right + 1) found.push(`${words} leaves its card`);
        }
        texts.forEach(([a, r], i) => texts.slice(i + 1).forEach(([b, q]) => {
          if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1) {
            found.push(`${a} / ${b}`);
          }
        }));
      }
      return found;
    }""")
    assert not clashes, clashes
