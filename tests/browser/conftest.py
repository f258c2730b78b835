"""Browser tests: a real ``burrow serve`` subprocess and Debian's headless Chromium driven by Playwright.

Skipped when ``/usr/bin/chromium`` is missing (fails instead when ``CI`` is set). Screenshots go to
``test-artifacts/`` (gitignored). Every test records the request URLs, the seat tokens the server handed out and
the pages' HTML, and ``token_guard`` checks that no token ever shows up in them nor in the server's log.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import free_port

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]


class Server:
    """``burrow serve`` on a free port with a private data dir; its stdout/stderr go to a log file."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="burrow-browser-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.dir / "server.log"
        self.proc: subprocess.Popen | None = None
        self.started = False

    def start(self, tries: int = 20) -> Server:
        # One address creates every game of the suite: the per-client quotas (tested elsewhere) are lifted here.
        env = dict(os.environ, PYTHONUNBUFFERED="1", BURROW_CREATE_RATE="0", BURROW_OPEN_GAMES="0",
                   BURROW_SIGNUP_RATE="0")
        logged = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:  # the child keeps its own handle; a restart appends
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "burrow.cli", "serve", "--port", str(self.port),
                 "--data", str(self.dir / "data")],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 120  # a busy machine may take a minute to import the AI cores
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                busy = "it is already in use" in self.log_path.read_bytes()[logged:].decode(errors="replace")
                if busy and tries > 1:
                    # The free port was taken meanwhile (on a busy machine, often as the local port of some
                    # outgoing connection). A first start takes another; a restart, whose URL the pages hold,
                    # waits for its own port to be free again.
                    if self.started:
                        time.sleep(0.5)
                    else:
                        self.port = free_port()
                        self.url = f"http://127.0.0.1:{self.port}"
                    return self.start(tries - 1)
                raise RuntimeError(f"burrow serve exited early:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as response:
                    if response.status == 200:
                        self.started = True
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError(f"burrow serve did not answer /api/health:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def halt(self) -> None:
        """Stop the server process, keeping its data (``start()`` again brings it back on the same port)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- direct API calls, for setting up a position or checking the server's view ------------------------

    def api(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            return {"status": exc.code, **json.load(exc)}


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is required in CI (apt-get install chromium)")
        pytest.skip(f"no {CHROMIUM}: install Debian's chromium to run the browser tests")
    return CHROMIUM


@pytest.fixture(scope="session")
def server(chromium_path):
    srv = Server().start()
    yield srv
    srv.stop()


def pytest_collection_modifyitems(config, items):
    """Every test in this folder is a browser test: ``-m "not browser"`` leaves them all out. Those that drive
    Chromium are ``slow`` too (the full suite's: whole games, journeys of two players, every page in every
    language), except the few marked ``smoke``: one quick look at each kind of page, so that the fast loop
    (``-m "not slow"``) still opens a real browser on the lobby, a game, the accounts and the languages."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
            if "browser" in getattr(item, "fixturenames", ()) and not item.get_closest_marker("smoke"):
                item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="package")
def browser(chromium_path):
    """Playwright's sync API runs an event loop in this thread while it is open: closed with this package, so
    that the tests after it may use ``asyncio.run``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


class Watch:
    """What one test's pages did: request URLs, tokens handed out, HTML seen, console problems."""

    def __init__(self):
        self.urls: list[str] = []
        self.tokens: set[str] = set()
        self.html: list[str] = []
        self.problems: list[str] = []

    def attach(self, context) -> None:
        context.on("request", lambda request: self.urls.append(request.url))
        # Games created by a page: their tokens read on the way (a page may go to the board before a response
        # listener could read the body).
        context.route(re.compile(r".*/api/games$"), self._created)
        context.on("page", self.attach_page)

    def _created(self, route) -> None:
        try:
            response = route.fetch()
        except PlaywrightError:  # the test is over and its context closing: a page's poll, nobody waits for it
            return
        if route.request.method == "POST" and response.status == 201:
            self.add_seats(response.json())
        route.fulfill(response=response)

    def attach_page(self, page) -> None:
        def console(message):
            text = message.text
            # A failed request is logged by the browser itself; the tests provoke some (409, 422) on purpose.
            if (message.type == "error" and not text.startswith("Failed to load resource")) \
                    or "Content Security Policy" in text:
                self.problems.append(f"console {message.type}: {text}")

        page.on("console", console)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))

    def add_seats(self, created: dict) -> None:
        self.tokens.update(seat["token"] for seat in created.get("seats", []) if seat.get("token"))

    def snapshot(self, page) -> None:
        self.html.append(page.content())


@pytest.fixture
def watch(server):
    w = Watch()
    yield w
    # Fragments never leave the browser; everything else of a request URL reaches the server.
    sent = [url.split("#", 1)[0] for url in w.urls]
    log = server.log()
    for token in w.tokens:
        assert not any(token in url for url in sent), "a seat token went into a request URL"
        assert token not in log, "a seat token went into the server log"
        assert not any(token in html for html in w.html), "a seat token was rendered into the page"
    assert not w.problems, "\n".join(w.problems)


@pytest.fixture
def new_page(browser, server, watch):
    """Open pages in fresh browser contexts (separate sessionStorage, like separate people)."""
    contexts = []

    def make(width: int = 1200, height: int = 900, locale: str | None = None):
        # ``locale``: the browser's language ("fr-FR"), sent as its Accept-Language; None: Chromium's default.
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=server.url,
                                      **({"locale": locale} if locale else {}))
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        context.set_default_timeout(10_000)
        watch.attach(context)
        contexts.append(context)
        page = context.new_page()
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            if not page.is_closed():
                watch.snapshot(page)
        try:  # a request in flight in a route of the context or of a page must not fail the next test
            for page in context.pages:
                page.unroute_all(behavior="ignoreErrors")
            context.unroute_all(behavior="ignoreErrors")
            context.close()
        except PlaywrightError:  # the test closed it already
            pass


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
