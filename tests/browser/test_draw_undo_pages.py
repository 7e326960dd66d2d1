"""Nothing irreversible in one tap (issue 29, item 2) in a real, headless Chromium: a
director sets the seeds by hand (a number typed, an arrow), makes the draw (the
confirmation says what will happen and is confirmed), undoes it (confirmed), makes it
again; a withdrawn player (confirmed) is reinstated from the flight's page. The
confirmation and seeds pages pass axe-core and fit a 390 px phone."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.browser.axe import assert_accessible
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import Entry, Flight

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def _fits_a_phone(browser, where: str) -> None:
    """The page open in ``browser`` laid out at 390 px: no sideways scroll, its buttons
    tap-sized."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        width = browser.execute_script("return document.documentElement.clientWidth;")
        scroll = browser.execute_script("return document.documentElement.scrollWidth;")
        assert width == 390 and scroll <= width + 1, (where, width, scroll)
        for button in browser.find_elements(By.CSS_SELECTOR, "main button, main .button-link"):
            assert button.size["height"] >= 44, (where, button.get_attribute("outerHTML"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _confirm(browser, wait, *, says: str, where: str) -> None:
    """On a confirmation page: it says ``says``, passes axe and fits a phone; nothing is
    done until Confirm is pressed, which is then pressed."""
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-confirm-action]"))
    text = browser.find_element(By.TAG_NAME, "main").text
    assert says in text, text
    assert browser.find_elements(By.CSS_SELECTOR, "a[data-cancel]")
    assert_accessible(browser, where)
    _fits_a_phone(browser, where)
    browser.find_element(By.CSS_SELECTOR, "[data-confirm-action]").click()


def test_a_draw_is_confirmed_undone_and_made_again_and_a_player_reinstated(
    browser, live_server, wait, log_in
) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(5))
    top = flight.entries.select_related("player").order_by("-rating").first()
    assert top is not None
    log_in(director)
    manage = f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/"

    # Seeds by hand: the lowest rated player is seed 1.
    browser.get(manage)
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "a[data-seeds-link]")).click()
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "form.seeds-form"))
    assert_accessible(browser, "seeds by hand")
    _fits_a_phone(browser, "seeds by hand")
    boxes = browser.find_elements(By.CSS_SELECTOR, "input.seed")
    assert [b.get_attribute("value") for b in boxes] == ["1", "2", "3", "4", "5"]
    lowest = min(flight.entries.all(), key=lambda e: e.rating)
    mine = browser.find_element(By.ID, f"seed-{lowest.pk}")
    first_box = browser.find_element(By.CSS_SELECTOR, "input.seed")
    first_box.clear()
    first_box.send_keys("9")
    mine.clear()
    mine.send_keys("1")
    # The arrows (nothing saved yet): the list in the typed order, renumbered, the top
    # rated player (typed 9: last, number 5) one place up.
    browser.find_element(By.CSS_SELECTOR, f'button[value="{top.pk}:down"]').click()
    wait.until(lambda b: "Not saved yet" in b.page_source)
    assert browser.find_element(By.ID, f"seed-{top.pk}").get_attribute("value") == "5"
    browser.find_element(By.CSS_SELECTOR, f'button[value="{top.pk}:up"]').click()
    wait.until(lambda b: b.find_element(By.ID, f"seed-{top.pk}").get_attribute("value") == "4")
    assert browser.find_element(By.ID, f"seed-{lowest.pk}").get_attribute("value") == "1"
    assert all(e.manual_seed is None for e in flight.entries.all())
    _fits_a_phone(browser, "seeds by hand, moved")
    browser.find_element(By.CSS_SELECTOR, "[data-save-seeds]").click()
    wait.until(lambda b: "The seeds are saved" in b.page_source)
    assert Flight.objects.get(pk=flight.pk).seeding == "manual"
    assert Entry.objects.get(pk=top.pk).manual_seed == 4

    # The draw, asked first.
    browser.find_element(By.CSS_SELECTOR, ".draw-form button[type=submit]").click()
    _confirm(browser, wait, says="Draw 5 players of Main.", where="confirm the draw")
    wait.until(lambda b: "The draw is made." in b.page_source)
    assert Flight.objects.get(pk=flight.pk).status == "drawn"
    assert Entry.objects.get(pk=lowest.pk).seed == 1

    # Undone, asked first.
    browser.find_element(By.CSS_SELECTOR, "[data-undraw]").click()
    _confirm(browser, wait, says="The flight is back in registration", where="confirm the undo")
    wait.until(lambda b: "The draw is undone" in b.page_source)
    assert Flight.objects.get(pk=flight.pk).status == "registration"
    assert not Flight.objects.get(pk=flight.pk).matches.exists()

    # Made again.
    browser.find_element(By.CSS_SELECTOR, ".draw-form button[type=submit]").click()
    _confirm(browser, wait, says="Draw 5 players of Main.", where="confirm the draw again")
    wait.until(lambda b: "The draw is made." in b.page_source)
    assert Flight.objects.get(pk=flight.pk).matches.count() == 7

    # A player withdrawn (asked first: who gets the walkover) and reinstated.
    row = f'tr[data-entry="{top.pk}"]'
    browser.find_element(By.CSS_SELECTOR, f"{row} .entry-actions button").click()
    _confirm(browser, wait, says="by walkover", where="confirm a withdrawal")
    wait.until(lambda b: f"{top.player.name} is withdrawn." in b.page_source)
    assert Entry.objects.get(pk=top.pk).status == "withdrawn"
    browser.find_element(By.CSS_SELECTOR, f"{row} [data-reinstate]").click()
    wait.until(lambda b: f"{top.player.name} is reinstated." in b.page_source)
    assert Entry.objects.get(pk=top.pk).status == "active"
