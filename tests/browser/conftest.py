"""Browser tests: the pages driven in a real, headless Chromium through Selenium.

They need Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
the ``selenium`` package (the ``dev`` extra). A machine without them fails these tests
with a message saying what is missing: they are never skipped silently.

Fixtures:

* ``browser``: one Chromium for the whole run (``--headless=new``), cookies cleared
  before each test;
* ``phone``: one Chromium laid out as a 390 x 844 phone (``tests.browser.phone``), lent
  to each test as ``browser`` is;
* ``log_in``: ``log_in(user)`` signs the user in through the real login page of the
  ``live_server`` (the user's password is the factories' ``jelszo-123``); ``sign_in``
  does it in any driver at any server.

A test using them needs ``pytest.mark.django_db(transaction=True)``: the live server
answers from another thread, which must see the test's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
PASSWORD = "jelszo-123"  # tests.factories.UserFactory
# How long a test waits for a page, a tap's effect or a live update before it fails: a
# bound, not a target (bench/live.py measures latency). The suite runs four workers on
# two cores, each with its browsers and servers; shorter bounds failed under that load.
WAIT_SECONDS = 30


def new_chromium() -> Any:
    """A headless Debian Chromium driven through chromium-driver (a WebDriver)."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(
            f"browser tests need Chromium and its driver: {', '.join(missing)} missing. "
            "Install the Debian packages: apt-get install chromium chromium-driver "
            "(.ci/run does).",
            pytrace=False,
        )
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail(
            "browser tests need selenium: pip install -e '.[dev]'",
            pytrace=False,
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
        "--window-size=1280,1024",
        "--lang=en-US",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


# Every page the browser tests open runs under the site's Content-Security-Policy
# (settings: CONTENT_SECURITY_POLICY). This script, injected before any page's own, notes
# each violation in the tab's sessionStorage, which lasts across the pages of one origin;
# the ``browser`` fixture fails the test that caused any.
CSP_WATCH = """
document.addEventListener('securitypolicyviolation', function (event) {
  try {
    var seen = JSON.parse(sessionStorage.getItem('csp-violations') || '[]');
    seen.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline')
              + ' on ' + location.pathname);
    sessionStorage.setItem('csp-violations', JSON.stringify(seen));
  } catch (error) {}
});
"""


def csp_violations(driver: Any) -> list[str]:
    """The policy violations noted on the current page's origin (and forget them)."""
    try:
        seen = driver.execute_script(
            "var v = sessionStorage.getItem('csp-violations');"
            "sessionStorage.removeItem('csp-violations'); return v;"
        )
    except Exception:  # about:blank, a closed window: no origin, nothing noted
        return []
    import json

    return json.loads(seen) if seen else []


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    driver = new_chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_WATCH})
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def second_browser() -> Iterator[Any]:
    """Another Chromium, with its own cookies: the other player, a wall display, ..."""
    driver = new_chromium()
    try:
        yield driver
    finally:
        driver.quit()


def _lent(driver: Any) -> Iterator[Any]:
    """A session's Chromium lent to one test: no cookies from earlier tests, and the
    test failed by any Content-Security-Policy violation it caused."""
    driver.delete_all_cookies()
    yield driver
    violations = csp_violations(driver)
    # Leave no page running: a live page left open would go on reconnecting and
    # fetching itself from whatever server answers on its port next.
    driver.get("about:blank")
    driver.delete_all_cookies()
    if violations:
        pytest.fail(f"Content-Security-Policy violations: {violations}", pytrace=False)


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The session's Chromium (a Selenium WebDriver), with no cookies from earlier tests."""
    yield from _lent(_chromium)


@pytest.fixture(scope="session")
def _phone_chromium() -> Iterator[Any]:
    from tests.browser.phone import phone_chromium

    driver = phone_chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_WATCH})
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def phone(_phone_chromium: Any) -> Iterator[Any]:
    """The session's phone: a Chromium laying pages out at 390 x 844
    (:mod:`tests.browser.phone`), lent to the test as ``browser`` is."""
    yield from _lent(_phone_chromium)


def sign_in(driver: Any, base_url: str, user: Any, *, language: str | None = "en") -> None:
    """Sign ``user`` in through the login page at ``base_url`` in ``driver``: in English
    unless another ``language`` is given (``None``: the browser's own, no cookie)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base_url}/accounts/login/")
    if language:  # whatever the browser's language: the page texts tests look for
        driver.add_cookie({"name": "django_language", "value": language, "path": "/"})
    driver.find_element(By.ID, "id_username").send_keys(user.username)
    driver.find_element(By.ID, "id_password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: "/accounts/login/" not in d.current_url)


@pytest.fixture
def wait(browser: Any) -> Any:
    """``wait.until(condition)``: a WebDriverWait of a few seconds on ``browser``. An
    element gone stale (the page was replaced between finding it and reading it, as a
    form posted without script reloads the page) is asked again, like one not found yet."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        browser, WAIT_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
    )


@pytest.fixture
def log_in(browser: Any, live_server: Any) -> Callable[[Any], None]:
    """``log_in(user)``: sign in through the login page, in English."""

    def go(user: Any) -> None:
        sign_in(browser, live_server.url, user)

    return go


@pytest.fixture
def asgi_server(transactional_db: Any) -> Iterator[Any]:
    """The real ASGI application (``config.asgi``: the pages and the live WebSocket) served
    by uvicorn from a thread of the test process, on the real Redis channel layer, with the
    test's database. ``.url`` as pytest-django's ``live_server``; use it (with the
    ``log_in_at`` fixture) where a test is about live pages."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    class Running:
        """The server; ``stop()`` and ``start()`` again on the same port (a restart)."""

        url = f"http://127.0.0.1:{port}"
        server: Any = None
        thread: Any = None

        def start(self) -> None:
            config = uvicorn.Config(
                "config.asgi:application",
                host="127.0.0.1",
                port=port,
                log_level="warning",
                lifespan="on",
                ws="websockets-sansio",
            )
            self.server = uvicorn.Server(config)
            self.thread = threading.Thread(target=self.server.run, name="asgi", daemon=True)
            self.thread.start()
            deadline = time.monotonic() + WAIT_SECONDS
            while not self.server.started:
                if time.monotonic() > deadline or not self.thread.is_alive():
                    pytest.fail("the ASGI server (uvicorn) did not start", pytrace=False)
                time.sleep(0.02)

        def stop(self) -> None:
            self.server.should_exit = True
            self.thread.join(WAIT_SECONDS)

    running = Running()
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def log_in_at(browser: Any) -> Callable[..., None]:
    """``log_in_at(server, user, driver=browser)``: sign in through ``server``'s login
    page, in English, in ``driver`` (the test's browser unless another is given)."""

    def go(server: Any, user: Any, driver: Any = None) -> None:
        sign_in(driver or browser, server.url, user)

    return go
