"""Real-browser fixtures: Debian's chromium driven by Playwright, scorm-again as the LMS.

Nothing is downloaded at test time: Playwright drives /usr/bin/chromium (never
`playwright install`), and scorm-again comes from tests/browser/node_modules
(`npm ci` here). A local HTTP server on 127.0.0.1 serves host.html, scorm-again and
the packages under test, unzipped, as an LMS serves them: the host page puts the
runtime on `window.API` / `window.API_1484_11` and loads the launch file in an iframe.

Without chromium, playwright or node_modules the tests fail with a message saying how
to install them when $CI is set (CI must run them), and are skipped otherwise.
"""

from __future__ import annotations

import functools
import http.server
import io
import itertools
import os
import threading
import zipfile
from pathlib import Path
from typing import ClassVar

import pytest

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE.parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCORM_AGAIN = HERE / "node_modules" / "scorm-again" / "dist"
INSTALL = (
    "the browser tests need Debian's chromium (apt-get install --no-install-recommends chromium "
    "fonts-dejavu-core fonts-wqy-microhei), Playwright for Python (pip install -e '.[test]') and "
    "scorm-again (cd tests/browser && npm ci); `bash .ci/run` installs all three"
)


def _missing() -> list[str]:
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(CHROMIUM)
    if not SCORM_AGAIN.is_dir():
        missing.append("tests/browser/node_modules (scorm-again)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    return missing


def _require_browser_stack() -> None:
    missing = _missing()
    if not missing:
        return
    message = f"missing {', '.join(missing)}: {INSTALL}"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict] = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class Site:
    """The test LMS's web root: host.html, scorm-again, and each package unzipped under packages/."""

    def __init__(self, root: Path, url: str):
        self.root = root
        self.url = url
        self._names = itertools.count(1)

    def add(self, package_bytes: bytes) -> str:
        """Unzip a package; returns its folder's path relative to the web root."""
        folder = f"packages/{next(self._names)}"
        with zipfile.ZipFile(io.BytesIO(package_bytes)) as archive:
            archive.extractall(self.root / folder)
        return folder


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    _require_browser_stack()
    root = tmp_path_factory.mktemp("lms")
    (root / "host.html").symlink_to(HERE / "host.html")
    (root / "node_modules").symlink_to(HERE / "node_modules")
    handler = functools.partial(_Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(root, f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    _require_browser_stack()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # launch() gives each run a fresh temporary profile and removes it on close.
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _watched(page):
    """Collect what the page throws, logs as an error, or asks in a dialog, to assert on later."""
    page.errors = []
    page.dialogs = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    return page


@pytest.fixture
def context(browser):
    """A fresh browser context (cookies, storage, cache) per test."""
    context = browser.new_context(viewport={"width": 900, "height": 800}, locale="en-US")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context):
    return _watched(context.new_page())


@pytest.fixture
def new_page(context):
    """Another watched page in the test's context, as when a learner comes back later."""
    return lambda: _watched(context.new_page())


@pytest.fixture(scope="session")
def expect():
    """Playwright's retrying assertions (imported here, so a missing playwright gives the message above)."""
    _require_browser_stack()
    from playwright.sync_api import expect

    return expect


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
