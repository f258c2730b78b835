"""A revoked session's open streams close at once, in every web process (issue #44): a stolen cookie's
``/api/me/stream`` (or a game's notices stream opened with it) must not outlive "sign out everywhere"."""

from __future__ import annotations

import asyncio

import pytest

from tests.web.signin import make_account
from tests.web.site import Site
from web.session import COOKIE

ENDS_WITHIN = 15  # seconds a stream may take to close before the test calls it open (it closes in milliseconds)


def open_stream(site: Site, path: str, cookie: str, revoke=None) -> list[dict]:
    """Open ``path`` on ``site`` with ``cookie``, call ``revoke`` once the stream is open (if given), and return
    what was sent once the server has ended the response (the client never disconnects first: a stream left open
    fails the test)."""
    sent: list[dict] = []

    async def main():
        stream = site.open_stream(path, headers={"cookie": f"{COOKIE}={cookie}"}, address="10.1.1.1")
        if revoke is not None:
            for _ in range(500):
                if site.front.state.hub.open_streams():
                    break
                await asyncio.sleep(0.02)
            assert site.front.state.hub.open_streams() == 1
            await asyncio.to_thread(revoke)
        done, _ = await asyncio.wait([stream.task], timeout=ENDS_WITHIN)
        ended = bool(done)
        await stream.hang_up()
        sent.extend(stream.sent)
        assert ended, "the stream stayed open after its session was revoked"

    asyncio.run(main())
    return sent


@pytest.fixture
def sites(runtime):
    """Two fronts over one store: two web processes, each with its own hub."""
    one, two = Site(runtime), Site(runtime)
    yield one, two
    one.close()
    two.close()


def test_an_accounts_stream_ends_when_its_session_is_revoked_anywhere(runtime, sites):
    """Revoked through the store (as another web process would), not through this front."""
    here, _ = sites
    account = make_account(runtime, "Ben")
    cookie = runtime.accounts.open_session(account, "pytest")
    sessions = runtime.accounts.sessions
    sent = open_stream(here, "/api/me/stream", cookie, lambda: sessions.revoke_all(account.id))
    assert sent[0]["status"] == 200


def test_a_notices_stream_opened_with_a_cookie_ends_with_its_session(runtime, sites):
    here, _ = sites
    gid = runtime.service.create("murus", [{"name": "Ann"}, {"name": "Ben"}])["id"]
    account = make_account(runtime, "Ann")
    cookie = runtime.accounts.open_session(account, "pytest")
    session = runtime.accounts.sessions.find(cookie)
    sent = open_stream(here, f"/api/games/{gid}/notices", cookie,
                       lambda: runtime.accounts.sessions.revoke(session))
    assert sent[0]["status"] == 200


def test_a_stream_opened_as_its_session_is_revoked_ends_too(runtime, sites, monkeypatch):
    """A revocation between the session's check and the stream's registration is not missed."""
    here, _ = sites
    account = make_account(runtime, "Cy")
    cookie = runtime.accounts.open_session(account, "pytest")
    hub = here.front.state.hub
    real = hub.subscribe_account

    def subscribe_late(*args, **kwargs):
        runtime.accounts.sessions.revoke_all(account.id)  # after the cookie was checked, before registration
        return real(*args, **kwargs)

    monkeypatch.setattr(hub, "subscribe_account", subscribe_late)
    sent = open_stream(here, "/api/me/stream", cookie)
    assert sent[0]["status"] == 200 and hub.open_streams() == 0
