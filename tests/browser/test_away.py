"""Away from the site in Chromium: every page registers the service worker (scope: the whole site), the account
page's "notify me on this device" switch subscribes this browser or says why it cannot, the manifest is linked,
and the offline page says so; at 1280 and 390 px wide."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot
from tests.browser.test_accounts import fits, fresh, sign_up


@pytest.mark.smoke
def test_the_service_worker_registers_and_the_device_switch_answers(new_page, server, watch):
    page = new_page(1280, 900)
    page.context.grant_permissions(["notifications"], origin=server.url)
    sign_up(page, fresh("Pia"))
    assert page.locator("link[rel=manifest]").count() == 1
    page.goto("/account")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == server.url + "/"
    page.wait_for_selector("#email-status:not(:empty)")
    assert "sends no mail" in page.inner_text("#email-status")  # this server has no SMTP
    box = page.locator("#push-device")
    assert box.is_enabled() and not box.is_checked()
    box.click()
    # Chromium without a push service refuses the subscription: the page says so and the switch stays off; with
    # one, the server keeps this device's subscription.
    page.wait_for_function("() => document.getElementById('push-error').textContent !== '' || "
                           "localStorage.getItem('burrow:push-id') !== null")
    subscribed = page.evaluate("localStorage.getItem('burrow:push-id')")
    pushes = page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.push.length)")
    if subscribed:
        assert box.is_checked() and pushes == 1
    else:
        assert not box.is_checked() and pushes == 0
        assert "cannot receive pushes" in page.inner_text("#push-error")
        # Chromium's own console line for a profile without Web Push (headless is one), not the page's.
        watch.problems[:] = [p for p in watch.problems if "does not support the Push API" not in p]
    shot(page, "away-account-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    fits(page)
    shot(page, "away-account-390")
    page.goto("/offline")
    assert "offline" in page.inner_text("h1").lower()
