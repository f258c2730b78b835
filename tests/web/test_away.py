"""Away from the site (docs/api.md "Away from the site"), end to end with a push service and an SMTP server of the
test's own (``away_helpers.py``): an account subscribes with its own keys, the opponent moves in a correspondence
game with no page of the account open, an encrypted push arrives that the device's keys decrypt and whose VAPID
signature verifies with the server's public key, then a digest mail; password reset works once and not twice; an
unsubscribe link stops the mail; a private-range endpoint is refused. fakeredis and a real Redis."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from services.away import endpoints
from services.config import Settings
from tests.conftest import run_jobs
from tests.web.away_helpers import Device, Mailbox, PushReceiver, link_token, verify_vapid
from tests.web.signin import make_account, signed_in
from web.app import create_app


@pytest.fixture
def mailbox():
    box = Mailbox()
    yield box
    box.stop()


@pytest.fixture
def receiver():
    found = PushReceiver()
    yield found
    found.stop()


@pytest.fixture(params=["fakeredis", "redis"])
def rt(request, prefix, tmp_path, mailbox):
    """A runtime whose mail goes to the test's SMTP server and whose pushes may go to loopback."""
    from burrow.runtime import build, install

    url = None if request.param == "fakeredis" else request.getfixturevalue("real_redis_url")
    settings = Settings(redis_url=url, prefix=prefix, data_dir=str(tmp_path / "data"), queue_name=f"{prefix}-q",
                        smtp_url=mailbox.url, push_allow_hosts=("127.0.0.1",), site_url="http://localhost",
                        digest_seconds=3600)
    runtime = build(settings, journal=False)
    install(runtime)
    yield runtime
    if url:
        for key in runtime.redis.scan_iter(match=f"{prefix}*"):
            runtime.redis.delete(key)
        for key in runtime.rq_redis.scan_iter(match=f"*{prefix}-q*"):
            runtime.rq_redis.delete(key)


@pytest.fixture
def app(rt):
    return create_app(rt)


def verified(app, rt, mailbox, name: str, address: str):
    """A signed-in client of ``name`` whose ``address`` is verified (through the mailed link)."""
    client = signed_in(app, rt, name)
    answer = client.post("/api/me/email", json={"email": address})
    assert answer.status_code == 202, answer.json
    run_jobs(rt)
    mail = [m for m in mailbox.messages if m["To"] == address][-1]
    assert client.post("/api/email/verify", json={"token": link_token(mail, "/verify-email")}).status_code == 204
    assert client.get("/api/me").json["email"] == {"address": address, "verified": True}
    return client


def correspondence_game(rt, first: str, second: str) -> tuple[str, list[str]]:
    made = rt.service.create("murus", [{"name": first}, {"name": second}], clock={"per_move": 86400},
                             accounts={0: first, 1: second})
    return made["id"], [s["token"] for s in made["seats"]]


def move(app, gid: str, token: str) -> None:
    client = app.test_client()
    doc = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json
    answer = client.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                         json={"move": doc["legal"][0]})
    assert answer.status_code == 200, answer.json


def test_the_opponent_moves_and_a_push_then_a_digest_mail_arrive(app, rt, mailbox, receiver):
    ben = verified(app, rt, mailbox, "Ben", "ben@example.org")
    device = Device(receiver.url("/push/ben-phone"))
    answer = ben.post("/api/me/push", json=device.subscription())
    assert answer.status_code == 201 and answer.json["id"]
    key = app.test_client().get("/api/push/key").json["public_key"]
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    run_jobs(rt)  # Ann's turn first: nothing for Ben
    assert receiver.received == []
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert len(receiver.received) == 1
    push = receiver.received[0]
    claims = verify_vapid(push, key)
    assert claims["aud"] == f"http://127.0.0.1:{receiver.port}" and claims["exp"] > time.time()
    assert device.decrypt(push) == {"type": "your_turn", "game": gid, "url": f"/games/{gid}",
                                    "title": "Burrow: your turn",
                                    "body": "It is your turn in a game of Murus Gallicus."}
    digest = [m for m in mailbox.messages if m["Subject"] == "Burrow: your turn in Murus Gallicus"]
    assert len(digest) == 1 and digest[0]["To"] == "ben@example.org"
    assert f"http://localhost/games/{gid}" in digest[0].get_content()
    assert digest[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert digest[0]["List-Unsubscribe"].startswith("<http://localhost/unsubscribe?token=")
    assert "token" not in str(device.decrypt(push))  # no seat token in a push


def test_one_mail_per_game_per_interval_and_none_while_a_page_is_open(app, rt, mailbox):
    verified(app, rt, mailbox, "Ben", "ben@example.org")
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    other, other_tokens = correspondence_game(rt, "Ann", "Ben")
    mine = lambda: [m for m in mailbox.messages if m["Subject"].startswith("Burrow: your turn")]  # noqa: E731
    rt.people.presence.accounts_seen(["ben"])  # a page of Ben's is open
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert mine() == []
    rt.redis.zadd(rt.store.keys.accounts_seen(), {"ben": 0})  # and closed long ago
    move(app, other, other_tokens[0])
    run_jobs(rt)
    assert len(mine()) == 1  # the other game's
    move(app, other, other_tokens[1])
    move(app, other, other_tokens[0])
    run_jobs(rt)
    assert len(mine()) == 1  # that game's interval has not passed


def test_a_real_time_games_turn_is_pushed_only_when_no_page_is_open(app, rt, receiver):
    ben = signed_in(app, rt, "Ben")
    device = Device(receiver.url("/push/ben"))
    assert ben.post("/api/me/push", json=device.subscription()).status_code == 201
    made = rt.service.create("murus", [{"name": "Ann"}, {"name": "Ben"}],
                             clock={"initial": 300, "increment": 5}, accounts={0: "Ann", 1: "Ben"})
    gid, tokens = made["id"], [s["token"] for s in made["seats"]]
    run_jobs(rt)
    rt.people.presence.accounts_seen(["ben"])
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert receiver.received == []  # Ben is on the site: his page says it
    rt.redis.zadd(rt.store.keys.accounts_seen(), {"ben": 0})  # his pages closed long ago
    move(app, gid, tokens[1])
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert [device.decrypt(r)["type"] for r in receiver.received] == ["your_turn"]


def test_a_gone_subscription_is_dropped_and_a_failing_one_tried_again(app, rt, receiver, monkeypatch):
    from services.away import service

    monkeypatch.setattr(service, "RETRIES", (0.0, 0.0, 0.0))
    ben = signed_in(app, rt, "Ben")
    gone, flaky = Device(receiver.url("/gone/old")), Device(receiver.url("/flaky/new"))
    ids = [ben.post("/api/me/push", json=device.subscription()).json["id"] for device in (gone, flaky)]
    assert len(ben.get("/api/me").json["push"]) == 2
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    move(app, gid, tokens[0])
    run_jobs(rt)
    paths = [r["path"] for r in receiver.received]
    assert paths.count("/gone/old") == 1 and paths.count("/flaky/new") == 2
    assert [p["id"] for p in ben.get("/api/me").json["push"]] == [ids[1]]
    assert flaky.decrypt(receiver.received[-1])["type"] == "your_turn"


@pytest.mark.parametrize("endpoint", [
    "https://127.0.0.2/push", "https://10.1.2.3/push", "https://192.168.0.9/x", "https://172.16.0.1/x",
    "https://169.254.169.254/latest", "https://[::1]/x", "https://[fe80::1]/x", "https://[::ffff:10.0.0.1]/x",
    "http://push.example.com/x", "ftp://push.example.com/x", "https://user:pw@push.example.com/x",
    "https://0.0.0.0/x", "not a url", "https://localhost/x",
])
def test_endpoints_of_private_hosts_are_refused_before_any_connection(app, rt, endpoint, monkeypatch):
    connected = []
    monkeypatch.setattr("socket.create_connection", lambda *a, **k: connected.append(a))
    ben = signed_in(app, rt, "Ben")
    body = Device(endpoint).subscription()
    answer = ben.post("/api/me/push", json=body)
    assert answer.status_code == 422 and answer.json["error"]["code"] == "bad_endpoint", answer.json
    assert connected == [] and ben.get("/api/me").json["push"] == []


def test_a_name_that_resolves_to_a_private_address_is_refused():
    def resolver(host, port):
        return {"push.example.com": ["93.184.216.34"], "sneaky.example.com": ["93.184.216.34", "10.0.0.5"],
                "nowhere.example.com": []}[host]

    assert endpoints.check("https://push.example.com/a", resolver=resolver) == "https://push.example.com/a"
    for host in ("sneaky.example.com", "nowhere.example.com"):
        with pytest.raises(endpoints.BadEndpoint):
            endpoints.check(f"https://{host}/a", resolver=resolver)


def test_subscriptions_are_bounded_and_deleted_by_id(app, rt, receiver):
    from services.away.service import MAX_SUBSCRIPTIONS

    ben = signed_in(app, rt, "Ben")
    ids = [ben.post("/api/me/push", json=Device(receiver.url(f"/push/{i}")).subscription()).json["id"]
           for i in range(MAX_SUBSCRIPTIONS + 2)]
    kept = [p["id"] for p in ben.get("/api/me").json["push"]]
    assert len(kept) == MAX_SUBSCRIPTIONS and ids[0] not in kept and ids[-1] in kept
    assert ben.delete(f"/api/me/push/{ids[-1]}").status_code == 204
    assert ben.delete(f"/api/me/push/{ids[-1]}").status_code == 404
    again = Device(receiver.url("/push/5"))
    bad = again.subscription()
    bad["keys"]["auth"] = "short"
    assert ben.post("/api/me/push", json=bad).status_code == 422
    assert app.test_client().post("/api/me/push", json=again.subscription()).status_code == 401


def test_reset_works_once_and_not_twice_and_ends_every_session(app, rt, mailbox):
    from services.accounts import passwords

    ben = verified(app, rt, mailbox, "Ben", "ben@example.org")
    other = signed_in(app, rt, "Ben")
    guest = app.test_client()
    assert guest.post("/api/password/reset", json={"email": "nobody@example.org"}).status_code == 202
    assert guest.post("/api/password/reset", json={"email": "BEN@example.org"}).status_code == 202
    run_jobs(rt)
    resets = [m for m in mailbox.messages if m["Subject"] == "Burrow: reset your password"]
    assert len(resets) == 1 and resets[0]["To"] == "ben@example.org"
    token = link_token(resets[0], "/reset-password")
    first = guest.post("/api/password/reset/confirm", json={"token": token, "password": "a new secret 1"})
    assert first.status_code == 204
    second = guest.post("/api/password/reset/confirm", json={"token": token, "password": "another one 2"})
    assert second.status_code == 400 and second.json["error"]["code"] == "bad_token"
    assert ben.get("/api/me").status_code == 401 and other.get("/api/me").status_code == 401
    account = rt.accounts.store.by_username("Ben")
    assert passwords.verify(account.password, "a new secret 1")
    forged = guest.post("/api/password/reset/confirm", json={"token": token[:-3] + "abc", "password": "x" * 9})
    assert forged.status_code == 400


def test_an_unverified_address_gets_no_reset_and_no_notification(app, rt, mailbox):
    ben = signed_in(app, rt, "Ben")
    assert ben.post("/api/me/email", json={"email": "ben@example.org"}).status_code == 202
    assert ben.get("/api/me").json["email"] == {"address": "ben@example.org", "verified": False}
    app.test_client().post("/api/password/reset", json={"email": "ben@example.org"})
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert [m["Subject"] for m in mailbox.messages] == ["Burrow: confirm your email address"]


def test_one_click_unsubscribe_stops_that_mail(app, rt, mailbox):
    ben = verified(app, rt, mailbox, "Ben", "ben@example.org")
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    move(app, gid, tokens[0])
    run_jobs(rt)
    digest = [m for m in mailbox.messages if m["Subject"].startswith("Burrow: your turn")][0]
    target = digest["List-Unsubscribe"].strip("<>").replace("http://localhost", "")
    mail_client = app.test_client()
    assert mail_client.post(target, data="List-Unsubscribe=One-Click",
                            content_type="application/x-www-form-urlencoded").status_code == 204
    assert ben.get("/api/me").json["notifications"]["email"]["your_turn"] is False
    rt.redis.delete(rt.store.keys.digest(rt.accounts.store.id_of("Ben"), gid))  # the interval has passed
    move(app, gid, tokens[1])
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert len([m for m in mailbox.messages if m["Subject"].startswith("Burrow: your turn")]) == 1
    bad = mail_client.post("/unsubscribe?token=forged", data="List-Unsubscribe=One-Click",
                           content_type="application/x-www-form-urlencoded")
    assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_token"


def test_preferences_are_checked_and_kept(app, rt):
    ben = signed_in(app, rt, "Ben")
    assert ben.put("/api/me/notifications", json={"push": {"challenge": False}}).status_code == 204
    assert ben.get("/api/me").json["notifications"] == {
        "email": {"your_turn": True, "challenge": True},
        "push": {"your_turn": True, "challenge": False, "game_over": True}}
    for body in ({"push": {"challenge": "no"}}, {"sms": {}}, {"email": {"game_over": True}}, {"push": []}):
        answer = ben.put("/api/me/notifications", json=body)
        assert answer.status_code == 422, body


def test_mail_rates_are_bounded_per_account_and_per_address(app, rt, mailbox):
    from services.away.service import LINK_MAILS_PER_HOUR

    ann, ben = signed_in(app, rt, "Ann"), signed_in(app, rt, "Ben")
    codes = [ann.post("/api/me/email", json={"email": f"a{i}@example.org"}).status_code
             for i in range(LINK_MAILS_PER_HOUR + 1)]
    assert codes == [202] * LINK_MAILS_PER_HOUR + [429]
    codes = [client.post("/api/me/email", json={"email": "shared@example.org"}).status_code
             for client in [ben] * LINK_MAILS_PER_HOUR + [signed_in(app, rt, "Cy")]]
    assert codes[-1] == 429  # the address's bound, whichever account asks


def test_without_smtp_the_mail_features_say_so_and_queue_nothing(app, rt, prefix, tmp_path):
    from burrow.runtime import build

    quiet = build(replace(rt.settings, smtp_url=None), journal=False)
    client = signed_in(create_app(quiet), quiet, "Ben")
    before = {k: quiet.jobs.queue(k).count for k in ("mail", "push")}
    for path, body in (("/api/me/email", {"email": "ben@example.org"}),
                       ("/api/password/reset", {"email": "ben@example.org"})):
        answer = client.post(path, json=body)
        assert answer.status_code == 503 and answer.json["error"]["code"] == "mail_unavailable"
    assert {k: quiet.jobs.queue(k).count for k in ("mail", "push")} == before
    assert client.get("/api/me").json["mail"] is False


def test_mail_is_in_the_accounts_language(app, rt, mailbox):
    ben = signed_in(app, rt, "Ben")
    assert ben.post("/api/me/language", json={"lang": "fr"}).status_code == 204
    assert ben.post("/api/me/email", json={"email": "ben@example.org"}).status_code == 202
    run_jobs(rt)
    assert mailbox.messages[-1]["Subject"] == "Burrow : confirmez votre adresse e-mail"


def test_the_kept_vapid_key_is_the_same_for_every_process(rt):
    from burrow.runtime import build

    again = build(rt.settings, journal=False, fake_server=None) if rt.settings.redis_url else None
    key = rt.away.push_key()
    assert len(key) == 87
    if again is not None:
        assert again.away.push_key() == key


def test_a_challenge_is_pushed_and_mailed(app, rt, mailbox, receiver):
    ben = verified(app, rt, mailbox, "Ben", "ben@example.org")
    device = Device(receiver.url("/push/ben"))
    assert ben.post("/api/me/push", json=device.subscription()).status_code == 201
    make_account(rt, "Ann")
    ann = signed_in(app, rt, "Ann")
    assert ann.post("/api/challenges", json={"to": "Ben", "game": "murus"}).status_code == 201
    run_jobs(rt)
    got = device.decrypt(receiver.received[-1])
    assert got["type"] == "challenge" and got["url"] == "/"
    assert got["body"] == "Ann challenges you to a game of Murus Gallicus."
    assert [m["Subject"] for m in mailbox.messages][-1] == "Burrow: Ann challenges you"


def test_the_games_waiting_for_an_account_are_counted(app, rt):
    ann, ben = signed_in(app, rt, "Ann"), signed_in(app, rt, "Ben")
    assert ben.get("/api/me/waiting").json == {"count": 0, "games": []}
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    other, _ = correspondence_game(rt, "Ann", "Ben")
    run_jobs(rt)
    both = ann.get("/api/me/waiting").json
    assert both["count"] == 2 and sorted(both["games"]) == sorted([gid, other])
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert ann.get("/api/me/waiting").json == {"count": 1, "games": [other]}
    assert ben.get("/api/me/waiting").json == {"count": 1, "games": [gid]}
    resign = app.test_client().post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {tokens[1]}"},
                                    json={"move": "resign"})
    assert resign.status_code == 200, resign.json
    run_jobs(rt)
    assert ben.get("/api/me/waiting").json["count"] == 0
    assert app.test_client().get("/api/me/waiting").status_code == 401


def test_vacation_tells_the_opponents_and_changes_no_clock(app, rt):
    ben = signed_in(app, rt, "Ben")
    signed_in(app, rt, "Ann")
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    move(app, gid, tokens[0])
    run_jobs(rt)
    before = app.test_client().get(f"/api/games/{gid}").json
    assert before["clock"]["per_move"] == 86400
    newest = rt.people.notifications.newest_id("ann") or "0-0"
    assert ben.put("/api/me/vacation", json={"on": True}).json == {"vacation": True}
    assert ben.put("/api/me/vacation", json={"on": "yes"}).status_code == 422
    told = [n.data for n in rt.people.notifications.since("ann", newest)]
    assert told == [{"type": "vacation", "game": gid, "by": "Ben", "on": True}]
    assert app.test_client().get("/api/players/Ben").json["vacation"] is True
    after = app.test_client().get(f"/api/games/{gid}").json
    assert after["version"] == before["version"] and after["clock"] == before["clock"]  # nothing appended


def test_changes_are_bounded_per_account_and_a_no_change_appends_nothing(app, rt, receiver, monkeypatch):
    from services.away import service

    monkeypatch.setattr(service, "CHANGES_PER_HOUR", 3)
    ben = signed_in(app, rt, "Ben")
    version = rt.accounts.store.by_username("Ben").version
    assert ben.put("/api/me/notifications", json={"push": {"challenge": True}}).status_code == 204  # already on
    assert rt.accounts.store.by_username("Ben").version == version
    codes = [ben.post("/api/me/push", json=Device(receiver.url(f"/push/{i}")).subscription()).status_code
             for i in range(3)] + [ben.put("/api/me/vacation", json={"on": True}).status_code]
    assert codes == [201, 201, 201, 429]
    assert ben.put("/api/me/vacation", json={"on": True}).json["error"]["code"] == "too_many_changes"


def test_a_bad_smtp_url_is_one_line_at_start(capsys, monkeypatch, tmp_path):
    from burrow import cli

    monkeypatch.setenv("BURROW_SMTP_URL", "http://mail.example.org")
    assert cli.main(["replay", "nosuchgame", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "burrow: bad setting: BURROW_SMTP_URL: the scheme must be smtp:// or smtps://"


def test_past_its_waiting_budget_a_deliver_job_tries_each_push_once(app, rt, receiver, monkeypatch):
    from services.away import service

    monkeypatch.setattr(service, "RETRIES", (0.01, 0.01, 0.01))
    monkeypatch.setattr(service, "RETRY_BUDGET", 0.0)
    ben = signed_in(app, rt, "Ben")
    assert ben.post("/api/me/push", json=Device(receiver.url("/flaky/b")).subscription()).status_code == 201
    gid, tokens = correspondence_game(rt, "Ann", "Ben")
    move(app, gid, tokens[0])
    run_jobs(rt)
    assert [r["path"] for r in receiver.received] == ["/flaky/b"]  # the 500, not tried again
    assert len(ben.get("/api/me").json["push"]) == 1  # a failure is not a gone subscription
