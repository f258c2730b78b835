"""Passkeys through the API with a software authenticator: sign up with one and no password, sign in with one
without a name, add one to an account; each challenge answers once, for this site only."""

from __future__ import annotations

from tests.web.authenticator import Authenticator
from web.app import create_app

SITE = "http://localhost"


def post(client, path, body=None):
    return client.post(path, json=body, base_url=SITE) if body is not None else client.post(path, base_url=SITE)


def sign_up_with_a_passkey(client, device: Authenticator, name="Pia"):
    options = post(client, "/api/passkeys/register/options", {"username": name})
    assert options.status_code == 200, options.json
    return post(client, "/api/passkeys/register", device.create(options.json))


def test_sign_up_with_a_passkey_and_no_password_then_sign_in_without_a_name(runtime):
    client, device = create_app(runtime).test_client(), Authenticator()
    options = post(client, "/api/passkeys/register/options", {"username": "Pia"}).json
    assert options["rp"]["id"] == "localhost" and options["user"]["name"] == "Pia"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    r = post(client, "/api/passkeys/register", device.create(options))
    assert r.status_code == 201 and r.json == {"username": "Pia"}
    me = client.get("/api/me", base_url=SITE).json
    assert me["password"] is False and len(me["passkeys"]) == 1
    other = create_app(runtime).test_client()
    login = post(other, "/api/passkeys/login/options").json
    assert login["rpId"] == "localhost" and login["allowCredentials"] == []
    credential = device.get(login)
    r = post(other, "/api/passkeys/login", credential)
    assert r.status_code == 200 and r.json == {"username": "Pia"}
    assert other.get("/api/me", base_url=SITE).json["username"] == "Pia"
    again = post(create_app(runtime).test_client(), "/api/passkeys/login", credential)  # replayed
    assert again.status_code == 400 and again.json["error"]["code"] == "passkey_refused"


def test_a_passkey_is_added_to_a_signed_in_account(runtime):
    client, device = create_app(runtime).test_client(), Authenticator()
    client.post("/api/accounts", json={"username": "Ana", "password": "correct horse"}, base_url=SITE)
    options = post(client, "/api/passkeys/register/options").json
    assert options["user"]["name"] == "Ana"
    r = post(client, "/api/passkeys/register", device.create(options))
    assert r.status_code == 201 and r.json == {"username": "Ana", "passkeys": 1}
    options = post(client, "/api/passkeys/register/options").json
    assert len(options["excludeCredentials"]) == 1  # the authenticator is told not to make a second one
    r = post(create_app(runtime).test_client(), "/api/passkeys/login", device.get(
        post(client, "/api/passkeys/login/options").json))
    assert r.status_code == 200 and r.json == {"username": "Ana"}


def test_a_name_taken_is_refused_before_the_ceremony_and_at_its_end(runtime):
    client = create_app(runtime).test_client()
    client.post("/api/accounts", json={"username": "Ana", "password": "correct horse"}, base_url=SITE)
    r = post(create_app(runtime).test_client(), "/api/passkeys/register/options", {"username": "ANA"})
    assert r.status_code == 409 and r.json["error"]["code"] == "username_taken"
    first, second = create_app(runtime).test_client(), create_app(runtime).test_client()
    a = post(first, "/api/passkeys/register/options", {"username": "Zed"}).json
    b = post(second, "/api/passkeys/register/options", {"username": "zed"}).json
    assert post(first, "/api/passkeys/register", Authenticator().create(a)).status_code == 201
    r = post(second, "/api/passkeys/register", Authenticator().create(b))
    assert r.status_code == 409 and r.json["error"]["code"] == "username_taken"


def test_credentials_for_another_site_or_unknown_keys_are_refused(runtime):
    client = create_app(runtime).test_client()
    options = post(client, "/api/passkeys/register/options", {"username": "Pia"}).json
    r = post(client, "/api/passkeys/register", Authenticator(origin="http://evil.example").create(options))
    assert r.status_code == 400 and r.json["error"]["code"] == "passkey_refused"
    stranger = Authenticator()
    stranger.create({"rp": {"id": "localhost"}, "user": {"id": "eA"}, "challenge": "x"})
    r = post(client, "/api/passkeys/login", stranger.get(post(client, "/api/passkeys/login/options").json))
    assert r.status_code == 401
    for body in ({}, {"response": "x"}, {"response": {"clientDataJSON": "!!"}}, {"id": 3, "response": {}}):
        r = post(client, "/api/passkeys/login", body)
        assert r.status_code == 400 and r.json["error"]["message"], body


def test_passkey_options_are_limited_per_address(runtime):
    """Each options request mints a challenge kept 5 minutes: an address may ask ``OPTIONS_PER_CLIENT`` a minute
    (429 with Retry-After beyond, no challenge kept), another address is not held back."""
    from services.accounts.passkeys import OPTIONS_PER_CLIENT

    client = create_app(runtime).test_client()
    for i in range(OPTIONS_PER_CLIENT):
        path = "/api/passkeys/login/options" if i % 2 else "/api/passkeys/register/options"
        assert post(client, path, None if i % 2 else {"username": f"Pia{i}"}).status_code == 200
    before = len(list(runtime.redis.scan_iter(match="*:challenge:*")))
    for path, body in (("/api/passkeys/login/options", None),
                       ("/api/passkeys/register/options", {"username": "Zed"})):
        r = post(client, path, body)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert len(list(runtime.redis.scan_iter(match="*:challenge:*"))) == before
    r = client.post("/api/passkeys/login/options", base_url=SITE, environ_base={"REMOTE_ADDR": "198.51.100.4"})
    assert r.status_code == 200
