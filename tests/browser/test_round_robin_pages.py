"""Issue 29 in a real, headless Chromium: a director on a 390 px phone orders a round
robin's tie-breaks on its page (a repeat is refused with the choices kept), and creates
a main + consolation + last chance flight from the event's page, drawn with its three
parts shown."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser.axe import assert_accessible
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import Flight
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def _fits(browser) -> None:
    width = browser.execute_script("return document.documentElement.clientWidth;")
    scroll = browser.execute_script("return document.documentElement.scrollWidth;")
    assert width == 390 and scroll <= width + 1  # no sideways scroll


def test_a_director_orders_a_round_robins_tie_breaks_on_a_phone(browser, live_server, wait, log_in):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(6), format="round_robin", name="Robin")
    flight_draw(flight_id=flight.pk, by=director)
    log_in(director)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        browser.get(f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/")
        section = wait.until(lambda b: b.find_element(By.ID, "tiebreaks"))
        assert (
            "Wins, Head-to-head, Point difference"
            in browser.find_element(By.XPATH, "//section[@aria-labelledby='tiebreaks']").text
        ), section.text
        browser.find_element(By.LINK_TEXT, "Change the tie-breaks").click()
        form = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "form.tiebreak-form"))
        _fits(browser)
        assert_accessible(browser, "the tie-breaks page")
        for control in form.find_elements(By.CSS_SELECTOR, "select, button"):
            assert control.size["height"] >= 44, control.get_attribute("outerHTML")
        Select(form.find_element(By.NAME, "tiebreak_1")).select_by_value("point_difference")
        Select(form.find_element(By.NAME, "tiebreak_2")).select_by_value("point_difference")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda b: "This tie-break is chosen already." in b.page_source)
        form = browser.find_element(By.CSS_SELECTOR, "form.tiebreak-form")
        kept = Select(form.find_element(By.NAME, "tiebreak_1")).first_selected_option
        assert kept.get_attribute("value") == "point_difference"
        _fits(browser)
        Select(form.find_element(By.NAME, "tiebreak_2")).select_by_value("head_to_head")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda b: "The tie-breaks were saved." in b.page_source)
        assert (
            "Wins, Point difference, Head-to-head"
            in browser.find_element(By.XPATH, "//section[@aria-labelledby='tiebreaks']").text
        )
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    flight.refresh_from_db()
    assert flight.options["tiebreaks"] == ["wins", "point_difference", "head_to_head"]


def test_a_director_creates_main_consolation_and_last_chance(browser, live_server, wait, log_in):
    director = DirectorFactory()
    event = EventFactory(director=director)
    log_in(director)
    browser.get(f"{live_server.url}/events/{event.slug}/manage/")
    form = wait.until(lambda b: b.find_element(By.NAME, "last_chance_rounds")).find_element(
        By.XPATH, "ancestor::form"
    )
    form.find_element(By.NAME, "name").send_keys("Friday night")
    Select(form.find_element(By.NAME, "format")).select_by_value("consolation_last_chance")
    Select(form.find_element(By.NAME, "last_chance_rounds")).select_by_value("2")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda b: "The flight was created." in b.page_source)
    flight = Flight.objects.get(event=event, name="Friday night")
    assert flight.format == "consolation_last_chance"
    assert flight.options == {"entry_rounds": 1, "last_chance_rounds": 2}
    for player in rated_players(16):
        entry_register(flight_id=flight.pk, by=director, player_id=player.pk)
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    browser.get(f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/")
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "svg.bracket-last_chance"))
    parts = [
        svg.get_attribute("data-part")
        for svg in browser.find_elements(By.CSS_SELECTOR, "svg.bracket")
    ]
    assert parts == ["main", "consolation", "last_chance"]
    assert_accessible(browser, "a main + consolation + last chance flight")
