"""Routine work in one step (issue 29, item 11) in a headless Chromium: the director sets
5/5/7/9 + 5/5/7 for a main + consolation flight in one save of the round grid, then one
wrong value keeps every typed value and names its row; on the "Add players" page the
director narrows the club's list by name, ticks several players, takes the "last event"
shortcut and types a guest, and one post enters them all. Both pages pass axe-core and
keep to a 390 px phone without sideways scrolling."""

from __future__ import annotations

import datetime

import pytest
from selenium.webdriver.common.by import By

from tests.browser.axe import axe_violations
from tests.factories import PlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import FlightRound
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
LENGTHS = ["5", "5", "7", "9", "5", "5", "7"]  # main 1-4, consolation 1-3


def _fits(browser) -> None:
    inner = browser.execute_script("return document.documentElement.clientWidth;")
    scroll = browser.execute_script("return document.documentElement.scrollWidth;")
    assert inner <= 390 and scroll <= inner + 1, (scroll, inner)


def _no_serious_axe(browser) -> None:
    failing = [v for v in axe_violations(browser) if v.failing]
    assert not failing, failing


def _lengths(browser) -> list[str]:
    boxes = browser.find_elements(By.CSS_SELECTOR, "table.round-grid input[name$='-match_length']")
    return [b.get_attribute("value") for b in boxes]


def _type(box, text: str) -> None:
    box.clear()
    box.send_keys(text)


def test_the_round_grid_in_one_save(browser, live_server, log_in, wait):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(
        event,
        rated_players(16),
        format="consolation",
        options={"entry_rounds": 1},
        match_length=3,
    )
    flight_draw(flight_id=flight.pk, by=director)
    log_in(director)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        browser.get(f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/")
        browser.find_element(By.CSS_SELECTOR, ".round-settings-link a").click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.round-grid"))
        rows = browser.find_elements(By.CSS_SELECTOR, "table.round-grid tbody tr")
        assert [r.get_attribute("data-round") for r in rows] == [
            "main-1",
            "main-2",
            "main-3",
            "main-4",
            "consolation-1",
            "consolation-2",
            "consolation-3",
        ]
        _fits(browser)
        _no_serious_axe(browser)
        boxes = browser.find_elements(
            By.CSS_SELECTOR, "table.round-grid input[name$='-match_length']"
        )
        # "Fill down" copies a row into the rows below it in the same part only.
        _type(boxes[0], "7")
        browser.find_element(
            By.CSS_SELECTOR, "tr[data-round='main-1'] button[data-fill-down]"
        ).click()
        assert _lengths(browser) == ["7", "7", "7", "7", "3", "3", "3"]
        for box, length in zip(boxes, LENGTHS, strict=True):
            _type(box, length)
        browser.find_element(By.CSS_SELECTOR, "form.round-grid-form button[type=submit]").click()
        wait.until(lambda b: "The round settings were saved." in b.page_source)
        stored = {
            (r.part, r.number): r.match_length for r in FlightRound.objects.filter(flight=flight)
        }
        assert [stored[k] for k in sorted(stored, key=lambda k: (k[0] != "main", k[1]))] == [
            int(v) for v in LENGTHS
        ]
        assert _lengths(browser) == LENGTHS

        # One wrong value: nothing saved, every typed value kept, the row named.
        typed = ["11", "5", "7", "9", "5", "30", "9"]
        boxes = browser.find_elements(
            By.CSS_SELECTOR, "table.round-grid input[name$='-match_length']"
        )
        for box, length in zip(boxes, typed, strict=True):
            _type(box, length)
        browser.find_element(By.CSS_SELECTOR, "form.round-grid-form button[type=submit]").click()
        wait.until(lambda b: b.find_elements(By.ID, "round-grid-error"))
        error = browser.find_element(By.ID, "round-grid-error").text
        assert error.startswith("Consolation, round 2:") and "1 to 25 points" in error
        assert _lengths(browser) == typed
        wrong = browser.find_element(By.CSS_SELECTOR, "tr[data-round='consolation-2']")
        assert "has-error" in wrong.get_attribute("class")
        box = wrong.find_element(By.CSS_SELECTOR, "input[name$='-match_length']")
        assert box.get_attribute("aria-invalid") == "true"
        assert FlightRound.objects.get(flight=flight, part="main", number=1).match_length == 5
        assert (
            FlightRound.objects.get(flight=flight, part="consolation", number=3).match_length == 7
        )
        _fits(browser)
        _no_serious_axe(browser)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_adding_many_players_at_once(browser, live_server, log_in, wait):
    director = DirectorFactory()
    last = EventFactory(director=director, starts_on=datetime.date(2025, 2, 1))
    regulars = [PlayerFactory(name=n) for n in ("Bodnár Ági", "Csonka Pál")]
    flight_with(last, regulars)
    others = [PlayerFactory(name=n) for n in ("Kiss Anna", "Kis Ábel", "Nagy Béla")]
    event = EventFactory(director=director, starts_on=datetime.date(2025, 3, 1))
    flight = flight_with(event, [])
    log_in(director)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        browser.get(f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/")
        browser.find_element(
            By.CSS_SELECTOR, f"a[href$='/flights/{flight.pk}/entries/add/']"
        ).click()
        wait.until(lambda b: b.find_elements(By.ID, "club-player-list"))
        _fits(browser)
        _no_serious_axe(browser)
        # The "last event" shortcut ticks its players.
        browser.find_element(By.PARTIAL_LINK_TEXT, "Tick the players of the last event").click()
        wait.until(lambda b: "last=1" in b.current_url)

        def box(player):
            return browser.find_element(By.CSS_SELECTOR, f"input[name=player][value='{player.pk}']")

        assert all(box(p).is_selected() for p in regulars)
        assert not any(box(p).is_selected() for p in others)
        # The filter box narrows the list (accents folded); ticks stay.
        browser.find_element(By.CSS_SELECTOR, "input[data-pick-filter]").send_keys("kis")
        wait.until(lambda b: not box(others[2]).is_displayed())
        assert box(others[0]).is_displayed() and box(others[1]).is_displayed()
        box(others[0]).click()
        box(others[1]).click()
        assert all(box(p).is_selected() for p in regulars)  # hidden, still ticked
        browser.find_element(By.ID, "id_names").send_keys("Vendég Viktor\nÚj Ödön")
        browser.find_element(By.CSS_SELECTOR, "form.bulk-entry-form button[type=submit]").click()
        wait.until(lambda b: b.find_elements(By.ID, "bulk-result"))
        result = browser.find_element(By.CSS_SELECTOR, ".bulk-result").text
        assert "Entered: 6 players." in result
        for name in ("Bodnár Ági", "Csonka Pál", "Kiss Anna", "Kis Ábel", "Vendég Viktor"):
            assert name in result
        assert sorted(flight.entries.values_list("player__name", flat=True)) == sorted(
            ["Bodnár Ági", "Csonka Pál", "Kiss Anna", "Kis Ábel", "Vendég Viktor", "Új Ödön"]
        )
        _fits(browser)
        _no_serious_axe(browser)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
