"""Accounts in Chromium: sign up, the account menu, sessions, sign out; passkeys with a virtual authenticator
(the DevTools protocol's WebAuthn domain); a profile with its rating graph; every page at desktop size and 390 px
wide, with nothing wider than the screen."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.conftest import shot
from tests.browser.helpers import created


def fresh(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def sign_up(page, name: str, password: str = "correct horse battery") -> None:
    page.goto("/signup")
    page.fill("#username", name)
    page.fill("#password", password)
    page.click("#signup-password")
    page.wait_for_url("**/")
    assert page.locator("header .account-menu .me").inner_text() == name


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"the page is {width}px wide"


@pytest.mark.parametrize("width", [1200, 390])
def test_sign_up_sessions_and_sign_out(new_page, server, width):
    page = new_page(width, 844)
    name = fresh("Ana")
    sign_up(page, name)
    fits(page)
    page.click("header .account-menu a[href='/account']")
    page.wait_for_selector("#sessions li")
    assert page.locator("#sessions li").count() == 1 and "this device" in page.inner_text("#sessions")
    fits(page)
    shot(page, f"account-{width}")
    page.click("#sign-out")
    page.wait_for_selector("header .account-menu a[href='/signin']")
    assert server.api("GET", "/api/me")["status"] == 401
    page.goto("/signin")
    page.fill("#username", name.lower())
    page.fill("#password", "not it at all")
    page.click("#signin-password")
    page.wait_for_selector("#form-error:has-text('wrong')")
    page.fill("#password", "correct horse battery")
    page.click("#signin-password")
    page.wait_for_url("**/")
    assert page.locator("header .account-menu .me").inner_text() == name
    shot(page, f"signin-done-{width}")


@pytest.mark.smoke
def test_sign_up_says_what_is_wrong(new_page):
    page = new_page()
    page.goto("/signup")
    page.fill("#username", "1x")
    page.click("#signup-password")
    assert "starting with a letter" in page.inner_text("#form-error")
    assert page.get_attribute("#username", "aria-invalid") == "true"
    name = fresh("Ben")
    sign_up(page, name)
    other = new_page()
    other.goto("/signup")
    other.fill("#username", name.upper())
    other.fill("#password", "another password")
    other.click("#signup-password")
    other.wait_for_selector("#form-error:has-text('taken')")


def with_authenticator(page):
    """A virtual platform authenticator holding discoverable credentials, the user verified at each use."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp, found["authenticatorId"]


def test_passkeys_in_chromium(browser, server, watch):
    # The relying party is the host the page comes from: localhost (an IP address cannot be one).
    site = server.url.replace("127.0.0.1", "localhost")
    context = browser.new_context(viewport={"width": 1200, "height": 900}, base_url=site)
    watch.attach(context)
    try:
        page = context.new_page()
        cdp, authenticator = with_authenticator(page)
        name = fresh("Pia")
        page.goto("/signup")
        page.fill("#username", name)
        page.click("#signup-passkey")
        page.wait_for_url("**/")
        assert page.locator("header .account-menu .me").inner_text() == name
        credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
        page.click("#sign-out")
        page.wait_for_selector("header .account-menu a[href='/signin']")
        page.goto("/signin")
        page.click("#signin-passkey")  # no name typed: the passkey says who
        page.wait_for_url("**/")
        assert page.locator("header .account-menu .me").inner_text() == name
        page.goto("/account")
        page.wait_for_selector("#passkeys li strong")
        assert "Chrome" in page.inner_text("#passkeys")
        # A second account adds a passkey to its password account.
        second = context.browser.new_context(viewport={"width": 390, "height": 844}, base_url=site)
        try:
            other = second.new_page()
            other_cdp, other_auth = with_authenticator(other)
            sign_up(other, fresh("Ola"))
            other.goto("/account")
            other.wait_for_selector("#passkeys li")
            other.click("#add-passkey")
            other.wait_for_selector("#passkeys li strong")
            fits(other)
            shot(other, "account-passkey-390")
            creds = other_cdp.send("WebAuthn.getCredentials", {"authenticatorId": other_auth})["credentials"]
            assert len(creds) == 1
        finally:
            second.close()
    finally:
        context.close()


@pytest.mark.parametrize("width", [1200, 390])
def test_a_profile_shows_ratings_with_a_graph_and_games(new_page, server, width):
    ana, bob = fresh("Ana"), fresh("Bob")
    pages = {}
    for name in (ana, bob):
        pages[name] = new_page(width, 844)
        sign_up(pages[name], name)
    created = pages[ana].evaluate("""async () => (await fetch('/api/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'murus', players: [{me: true}, {open: true}]})})).json()""")
    gid = created["id"]
    joined = pages[bob].evaluate(f"""async () => (await fetch('/api/games/{gid}/seats/1', {{method: 'POST',
        headers: {{'Content-Type': 'application/json'}}, body: '{{}}'}})).json()""")
    for token, move in ((created["seats"][0]["token"], "a1-a3"), (joined["token"], "a7-a5"),
                        (joined["token"], "resign")):
        assert server.api("POST", f"/api/games/{gid}/commands", {"move": move}, token=token)["version"]
    page = pages[bob]
    page.goto(f"/@/{ana}")
    page.wait_for_selector(".rating-card .rating-value")
    assert page.inner_text(".rating-card .rating-value") == "1662?"
    assert page.locator(".rating-card svg.rating-graph circle").count() == 1
    page.wait_for_selector("#recent li")
    assert "Won" in page.inner_text("#recent") and page.locator(f"#recent a[href='/@/{bob}']").count() == 1
    fits(page)
    shot(page, f"profile-{width}")
    page.goto("/leaderboard/murus")
    page.wait_for_selector(f"#board-rows a[href='/@/{ana}']")  # provisional ratings are listed too, marked
    assert "1662?" in page.inner_text("#board-rows")
    fits(page)
    shot(page, f"leaderboard-{width}")
    for path in ("/signup", "/signin"):
        page.goto(path)
        fits(page)
        shot(page, f"{path.strip('/')}-{width}")


def test_my_games_follow_the_account_to_a_second_device(new_page, server):
    name = fresh("Ana")
    laptop = new_page()
    sign_up(laptop, name)
    created = laptop.evaluate("""async () => (await fetch('/api/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'murus', players: [{me: true}, {name: 'Guest'}]})})).json()""")
    gid = created["id"]
    phone = new_page(390, 844)  # another browser: nothing in its storage
    phone.goto("/signin")
    phone.fill("#username", name)
    phone.fill("#password", "correct horse battery")
    phone.click("#signin-password")
    phone.wait_for_url("**/")
    phone.wait_for_selector(f"#my-games a[href='/games/{gid}']")
    assert "your turn" in phone.inner_text("#my-games")
    phone.wait_for_selector(f"#games .game-profiles a[href='/@/{name}']")
    fits(phone)
    shot(phone, "lobby-signed-in-390")
    phone.click(f"#my-games a[href='/games/{gid}']")
    phone.wait_for_selector("#players .player.mine")
    assert phone.locator(f"#players a.seat-name[href='/@/{name}']").count() == 1
    assert "played here" in phone.inner_text("#players")
    shot(phone, "game-account-390")


def test_the_lobby_form_seats_the_signed_in_account(new_page, server):
    name = fresh("Cy")
    page = new_page()
    sign_up(page, name)
    assert page.input_value("#seats li:first-child .seat-name") == name
    page.click("#create-button")
    created(page)
    mine = page.evaluate("async () => (await fetch('/api/me/games')).json()")
    assert len(mine["games"]) == 1 and mine["games"][0]["seat"] == 0
    doc = server.api("GET", f"/api/games/{mine['games'][0]['id']}")
    assert doc["players"][0]["account"] == name


def test_an_account_and_its_session_survive_a_restart(new_page):
    from tests.browser.conftest import Server

    own = Server().start()  # a server of its own, stopped and started again
    try:
        page = new_page()
        name = fresh("Rae")
        page.goto(f"{own.url}/signup")
        page.fill("#username", name)
        page.fill("#password", "correct horse battery")
        page.click("#signup-password")
        page.wait_for_url(f"{own.url}/")
        gid = page.evaluate("""async () => (await fetch('/api/games', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'murus', players: [{me: true}, {name: 'Guest'}]})})).json()""")["id"]
        own.halt()
        own.start()
        page.goto(f"{own.url}/account")
        page.wait_for_selector("#sessions li.current")
        assert page.locator("header .account-menu .me").inner_text() == name
        mine = page.evaluate("async () => (await fetch('/api/me/games')).json()")
        assert [g["id"] for g in mine["games"]] == [gid] and mine["games"][0]["token"]
    finally:
        own.stop()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_language_switch_saves_the_accounts_language_a_link_does_not(new_page, server, width):
    """The switch's pick is the account's on another device; a page opened with ``?lang=`` (as a link from another
    site opens it) changes the page, not the account."""
    name = fresh("Lu")
    laptop = new_page(width, 844)
    sign_up(laptop, name)
    laptop.goto("/account?lang=zh")  # a link: this page in Chinese, the account untouched
    assert laptop.get_attribute("html", "lang") == "zh-Hans"
    laptop.click("nav.languages a[hreflang='fr']")  # the switch
    laptop.wait_for_url("**lang=fr")
    assert laptop.get_attribute("html", "lang") == "fr"
    fits(laptop)
    shot(laptop, f"language-switch-{width}")
    phone = new_page(390, 844)  # another browser: no cookie of the switch
    phone.goto("/signin")
    phone.fill("#username", name)
    phone.fill("#password", "correct horse battery")
    phone.click("#signin-password")
    phone.wait_for_url("**/")
    assert phone.get_attribute("html", "lang") == "fr"
