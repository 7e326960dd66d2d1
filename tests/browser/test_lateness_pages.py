"""Lateness (docs/rules.md R15) in a real, headless Chromium on a phone (mobile emulation
at 390 px): the director records a late player on the match's page, whose form fits the
screen with tap targets of at least 44 px; the page then shows the opponent's starting
score."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def test_a_director_records_a_late_player_on_a_phone(browser, live_server, wait, log_in):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(4), match_length=5, lateness=True)
    flight_draw(flight_id=flight.pk, by=director)
    m = TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key="M1-1"
    )
    log_in(director)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        browser.get(f"{live_server.url}/events/{event.slug}/manage/matches/{m.pk}/")
        form = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "form.lateness-form"))
        width = browser.execute_script("return document.documentElement.clientWidth;")
        assert width == 390
        scroll = browser.execute_script("return document.documentElement.scrollWidth;")
        assert scroll <= width + 1  # no sideways scroll
        for control in form.find_elements(By.CSS_SELECTOR, "select, input[type=number], button"):
            assert control.size["height"] >= 44, control.get_attribute("outerHTML")
        Select(form.find_element(By.NAME, "side")).select_by_value("a")
        form.find_element(By.NAME, "minutes").send_keys("12")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda b: "The lateness was saved." in b.page_source)
        facts = browser.find_element(By.ID, "match-facts").text
        a, b = m.entry_a.player.name, m.entry_b.player.name
        assert f"{b} starts at 2 ({a} 12 min late)" in facts
        scroll = browser.execute_script("return document.documentElement.scrollWidth;")
        assert scroll <= width + 1
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    m.refresh_from_db()
    assert (m.late_side, m.late_minutes, m.late_points) == ("a", 12, 2)
