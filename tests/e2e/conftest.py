"""End-to-end fixtures: a live server process and Debian's headless Chromium.

``live_server`` starts ``flask run`` (Werkzeug, threaded) on a free loopback
port with a fresh SQLite database in a temporary directory; its request log
goes to a file so tests can check what reached it (never a token). The browser
is Debian's headless Chromium (``chromium-headless-shell``, the same Blink as ``/usr/bin/chromium`` without
the desktop browser around it, which is also what Playwright runs headless) driven by Playwright (no
browser download). Every
``page`` is phone-sized (390×844) and fails the test on any JavaScript error.
Screenshots go to ``tests/artifacts/`` (ignored by git) for a person to look at.
axe-core, the accessibility checker, comes from its npm package, installed into
``.cache/axe/`` (ignored by git) the first time a test asks for it.
"""
import contextlib
import fcntl
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

#: The headless shell, not the whole browser: the browser suite took 404 s of CPU (220 s) in the whole browser and
#: 214 s (135 s) in the shell, every test passing in both (`tests/e2e`, -n 2, quiet machine, one after the other).
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
#: A phone's page without a service worker, as on plain http (a club's Wi-Fi address), where the page runs without
#: one: every new phone's worker installed and filled its cache, a third of the CPU of opening the page, for tests
#: about something else. Those about the page kept for offline use open their phones with ``keeps_its_page``.
NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ROOT = Path(__file__).resolve().parents[2]
#: Generous: a session-scoped server that misses it fails every browser test of its worker, and on a machine loaded
#: by other work (load 13-19, nice 15) the server's start alone took 21 s; a server that is up is seen at once.
START_TIMEOUT_S = 120
#: The accessibility checker, pinned: a new release may add rules, and the suite should change only on purpose.
AXE_CORE = "axe-core@4.14.1"
AXE_PREFIX = ROOT / ".cache" / "axe"
#: The whole browser suite starts evenings and scores hands from one address far faster than a table
#: does (past the 30 sessions a minute of production); the limits themselves are tested in
#: tests/api/http/test_rate_limits.py and tests/system. Still limits, only wider.
SUITE_RATE_LIMITS = {"TAIZHANG_RATE_LIMIT_CREATE_SESSION": "600 per minute",
                     "TAIZHANG_RATE_LIMIT_SCORE": "1200 per minute",
                     # the browser suite starts some 30 groups and competitions: one worker's server alone (-n 1)
                     # refused the 21st of the day
                     "TAIZHANG_RATE_LIMIT_CREATE_GROUP": "600 per day",
                     "TAIZHANG_RATE_LIMIT_CREATE_COMPETITION": "600 per day",
                     # every phone of the suite opens its streams from 127.0.0.1: past 240 a minute a fast run's
                     # stream was refused (429) and a page stopped following (test_many_phones' read-only link)
                     "TAIZHANG_RATE_LIMIT_STREAMS": "6000 per minute"}


class LiveServer:
    """The server process, its base URL and its log.

    Its share links carry its own address (``TAIZHANG_PUBLIC_URL``): the suite's phones
    all open it there. Without an address, a page opened on loopback shows no link
    (``api/page/static/app/js/reach.js``; ``tests/e2e/test_reach.py`` tests that and
    the other cases on servers of their own).
    """

    def __init__(self, directory: Path, port: int | None = None):
        """Serve the database in ``directory`` on ``port`` (a free one if None); the log is appended to."""
        self.directory = directory
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = directory / "server.log"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{directory / 'taizhang.sqlite'}", **SUITE_RATE_LIMITS,
               "TAIZHANG_PUBLIC_URL": self.url}
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "api", "run", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-reload", "--no-debugger", "--with-threads"],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        self._wait_until_up()

    def _wait_until_up(self):
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the server did not start: {self.log()}")

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self._log.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("live"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@contextlib.contextmanager
def phones_of(browser):
    """``open(base_url, locale, keeps_its_page)``: a phone-sized context of ``browser``; a JavaScript error on any page
    fails the test once the block ends. Its page has no service worker unless ``keeps_its_page``."""
    contexts, errors = [], []

    def open_phone(base_url, locale="en-US", keeps_its_page=False):
        context = browser.new_context(viewport=PHONE, locale=locale, base_url=base_url, accept_downloads=True)
        if not keeps_its_page:
            context.add_init_script(NO_SERVICE_WORKER)
        context.set_default_timeout(10_000)
        context.on("page", lambda page: watch(page, errors))
        contexts.append(context)
        return context

    yield open_phone
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture
def new_phone(browser, live_server):
    """Open a phone-sized browser context (one phone) on the live server; every page fails the test on a JS error."""
    with phones_of(browser) as open_phone:
        yield lambda locale="en-US", keeps_its_page=False: open_phone(live_server.url, locale, keeps_its_page)


def watch(page, errors):
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and "net::ERR_INTERNET_DISCONNECTED" not in message.text
            and "Failed to load resource" not in message.text else None)


@pytest.fixture
def phone(new_phone):
    """One phone with the page open at /."""
    page = new_phone().new_page()
    page.goto("/")
    return page


@pytest.fixture
def api(playwright_instance, live_server):
    """A plain HTTP client on the live server (not a browser: stays online when a phone goes offline)."""
    context = playwright_instance.request.new_context(base_url=live_server.url)
    yield context
    context.dispose()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def axe_core() -> Path:
    """axe.min.js of the pinned axe-core, from npm into ``.cache/axe/`` unless that version is already there."""
    package = AXE_PREFIX / "node_modules" / "axe-core"
    installed = package / "package.json"
    wanted = AXE_CORE.split("@", 1)[1]
    AXE_PREFIX.mkdir(parents=True, exist_ok=True)
    # One install at a time: make test runs several pytest workers (xdist), each asking at its start.
    with open(AXE_PREFIX / ".install-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed.exists() or f'"version": "{wanted}"' not in installed.read_text(encoding="utf-8"):
            subprocess.run(["npm", "install", "--prefix", str(AXE_PREFIX), "--no-save", "--no-audit", "--no-fund",
                            AXE_CORE], check=True, capture_output=True)
    return package / "axe.min.js"
