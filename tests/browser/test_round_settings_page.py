"""The director's flight page in a real, headless Chromium (issue 17, defect 7): an
11-player knockout's round settings say which round is the final and the semi-final,
the clock fields (on the round settings grid, issue 29) are "Clock preset" and "Clock
use" with the presets named, and the page
keeps to the window at its narrowest (no sideways scroll); no CSP violation (the
``browser`` fixture)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_round_settings_name_the_final(browser, live_server, wait, log_in):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(
        event, rated_players(11), format="consolation", options={"entry_rounds": 1}
    )
    flight_draw(flight_id=flight.pk, by=director)
    log_in(director)
    browser.set_window_size(500, 900)
    browser.get(f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/")
    wait.until(lambda b: b.find_elements(By.ID, "flight-rounds"))
    rounds = browser.find_element(By.ID, "flight-rounds").text
    assert "Final" in rounds and "Semi-final" in rounds
    form = browser.find_element(By.XPATH, "//h3[contains(., 'Round settings')]/..").text
    assert "Main draw: rounds 1 to 4 (3 = Semi-final, 4 = Final)" in form
    assert "Consolation: rounds 1 to 2 (1 = Semi-final, 2 = Final)" in form
    # The settings themselves are one grid on a page of its own (issue 29).
    browser.find_element(By.CSS_SELECTOR, ".round-settings-link a").click()
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.round-grid"))
    head = browser.find_element(By.CSS_SELECTOR, "table.round-grid thead")
    assert "Clock preset" in head.get_attribute("textContent")
    assert "Clock use" in head.get_attribute("textContent")
    preset = Select(browser.find_element(By.NAME, "r-0-clock_preset"))
    assert "club (11 s + 1:30)" in [o.text for o in preset.options]
    inner = browser.execute_script("return document.documentElement.clientWidth;")
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= inner + 1
