"""The chouette scoreboard and game entry in a real, headless Chromium: the seating line
and the running totals read off the page, a game entered from the phone page with
Preview (the points shown, nothing saved) then Save, and the scoreboard's totals and
seating changed; the big-screen view shows the same seating."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from chouette.models import ChouetteEvent
from tests.chouette.factories import players, session_with

pytestmark = pytest.mark.django_db(transaction=True)


def _seating(browser) -> list[tuple[str, str, int]]:
    """(role, name, total) of every seat, in seating order, as displayed."""
    return [
        (
            seat.get_attribute("data-role"),
            seat.find_element(By.CSS_SELECTOR, ".seat-name").text,
            int(seat.find_element(By.CSS_SELECTOR, ".seat-total").text),
        )
        for seat in browser.find_elements(By.CSS_SELECTOR, "ol.seating li.seat")
    ]


def test_scoreboard_preview_and_save_a_game(browser, live_server, log_in, wait) -> None:
    cast = players()
    session = session_with(cast)
    log_in(cast["Ann"].user)
    board_url = f"{live_server.url}/chouette/{session.pk}/"
    browser.get(board_url)
    assert _seating(browser) == [
        ("box", "Bob", 0),
        ("captain", "Ann", 0),
        ("team", "Cy", 0),
        ("team", "Eve", 0),
        ("team", "Dee", 0),
    ]
    assert browser.find_element(By.CSS_SELECTOR, "li.seat.role-box").is_displayed()

    browser.find_element(By.ID, "enter-game").click()
    wait.until(lambda d: d.find_elements(By.ID, "preview-button"))
    # Prefilled from the seating: Bob in the box, Ann captain.
    assert Select(browser.find_element(By.ID, "id_box")).first_selected_option.text == "Bob"
    assert Select(browser.find_element(By.ID, "id_captain")).first_selected_option.text == "Ann"
    # The box doubled to 2: Dee dropped, the others took; the box wins a gammon.
    for name in ("Ann", "Cy", "Eve", "Dee"):
        Select(browser.find_element(By.NAME, f"cube-{cast[name].pk}")).select_by_value("2")
    Select(browser.find_element(By.NAME, f"fate-{cast['Dee'].pk}")).select_by_value("dropped")
    Select(browser.find_element(By.ID, "id_winner")).select_by_value("box")
    Select(browser.find_element(By.ID, "id_kind")).select_by_value("gammon")
    browser.find_element(By.ID, "preview-button").click()
    wait.until(lambda d: d.find_elements(By.ID, "preview"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#preview tbody tr")
    shown = {
        r.find_element(By.CSS_SELECTOR, "td").text: r.find_element(
            By.CSS_SELECTOR, ".preview-points"
        ).text
        for r in rows
    }
    assert shown == {"Bob": "+13", "Ann": "-4", "Cy": "-4", "Eve": "-4", "Dee": "-1"}
    assert "Next game: Bob in the box, Cy captain." in browser.find_element(By.ID, "preview").text
    assert ChouetteEvent.objects.count() == 0  # nothing saved by the preview
    # The form kept the entry: save it.
    assert (
        Select(
            browser.find_element(By.NAME, f"fate-{cast['Dee'].pk}")
        ).first_selected_option.get_attribute("value")
        == "dropped"
    )
    browser.find_element(By.ID, "save-button").click()
    wait.until(lambda d: d.current_url == board_url)
    assert "The game has been saved." in browser.find_element(By.CSS_SELECTOR, ".messages").text
    assert _seating(browser) == [
        ("box", "Bob", 13),
        ("captain", "Cy", -4),
        ("team", "Eve", -4),
        ("team", "Dee", -1),
        ("team", "Ann", -4),
    ]
    last = browser.find_element(By.CSS_SELECTOR, "table.chouette-games tbody tr")
    assert last.get_attribute("data-game") == "1"
    assert ChouetteEvent.objects.filter(kind="game").count() == 1

    # The big screen shows the same seating, without the site's header.
    browser.get(board_url + "?wall=1")
    assert _seating(browser)[0] == ("box", "Bob", 13)
    assert not browser.find_elements(By.CSS_SELECTOR, ".site-header")
