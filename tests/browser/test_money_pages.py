"""The money pages (issue 17) in a headless Chromium at a phone's width (390 px, mobile
emulation): the director types the money settings, a refusal keeps what was typed and
names the field, the saved settings show on the payout page; neither page scrolls
sideways, and the buttons are big enough to tap."""

from __future__ import annotations

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import Entry
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def _no_sideways_scroll(browser) -> None:
    inner = browser.execute_script("return document.documentElement.clientWidth;")
    scroll = browser.execute_script("return document.documentElement.scrollWidth;")
    assert inner <= 390 and scroll <= inner + 1, (scroll, inner)


def test_money_settings_and_payouts_on_a_phone(browser, live_server, log_in, wait):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(8), format="consolation", director=director)
    flight_draw(flight_id=flight.pk, by=director)
    Entry.objects.filter(flight=flight).update(paid_at=timezone.now())
    log_in(director)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        url = f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/money/"
        browser.get(url)
        fee = browser.find_element(By.ID, "id_fee")
        fee.clear()
        fee.send_keys("5000")
        split = browser.find_element(By.ID, "id_split_consolation")
        split.clear()
        split.send_keys("25 / 20")
        _no_sideways_scroll(browser)
        button = browser.find_element(By.CSS_SELECTOR, "form.money-form button[type=submit]")
        assert button.size["height"] >= 44
        button.click()
        wait.until(lambda b: "exactly 100" in b.page_source)
        assert browser.find_element(By.ID, "id_fee").get_attribute("value") == "5000"
        assert browser.find_element(By.ID, "id_split_consolation").get_attribute("value") == (
            "25 / 20"
        )
        # The refusal stands by the first split field (the split as a whole is wrong).
        field = browser.find_element(By.ID, "id_split_main").find_element(By.XPATH, "..")
        assert "exactly 100" in field.text
        split = browser.find_element(By.ID, "id_split_consolation")
        split.clear()
        split.send_keys("25 / 10")
        browser.find_element(By.CSS_SELECTOR, "form.money-form button[type=submit]").click()
        wait.until(lambda b: "The money settings were saved." in b.page_source)
        _no_sideways_scroll(browser)

        browser.get(f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/payouts/")
        text = browser.find_element(By.TAG_NAME, "main").text
        assert (
            "HUF 40,000" in text
        )  # 8 paid x 5000 (the reader's format; .text turns the NBSP into a space)
        assert "if the flight ended as it stands" in text
        _no_sideways_scroll(browser)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
