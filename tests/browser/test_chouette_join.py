"""Join a chouette from a phone (issue 19), in two real headless Chromiums on the real
ASGI server: the scorekeeper's scoreboard shows the session's join code and its QR code;
a phone (390 x 844) opens the join URL, joins as a guest by name and sees its running
total; the scorekeeper records a game from the scoreboard and the guest's total changes
on the phone live, without a reload. The join page and the total fit the phone with
44 px controls, under the CSP."""

from __future__ import annotations

import time
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chouette.models import ChouetteSession
from tests.browser.conftest import WAIT_SECONDS
from tests.browser.phone import PHONE_WIDTH, page_fit
from tests.chouette.factories import players, scorekeeper, session_with

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_SECONDS = WAIT_SECONDS
TAP = 44
CONTROLS = """
return [...document.querySelectorAll('main button, main input:not([type=hidden]), main a.button')]
  .map(el => [el.id || el.name || el.innerText, el.getBoundingClientRect().height])
  .filter(([, h]) => h > 0);
"""


def _fits(driver: Any) -> None:
    fit = page_fit(driver)
    assert fit.fits and fit.scroll_width <= PHONE_WIDTH, str(fit)
    small = [c for c in driver.execute_script(CONTROLS) if c[1] < TAP]
    assert small == [], small


def test_a_guest_joins_from_a_phone_and_follows_their_total_live(
    browser, phone, asgi_server, log_in_at
) -> None:
    keeper = scorekeeper()
    session = session_with(players(), by=keeper)
    log_in_at(asgi_server, keeper)
    browser.get(f"{asgi_server.url}/chouette/{session.pk}/")
    box = browser.find_element(By.ID, "join-code")
    code = browser.find_element(By.ID, "join-code-value").text
    assert code == session.join_code
    assert box.find_element(By.CSS_SELECTOR, "svg.qr").size["width"] > 50
    join_url = box.find_element(By.CSS_SELECTOR, "a.join-qr").get_attribute("href")
    assert join_url == f"{asgi_server.url}/chouette/join/{code}/"

    phone.get(f"{asgi_server.url}/healthz")
    phone.add_cookie({"name": "django_language", "value": "en", "path": "/"})
    phone.get(join_url)
    assert session.name in phone.find_element(By.TAG_NAME, "h1").text
    _fits(phone)
    phone.find_element(By.ID, "join-name").send_keys("Vendég Vili")
    phone.find_element(By.ID, "join-button").click()
    WebDriverWait(phone, WAIT_SECONDS).until(lambda d: d.find_elements(By.ID, "me-total"))
    assert phone.current_url.endswith(f"/chouette/{session.pk}/me/")
    assert phone.find_element(By.CSS_SELECTOR, ".me-name").text == "Vendég Vili"
    assert phone.find_element(By.ID, "me-total").text == "+0"
    assert "place 4 in the line" in phone.find_element(By.ID, "me-role").text
    _fits(phone)
    WebDriverWait(phone, WAIT_SECONDS).until(
        lambda d: d.execute_script("return document.body.dataset.liveState") == "up"
    )
    time.sleep(0.3)
    phone.execute_script("window.__noReload = 1;")

    # The scorekeeper's scoreboard shows the guest (live); a game is entered and saved.
    WebDriverWait(browser, LIVE_SECONDS).until(
        lambda d: "Vendég Vili" in d.find_element(By.CSS_SELECTOR, "ol.seating").text
    )
    browser.get(f"{asgi_server.url}/chouette/{session.pk}/game/")
    browser.find_element(By.ID, "save-button").click()
    # The page is replaced as it is read (the redirect, then a live redraw): an element
    # gone stale is read again.
    WebDriverWait(
        browser, WAIT_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: "The game has been saved." in d.find_element(By.TAG_NAME, "main").text)
    assert ChouetteSession.objects.get().events.filter(kind="game").count() == 1
    # Every member took the cube and the team won a single: the guest is up a point.
    WebDriverWait(phone, LIVE_SECONDS, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.find_element(By.ID, "me-total").text == "+1"
    )
    assert "game 1: +1" in phone.find_element(By.ID, "me-last").text
    assert phone.execute_script("return window.__noReload;") == 1
