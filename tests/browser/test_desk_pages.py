"""The night's desk on phones (issue 17), in headless Chromium emulating a 390x844 phone
on the real ASGI server: a player registers for a flight open for it and checks in with
the event's code; the director's desk, open on another phone, shows the check-in live
and ticks another player in with one tap (big targets, no sideways scroll)."""

from __future__ import annotations

import time

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import WAIT_SECONDS
from tests.factories import UserPlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import Entry
from tournaments.services.registration import entry_confirm, flight_set_registration

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def _phone(driver) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)


def _no_sideways_scroll(driver) -> None:
    inner = driver.execute_script("return document.documentElement.clientWidth;")
    scroll = driver.execute_script("return document.documentElement.scrollWidth;")
    assert inner <= 400 and scroll <= inner + 1, (inner, scroll)


def _tap(driver, selector: str) -> dict:
    """Measure and click the button at ``selector``, again if a live swap replaced it
    in between (the desk redraws itself while others tick)."""
    done: dict = {}

    def attempt(d) -> bool:  # type: ignore[no-untyped-def]
        try:
            button = d.find_element(By.CSS_SELECTOR, selector)
            done.update(button.size)
            button.click()
        except (StaleElementReferenceException, NoSuchElementException):
            return False
        return True

    WebDriverWait(driver, WAIT_SECONDS).until(attempt)
    return done


def _live(driver) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda b: b.execute_script("return document.body.dataset.liveState") == "up"
    )
    time.sleep(0.3)


def test_a_player_registers_and_checks_in_and_the_desk_ticks(
    browser, second_browser, asgi_server, log_in_at
) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    others = rated_players(2)
    flight = flight_with(event, others)
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=8)
    player = UserPlayerFactory(name="Kovács Éva")
    wait = WebDriverWait(browser, WAIT_SECONDS)
    _phone(browser)
    _phone(second_browser)
    try:
        # The player registers from the flight's public page.
        log_in_at(asgi_server, player.user)
        browser.get(f"{asgi_server.url}/events/{event.slug}/flights/{flight.pk}/")
        button = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "button[data-register]"))
        assert button.size["height"] >= 44
        _no_sideways_scroll(browser)
        button.click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, '[data-my-registration="pending"]'))
        entry = Entry.objects.get(flight=flight, player=player)
        assert entry.status == "pending"
        entry_confirm(entry_id=entry.pk, by=director)

        # The director's desk, on another phone, live.
        log_in_at(asgi_server, director, driver=second_browser)
        second_browser.get(f"{asgi_server.url}/events/{event.slug}/manage/desk/")
        desk_wait = WebDriverWait(second_browser, WAIT_SECONDS)
        code = desk_wait.until(
            lambda b: b.find_element(By.CSS_SELECTOR, "[data-code]")
        ).text.strip()
        assert code == event.check_in_code
        _no_sideways_scroll(second_browser)
        assert "checked in 0 of 3" in second_browser.find_element(By.ID, "desk-flights").text
        _live(second_browser)

        # The player checks in with the code, typed in lower case.
        browser.get(f"{asgi_server.url}/events/{event.slug}/check-in/")
        field = wait.until(lambda b: b.find_element(By.NAME, "code"))
        _no_sideways_scroll(browser)
        field.send_keys("WRONG2")
        browser.find_element(By.CSS_SELECTOR, ".check-in-form button").click()
        wait.until(lambda b: b.find_elements(By.ID, "check-in-error"))
        field = browser.find_element(By.NAME, "code")
        field.clear()
        field.send_keys(code.lower())
        browser.find_element(By.CSS_SELECTOR, ".check-in-form button").click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-checked-in]"))
        assert Entry.objects.get(pk=entry.pk).checked_in_at is not None

        # The desk shows it without a reload...
        second_browser.execute_script("window.__noReload = 1;")
        desk_wait.until(
            lambda b: (
                "checked in 1 of 3"
                in b.execute_script("return document.getElementById('desk-flights').innerText;")
            )
        )
        # ...and the director ticks another player in with one tap.
        other = Entry.objects.get(flight=flight, player=others[0])
        size = _tap(second_browser, f'li[data-entry="{other.pk}"] button[data-check-in]')
        assert size["height"] >= 44 and size["width"] >= 44
        desk_wait.until(
            lambda b: b.execute_script(
                "const e = document.querySelector(arguments[0]);"
                " return !!e && e.getAttribute('aria-pressed') === 'true';",
                f'li[data-entry="{other.pk}"] button[data-check-in]',
            )
        )
        assert second_browser.execute_script("return window.__noReload;") == 1
        desk_wait.until(
            lambda b: (
                "checked in 2 of 3"
                in b.execute_script("return document.getElementById('desk-flights').innerText;")
            )
        )
        assert Entry.objects.get(pk=other.pk).checked_in_at is not None
        _no_sideways_scroll(second_browser)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
