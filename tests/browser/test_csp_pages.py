"""Issue 16, defect 11: the Content-Security-Policy breaks no page. The API docs (Swagger
UI from drf-spectacular-sidecar) render, and a page that follows the live WebSocket
connects to /ws/live/ under ``connect-src 'self'``. Any violation on any page of any
browser test fails that test (tests/browser/conftest.py)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.browser.conftest import csp_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_render_under_the_policy(browser, live_server, wait):
    browser.get(f"{live_server.url}/api/docs/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".swagger-ui .opblock"))
    assert "Backgammon club server API" in browser.find_element(By.CSS_SELECTOR, ".info").text
    assert csp_violations(browser) == []


def test_a_blocked_inline_script_is_caught(browser, live_server, wait):
    """The watch itself works: an inline script on our origin is refused and noted."""
    browser.get(f"{live_server.url}/healthz")
    browser.execute_script(
        "var s = document.createElement('script'); s.textContent = 'window.ran = 1;';"
        "document.body.appendChild(s);"
    )
    wait.until(lambda d: d.execute_script("return sessionStorage.getItem('csp-violations')"))
    assert browser.execute_script("return window.ran") is None
    noted = csp_violations(browser)
    assert noted and noted[0].startswith("script-src")
