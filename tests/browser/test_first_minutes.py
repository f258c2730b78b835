"""The first ten minutes (#38) in Chromium, as a guest and two accounts would live them: from the front page
each kind of game starts in at most three clicks (the computer, quick pairing with a guest, a challenge from a
profile, an invite link); a challenge is seen pending and cancelled; a signed-in player's game opened in a fresh
browser is played, not watched; names carry ratings and a finished rated game shows the changes; the leaderboard
lists the provisional players; an opponent away is said with a countdown and a claim asks first; the sign-up
"taken" error is French on a French page."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_accounts import fits, fresh, sign_up

PASSWORD = "correct horse battery"


class Clicks:
    """Counts a person's clicks on one page (the front page's promise: any kind of game in three at most)."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def click(self, selector: str, **options) -> None:
        self.count += 1
        self.page.click(selector, **options)


def sign_in(page, name: str) -> None:
    page.goto("/signin")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#signin-password")
    page.wait_for_url("**/")


def plays_a_seat(page) -> None:
    """The page is a player's, not a spectator's: a seat is marked as played here."""
    page.wait_for_selector("#players .player.mine", timeout=20_000)
    expect(page.locator("#seat-tools")).not_to_contain_text("You are watching")


def fetch_json(page, path: str, method: str = "GET", body: dict | None = None):
    """A request from the page (its session cookie goes along): the status and the JSON answer."""
    return page.evaluate("""async ([path, method, body]) => {
        const r = await fetch(path, {method, headers: {'Content-Type': 'application/json'},
                                     body: body === null ? undefined : JSON.stringify(body)});
        let answer = null;
        try { answer = await r.json(); } catch (e) { answer = null; }
        return [r.status, answer];
    }""", [path, method, body])


@pytest.mark.smoke
def test_the_computer_in_one_click_from_the_front_page(new_page):
    page = new_page()
    page.goto("/")
    clicks = Clicks(page)
    page.select_option("#computer-seat", "0")  # (a choice made before: a side, not a click of the count)
    clicks.click(".computer-game[data-game='murus']")
    page.wait_for_url("**/games/*")
    plays_a_seat(page)
    expect(page.locator("#status")).to_contain_text("Your turn")
    expect(page.locator("#players")).to_contain_text("AI, normal")  # the sane default level
    assert clicks.count == 1


@pytest.mark.smoke
def test_the_sign_up_taken_error_is_french_on_a_french_page(new_page):
    page = new_page()
    name = fresh("Zoe")
    sign_up(page, name)
    other = new_page(locale="fr-FR")
    other.goto("/signup?lang=fr", wait_until="networkidle")  # a French page's script waits for its words first
    other.fill("#username", name.lower())
    other.fill("#password", "un autre mot de passe")
    other.click("#signup-password")
    error = other.locator("#form-error")
    expect(error).to_contain_text("est déjà pris")
    assert "username" not in error.inner_text() and "taken" not in error.inner_text()


def test_a_form_sent_before_its_script_is_ready_never_leaves_the_page(new_page):
    """A French page's script waits for its words (i18n.js): a click on "create" before then must not send the
    form as the browser would (a GET, the password in the address). Here the words are held back until after the
    click."""
    page = new_page(locale="fr-FR")
    held = []
    page.route(re.compile(r".*/i18n/fr\.json.*"), lambda route: held.append(route))
    page.goto("/signup?lang=fr", wait_until="domcontentloaded")
    page.fill("#username", fresh("Early").lower())
    page.fill("#password", "un mot de passe secret")
    page.click("#signup-password")
    page.wait_for_timeout(300)
    assert "password" not in page.url and page.url.endswith("/signup?lang=fr")
    assert held, "the words were not asked for"
    held[0].continue_()
    page.wait_for_load_state("networkidle")  # the words have come: the page's script has taken the form over
    page.click("#signup-password")  # the account is made
    page.wait_for_url(re.compile(r".*/(\?.*)?$"))
    assert "password" not in page.url


def test_a_signed_in_players_game_opened_in_a_fresh_browser_is_played_not_watched(new_page):
    name = fresh("Ana")
    laptop = new_page()
    sign_up(laptop, name)
    laptop.select_option("#computer-seat", "1")
    laptop.click(".computer-game[data-game='murus']")
    laptop.wait_for_url("**/games/*")
    gid = laptop.url.rsplit("/", 1)[1]
    phone = new_page(390, 844)  # another device: nothing in its storage; the game opened straight from a link
    sign_in(phone, name)
    phone.goto(f"/games/{gid}")
    plays_a_seat(phone)
    expect(phone.locator("#players .player.mine")).to_contain_text(name)
    # An account holder gets no guest tools: no game id in the title, no "Copy your link".
    expect(phone.locator("#game-title .gid")).to_have_count(0)
    expect(phone.locator("#seat-tools")).not_to_contain_text("Copy your link")


def test_names_carry_ratings_and_a_finished_rated_game_shows_the_changes(new_page, server):
    ann_name, ben_name = fresh("Ann"), fresh("Ben")
    ann, ben = new_page(), new_page(390, 844)
    sign_up(ann, ann_name)
    sign_up(ben, ben_name)
    ann.click("#pairing-tiles button.tile[data-game='mouseguard']")  # a seek: its line carries Ann's rating
    expect(ann.locator("#pairing-tiles button.waiting")).to_have_count(1)
    expect(ben.locator("#open-seeks li.seek", has_text=ann_name)).to_contain_text(f"{ann_name} (1500?)",
                                                                                   timeout=20_000)
    ann.click("#pairing-tiles button.waiting")  # cancelled
    status, created = fetch_json(ann, "/api/games", "POST",
                                 {"game": "murus", "players": [{"me": True}, {"open": True}]})
    assert status == 201, created
    gid = created["id"]
    status, _ = fetch_json(ben, f"/api/games/{gid}/seats/1", "POST", {})
    assert status == 200
    ann.goto(f"/games/{gid}")
    ben.goto(f"/games/{gid}")
    for page in (ann, ben):
        plays_a_seat(page)
        expect(page.locator("#players .seat-rating")).to_have_text(["1500?", "1500?"])
    for page in (ann, ben):  # each seat moves (a rated game), from its own page
        page.wait_for_selector("#status.your-turn", timeout=20_000)
        page.click("#legal-details summary") if not page.locator("#legal").is_visible() else None
        page.locator("#legal button.move").first.click()
    ben.on("dialog", lambda dialog: dialog.accept())
    ben.locator(".table-command[data-move='resign']").click()
    for page, sign in ((ann, "+"), (ben, "−")):
        expect(page.locator("#result .rating-changes")).to_be_visible(timeout=20_000)
        mine = page.locator("#players .player.mine .rating-change")
        expect(mine).to_have_text(re.compile("^" + re.escape(sign) + r"\d+$"))
    shot(ben, "rated-game-over-390")
    ann.locator("button.rematch").click()  # Ann asks for a rematch: Ben's page says who asks
    expect(ben.locator("#table-tools")).to_contain_text(f"{ann_name} wants a rematch", timeout=20_000)
    ann.goto("/leaderboard/murus")  # both are provisional still: listed, marked, under their own heading
    rows = ann.locator("#board-rows")
    expect(rows.locator("tr.provisional-head")).to_have_count(1)
    for name in (ann_name, ben_name):
        expect(rows.locator("tr.provisional", has_text=name)).to_contain_text("?")


def test_an_opponent_away_is_said_with_a_countdown_and_a_claim_asks_first(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "alice_ux"}, {"name": "Bo"}],
                                                "clock": {"initial": 300, "increment": 2}})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][1]["token"]
    for seat, move in ((0, "a1-a3"), (1, "a7-a5")):  # both have moved: alice_ux is away on her turn
        server.api("POST", f"/api/games/{gid}/commands", {"move": move}, token=created["seats"][seat]["token"])
    claim_at = (datetime.now(UTC) + timedelta(seconds=4)).isoformat().replace("+00:00", "Z")

    def away(route):
        """The server's document as it is once alice_ux has been away on her turn (docs/api.md: ``away``)."""
        response = route.fetch()
        doc = response.json()
        if doc.get("status") == "playing" or doc.get("status") == "setup":
            doc["away"] = {"seat": 0, "claim_at": claim_at}
            if doc.get("you") == 1:
                doc["table"] = [*doc.get("table", []), "claim victory", "claim draw"]
        route.fulfill(response=response, body=json.dumps(doc))

    page = new_page(390, 844)
    page.route(re.compile(rf".*/api/games/{gid}(\?.*)?$"), away)
    page.goto(f"/games/{gid}#token={token}")
    line = page.locator("#table-away")
    expect(line).to_contain_text("alice_ux has left the game: you may claim the victory in")
    expect(line).to_contain_text("you may claim the victory, or a draw", timeout=10_000)
    expect(line).to_be_in_viewport()  # beside the board on a phone, in sight
    asked = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.locator(".table-command[data-move='claim victory']").click()
    page.wait_for_timeout(300)
    assert asked and "Claim the victory?" in asked[0]
    assert server.api("GET", f"/api/games/{gid}")["status"] != "finished"  # dismissed: nothing sent
    fits(page)
    shot(page, "away-390")
    server.api("POST", f"/api/games/{gid}/commands", {"move": "resign"}, token=created["seats"][0]["token"])
    # The result names the player exactly as written: never "Alice_ux".
    expect(page.locator("#result")).to_contain_text(re.compile(r"^alice_ux"))


@pytest.mark.parametrize("width", [1280, 390])
def test_the_clocks_and_the_table_are_in_sight_beside_the_board(new_page, server, watch, width):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "clock": {"initial": 300, "increment": 2}})
    watch.add_seats(created)
    page = new_page(width, 844)
    page.goto(f"/games/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#table-clocks")
    for selector in ("#table-clocks", ".table-command", "#board svg"):
        expect(page.locator(selector).first).to_be_in_viewport()
    fits(page)
def test_a_challenge_from_a_profile_pending_cancelled_then_accepted(new_page):
    ann_name, ben_name = fresh("Ann"), fresh("Ben")
    ann, ben = new_page(), new_page()
    sign_up(ann, ann_name)
    sign_up(ben, ben_name)
    ann.goto(f"/@/{ben_name}")
    clicks = Clicks(ann)
    clicks.click("#profile-actions .challenge-button")
    ann.select_option("#challenge-dialog select >> nth=1", "5+3")  # the clock (a choice, not a click)
    ann.select_option("#challenge-dialog select >> nth=2", "0")  # Ann plays first
    clicks.click("#challenge-send")
    pending = ann.locator(".notice.pending-challenge")
    expect(pending).to_contain_text(f"Waiting for {ben_name}")
    expect(pending).to_contain_text("5+3")
    expect(pending).to_contain_text("you play first")
    incoming = ben.locator(".notice.incoming-challenge")
    expect(incoming).to_contain_text(f"{ann_name} challenges you", timeout=20_000)
    expect(incoming).to_contain_text("Murus Gallicus, 5+3, you play second")
    shot(ann, "challenge-pending")
    pending.get_by_role("button", name="Cancel the challenge").click()
    expect(pending).to_have_count(0)
    expect(incoming).to_have_count(0, timeout=20_000)  # the recipient's card goes with it
    expect(ben.locator(".notice")).to_contain_text("cancelled")

    clicks.click("#profile-actions .challenge-button")  # again, and this time Ben accepts
    clicks.click("#challenge-send")
    expect(ben.locator(".notice.incoming-challenge")).to_have_count(1, timeout=20_000)
    ben.locator(".notice.incoming-challenge").get_by_role("button", name="Accept").click()
    for page in (ann, ben):  # the challenger is told and taken to the board too
        page.wait_for_url("**/games/*", timeout=20_000)
        plays_a_seat(page)
    assert ann.url == ben.url
    assert clicks.count == 2 + 2  # two clicks a challenge from the profile


def test_an_invite_link_taken_by_a_guest(new_page):
    ann_name = fresh("Ann")
    ann = new_page()
    sign_up(ann, ann_name)
    clicks = Clicks(ann)
    clicks.click("#friend-invite")
    expect(ann.locator("#friend-link")).to_be_visible()
    url = ann.input_value("#friend-url")
    assert re.search(r"/challenge/[\w-]+$", url), url
    expect(ann.locator(".notice.pending-challenge")).to_contain_text("invite link")
    guest = new_page(390, 844)
    guest.goto(url)
    guest.fill("#invite-name", "zed_the_guest")
    guest.click("#invite-accept")
    guest.wait_for_url("**/games/*", timeout=20_000)
    plays_a_seat(guest)
    expect(guest.locator("#players")).to_contain_text("zed_the_guest")
    ann.wait_for_url("**/games/*", timeout=20_000)  # the challenger is told and taken to the board
    plays_a_seat(ann)
    assert clicks.count == 1


def test_quick_pairing_with_a_guest(new_page):
    ben_name = fresh("Ben")
    guest, ben = new_page(), new_page()
    guest.goto("/")
    guest.fill("#guest-name", "Gus")
    clicks = Clicks(guest)
    clicks.click("#pairing-tiles button.tile[data-game='murus'] >> nth=0")
    expect(guest.locator("#pairing-tiles button.waiting")).to_have_count(1)
    sign_up(ben, ben_name)
    seek = ben.locator("#open-seeks li.seek", has_text="Gus")
    expect(seek).to_contain_text("unrated", timeout=20_000)
    seek.get_by_role("button", name="Play").click()
    for page in (guest, ben):
        page.wait_for_url("**/games/*", timeout=20_000)
        plays_a_seat(page)
    assert guest.url == ben.url
    expect(guest.locator("#players")).to_contain_text("Gus")
    assert clicks.count == 1




FRENCH = {"W": "blanc", "U": "bleu", "B": "noir", "R": "rouge", "G": "vert", "C": "incolore", "left": "gauche",
          "right": "droite", "up": "haut", "down": "bas"}


def test_a_move_is_written_and_typed_in_the_readers_words(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "squirrels", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "seed": 3})
    watch.add_seats(created)
    gid = created["id"]
    docs = [server.api("GET", f"/api/games/{gid}?min_version={created['version']}", token=s["token"])
            for s in created["seats"]]
    seat = next(i for i, doc in enumerate(docs) if doc["legal"])
    move = next(m for m in docs[seat]["legal"] if ";" not in m and not m.startswith("dig"))
    colour, direction = move.split()
    said = f"{FRENCH[colour]} {FRENCH[direction]}"
    page = new_page(locale="fr-FR")
    page.goto(f"/games/{gid}?lang=fr#token={created['seats'][seat]['token']}")
    expect(page.locator("#status")).to_contain_text("À vous")
    page.fill("#typed-move", said)  # typed in French: sent in the notation's words
    page.click("#typed button[type=submit]")
    expect(page.locator("#moves")).to_contain_text(said)  # and written in French in the move list
    assert server.api("GET", f"/api/games/{gid}")["version"] > docs[seat]["version"]
    expect(page.locator("#status")).not_to_contain_text("À vous")
    expect(page.locator("#typed-move")).to_have_value("")  # the move sent and done with: the box emptied
    page.fill("#typed-move", move)  # out of turn now, in the notation's words: the page says why
    page.click("#typed button[type=submit]")
    expect(page.locator("#message")).to_contain_text("pas votre tour")


def test_an_annotated_move_keeps_its_width_on_a_phone(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "seed": 5})
    watch.add_seats(created)
    page = new_page(390, 844)
    page.goto(f"/games/{created['id']}")
    row = page.locator("#moves li.move-line .move-row").first
    expect(row).to_be_visible()
    # The analysis' mark as analysis.js adds it to a move's row: a long "better" move beside the line.
    row.evaluate("""row => {
        const mark = document.createElement('span');
        mark.className = 'class-mark blunder-mark';
        mark.textContent = '?? better: c3-c4 sword c5 d5 and a few words more';
        row.append(mark);
    }""")
    width = row.locator(".move-link").evaluate("n => n.getBoundingClientRect().width")
    assert width >= 0.8 * row.evaluate("n => n.getBoundingClientRect().width"), width
    fits(page)


def test_the_clocks_stand_still_until_the_first_moves_with_a_countdown(new_page, server, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}],
                                                "clock": {"initial": 300, "increment": 2}})
    watch.add_seats(created)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    page = new_page(390, 844)
    page.goto(f"/games/{gid}#token={tokens[0]}")
    line = page.locator("#table-first-move")
    expect(line).to_contain_text(re.compile(r"make yours within \d+ s, or the game is aborted"))
    expect(line).to_be_in_viewport()
    expect(page.locator(".clock.running")).to_have_count(0)  # no clock runs before the first moves
    expect(page.locator("#table-clocks .clock-time")).to_have_text(["5:00", "5:00"])
    server.api("POST", f"/api/games/{gid}/commands", {"move": "a1-a3"}, token=tokens[0])
    expect(line).to_contain_text(re.compile(r"Bo has \d+ s to make theirs"))  # now the other seat's first move
    server.api("POST", f"/api/games/{gid}/commands", {"move": "a7-a5"}, token=tokens[1])
    expect(line).to_be_hidden()
    expect(page.locator(".clock.running")).to_have_count(1)  # both have moved: Ana's clock runs
