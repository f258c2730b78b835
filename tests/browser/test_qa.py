"""Bugs found by play-testing the pages (#16 qa), each checked where a person would have seen it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_from_lobby, game_id

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["squirrels", "commando", "mouseguard"])
def test_an_open_seat_is_called_open_never_undefined_or_seat_n(server, new_page, watch, game):
    seats = 3 if game != "mouseguard" else 2
    players = [{"name": "Ana"}, {"open": True}] + [{"name": "Cy", "ai": "easy"}] * (seats - 2)
    clock = {"initial": 300, "increment": 2}
    created = server.api("POST", "/api/games", {"game": game, "players": players, "clock": clock})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    page = new_page()
    page.goto(f"/games/{gid}#token={token}")
    expect(page.locator("#players")).to_contain_text("Open seat")
    expect(page.locator("#players")).not_to_contain_text("Seat 1")
    expect(page.locator("#table-clocks")).to_contain_text("Open seat 5:00")  # not "seat 1 5:00"
    expect(page.locator("#board")).to_be_visible()
    assert "undefined" not in page.locator("#board").inner_text()
    if game == "commando":  # not "Open seat: roll the die or use a map" before the game has started
        expect(page.locator("#board .controls")).to_contain_text("The game starts when every player has joined.")
    assert "undefined" not in page.locator("#moves").inner_text()

    page.goto("/")  # the lobby's list of games: not "Ana vs " with nothing after it
    row = page.locator("#games li", has_text=gid)
    expect(row.locator(".game-players")).to_contain_text("Ana vs (open)")


def test_a_draw_offer_is_told_to_the_other_player_who_accepts_it(server, new_page, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    gid, (ana_seat, ben_seat) = created["id"], created["seats"]
    ana, ben = new_page(), new_page()
    ana.goto(f"/games/{gid}#token={ana_seat['token']}")
    ben.goto(f"/games/{gid}#token={ben_seat['token']}")
    expect(ben.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    ana.get_by_role("button", name="Offer a draw").click()
    expect(ben.locator("#table-note")).to_have_text("A draw is offered: accept or decline it.")
    expect(ana.locator("#table-note")).to_have_text("Your draw offer waits for an answer.")
    ben.get_by_role("button", name="Accept the draw").click()
    expect(ana.locator("#result")).to_contain_text("agree a draw")
    expect(ben.locator("#table-note")).to_have_text("")


SEAT_1_PLAYS = re.compile("Player 2 plays")


def test_the_move_list_names_a_player_who_took_an_open_seat_after_the_page_loaded(server, new_page, watch):
    """Mouse Guard's first line says who plays which colour; it read "Player 2 plays White" on the page of a player
    who had it open before the seat was taken (a reload said "Bo plays White")."""
    players = [{"name": "Ana"}, {"open": True}]
    created = server.api("POST", "/api/games", {"game": "mouseguard", "players": players})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    ana, spectator = new_page(), new_page()
    ana.goto(f"/games/{gid}#token={token}")
    spectator.goto(f"/games/{gid}")
    for page in (ana, spectator):
        expect(page.locator("#moves")).to_contain_text(SEAT_1_PLAYS)
    taken = server.api("POST", f"/api/games/{gid}/seats/1", {"name": "Bo"})
    watch.tokens.add(taken["token"])
    for page in (ana, spectator):
        expect(page.locator("#players")).to_contain_text("Bo")
        expect(page.locator("#moves")).to_contain_text("Bo plays")
        expect(page.locator("#moves")).not_to_contain_text(SEAT_1_PLAYS)


def test_an_aborted_game_is_not_called_a_draw(server, new_page, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    page = new_page()
    page.goto(f"/games/{gid}#token={token}")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Abort the game").click()
    expect(page.locator("#result")).to_have_text("Ana aborts the game: no result.")
    page.goto("/")
    expect(page.locator("#games li", has_text=gid).locator(".game-state")).to_contain_text("Aborted: no result")


@pytest.mark.slow  # starts servers of its own, one of them on a port taken on purpose
def test_the_test_server_survives_its_port_taken_by_another_process(chromium_path):
    """The connection test's restarted server once "exited early": while it is down its free port may go to
    another process (the local port of some outgoing connection on a busy machine). A first start takes another
    port; a restart waits for its own."""
    import socket
    import threading

    from tests.browser.conftest import Server

    server = Server()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", server.port))  # taken before the first start
    try:
        taken = server.port
        server.start()
        assert server.port != taken
    finally:
        squatter.close()
    try:
        server.halt()
        squatter = socket.socket()
        # Taken during the outage, given back a moment later. SO_REUSEADDR: the halted server's connections may
        # linger in TIME_WAIT on that port; a listening socket holds it all the same.
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", server.port))
        squatter.listen()
        threading.Timer(1.0, squatter.close).start()
        server.start()
        assert server.api("GET", "/api/health")["ok"] is True
    finally:
        server.stop()


def test_the_lobby_says_open_games_and_names_the_clock_field(new_page):
    page = new_page()
    page.goto("/")
    page.click('.filter[data-status="open"]')
    expect(page.locator('.filter[data-status="open"]')).to_have_attribute("aria-pressed", "true")
    # Not "No games yet: create one above." (the Open filter's own words were missing)
    said = re.compile(r"^(\d+ open games?|No open games right now\.)$")
    expect(page.locator("#games-status")).to_have_text(said)

    page.locator("#seats > li").nth(0).locator(".seat-name").fill("Ana")
    page.locator("#seats > li").nth(1).locator(".seat-name").fill("Ben")
    page.click("#more-options summary")  # the options and the clock are folded
    page.select_option("#clock-kind", "fischer")
    page.fill("#clock-a", "0")
    page.click("#create-button")
    expect(page.locator("#create-error")).to_have_text("“Minutes”: must be more than 0 seconds, not 0.")


def test_the_analysis_of_a_game_without_moves_says_so(server, new_page, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    server.api("POST", f"/api/games/{gid}/commands", {"move": "abort"}, token=token)
    server.api("POST", f"/api/games/{gid}/analysis", {})
    page = new_page()
    page.goto(f"/games/{gid}")
    # Not "Click the graph to replay that position." with no graph under it
    expect(page.locator("#analysis")).to_contain_text("No move was played: there is nothing to analyse.")


def test_messages_about_a_seat_name_its_player(server, new_page, watch):
    players = [{"name": "Ana"}, {"name": "Ben"}]
    created = server.api("POST", "/api/games", {"game": "squirrels", "players": players})
    watch.add_seats(created)
    tokens = ",".join(seat["token"] for seat in created["seats"])
    page = new_page()
    page.goto(f"/games/{created['id']}#tokens={tokens}")  # both seats here (hot seat)
    page.get_by_role("button", name="Copy the link that plays Ben").click()
    expect(page.locator("#message")).to_have_text(
        "The link that plays Ben is copied. Whoever opens it plays there.")
    page.get_by_role("button", name="Stop playing Ben here").click()
    expect(page.locator("#message")).to_have_text("Ben is no longer played on this page.")


def test_a_seat_that_left_a_three_seat_game_says_so(server, new_page, watch):
    players = [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cy"}]
    created = server.api("POST", "/api/games", {"game": "squirrels", "players": players})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    server.api("POST", f"/api/games/{gid}/commands", {"move": "resign"}, token=token)
    page = new_page()
    page.goto(f"/games/{gid}")
    expect(page.locator("#players li").nth(0)).to_contain_text("left the game")
    expect(page.locator("#players li").nth(1)).not_to_contain_text("left the game")


def test_an_open_seat_needs_no_name(new_page, watch):
    """Its name field is disabled once "Anyone" is chosen: an empty one refused the form ("Seat 1 needs a name.")
    with no way to fill it."""
    page = new_page()
    summary = create_from_lobby(page, "murus", [("Ana", ""), ("", "open")])
    assert "Ana" in summary and "Open seat" in summary  # on the board at once, its open seat waiting


def test_the_lobby_lists_name_games_by_their_titles(new_page, watch):
    page = new_page()
    gid = game_id(create_from_lobby(page, "murus", [("Ana", ""), ("", "open")]))
    page.wait_for_url(f"**/games/{gid}")
    page.goto("/")  # "Murus Gallicus", as the list of games and the form say, not "murus"
    expect(page.locator("#open-games li", has_text=gid)).to_contain_text(f"Murus Gallicus #{gid}: Ana vs (open)")
    expect(page.locator("#my-games li", has_text=gid)).to_contain_text(f"Murus Gallicus #{gid}")


def test_a_game_waiting_for_its_open_seat_says_so_at_the_top(server, new_page, watch):
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"open": True}]})
    watch.add_seats(created)
    page = new_page()
    page.goto(f"/games/{created['id']}#token={created['seats'][0]['token']}")
    expect(page.locator("#status")).to_have_text("Waiting for a player to take the open seat.")  # not "Waiting…"


def test_a_rematch_waiting_for_the_other_player_says_whom_it_waits_for(server, new_page, watch):
    """Not "open for anyone" (the move list), "Waiting for a player to take the open seat" nor "anyone can join
    from the lobby" (the table's note): a rematch keeps the seat for its player."""
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Bo"}]})
    watch.add_seats(created)
    gid, token = created["id"], created["seats"][0]["token"]
    server.api("POST", f"/api/games/{gid}/commands", {"move": "resign"}, token=token)
    page = new_page()
    page.goto(f"/games/{gid}#token={token}")
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"/games/(?!" + gid + ")"))
    expect(page.locator("#status")).to_have_text("Waiting for Bo (Romans) to take their seat.")
    expect(page.locator("#table-note")).to_have_text(
        "A rematch: each seat is kept for its player, who takes it from the finished game's page.")
    expect(page.locator("#moves")).to_contain_text("Waiting for 1 more player.")


@pytest.mark.parametrize("game, players, moves, result", [
    ("murus", [{"name": "Ana"}, {"name": "Ben"}], ["c1-c3"], "Draw: the limit of 1 move was reached"),
    ("murus", [{"name": "Ana"}, {"name": "Ben"}], ["offer draw", "accept draw"], "Ana and Ben agree a draw."),
])
@pytest.mark.smoke
def test_a_draw_is_said_once(server, new_page, watch, game, players, moves, result):
    """Not "A draw: Draw: the limit of 1 moves was reached" (#15: "1 move")."""
    options = {"max_plies": 1} if moves == ["c1-c3"] else {}
    created = server.api("POST", "/api/games", {"game": game, "players": players, "options": options})
    watch.add_seats(created)
    gid, seats = created["id"], created["seats"]
    for i, move in enumerate(moves):
        server.api("POST", f"/api/games/{gid}/commands", {"move": move}, token=seats[i % 2]["token"])
    page = new_page()
    page.goto(f"/games/{gid}")
    expect(page.locator("#result")).to_have_text(result)


@pytest.mark.parametrize("game", ["murus", "squirrels"])
def test_a_result_names_its_winner_once(server, new_page, watch, game):
    """#15: not "Ana (Romans) wins: Ben resigns. Ana wins." — a reason that names the winner is the result."""
    created = server.api("POST", "/api/games", {"game": game, "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    server.api("POST", f"/api/games/{created['id']}/commands", {"move": "resign"},
               token=created["seats"][1]["token"])
    page = new_page()
    page.goto(f"/games/{created['id']}")
    expect(page.locator("#result")).to_have_text("Ben resigns. Ana wins.")


def test_a_draw_offer_is_said_at_the_top_of_a_phone_page_and_leads_to_the_answer(server, new_page, watch):
    """#15: on a 390 × 844 phone the Accept/Decline buttons are below the board; the status line said only
    "Waiting for Ana (Romans).". It says who offers a draw, and its button takes you to the answer."""
    created = server.api("POST", "/api/games", {"game": "murus", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    watch.add_seats(created)
    gid, (ana_seat, ben_seat) = created["id"], created["seats"]
    ben = new_page(width=390, height=844)
    ben.goto(f"/games/{gid}#token={ben_seat['token']}")
    expect(ben.locator("#status")).to_have_text("Waiting for Ana (Romans).")
    server.api("POST", f"/api/games/{gid}/commands", {"move": "offer draw"}, token=ana_seat["token"])
    expect(ben.locator("#status")).to_contain_text("Ana (Romans) offers a draw. Waiting for Ana (Romans).")
    assert ben.locator("#status").bounding_box()["y"] < 844
    ben.locator("#status").get_by_role("button", name="Answer the offer").click()
    expect(ben.get_by_role("button", name="Accept the draw")).to_be_focused()
    expect(ben.get_by_role("button", name="Accept the draw")).to_be_in_viewport()
    ben.get_by_role("button", name="Decline").click()
    expect(ben.locator("#status")).to_have_text("Waiting for Ana (Romans).")
