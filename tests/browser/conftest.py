"""Browser tests: the pages driven in a real, headless Chromium through Selenium.

They need Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
the ``selenium`` package (the ``dev`` extra). A machine without them fails these tests
with a message saying what is missing: they are never skipped silently.

Fixtures:

* ``browser``: one Chromium for the whole run (``--headless=new``), cookies cleared
  before each test;
* ``log_in``: ``log_in(user)`` signs the user in through the real login page of the
  ``live_server`` (the user's password is the factories' ``jelszo-123``).

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
WAIT_SECONDS = 10


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
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
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The session's Chromium (a Selenium WebDriver), with no cookies from earlier tests."""
    _chromium.delete_all_cookies()
    yield _chromium
    _chromium.delete_all_cookies()


@pytest.fixture
def wait(browser: Any) -> Any:
    """``wait.until(condition)``: a WebDriverWait of a few seconds on ``browser``."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, WAIT_SECONDS)


@pytest.fixture
def log_in(browser: Any, live_server: Any, wait: Any) -> Callable[[Any], None]:
    """``log_in(user)``: sign in through the login page, in English."""
    from selenium.webdriver.common.by import By

    def go(user: Any) -> None:
        browser.get(f"{live_server.url}/accounts/login/")
        # English whatever the browser's language: the page texts tests look for.
        browser.add_cookie({"name": "django_language", "value": "en", "path": "/"})
        browser.find_element(By.ID, "id_username").send_keys(user.username)
        browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        wait.until(lambda driver: "/accounts/login/" not in driver.current_url)

    return go
