"""A disputed result (issue 29) in headless Chromium on the real ASGI server: the two
players of a match report different scores (the second on the flight's page, told that
the director decides); the director's desk, open on another browser, shows the match
flagged in red without a reload, and so does the flight's page; the director opens the
match from the flag, sees both reports side by side, accepts one with a reason, and the
flag is gone and the result stands (audited). axe-core checks every page on the way."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import ResultCorrection, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_report

pytestmark = pytest.mark.django_db(transaction=True)

#: The flag's red (static/tournaments/tournaments.css: .dispute-flag), and its text white.
FLAG_RED = "rgb(164, 22, 26)"
WHITE = "rgb(255, 255, 255)"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def _live(driver) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda b: b.execute_script("return document.body.dataset.liveState") == "up"
    )
    time.sleep(0.3)


def _flag(driver, match_id: int):
    return driver.find_element(By.CSS_SELECTOR, f'a.dispute-flag[data-dispute="{match_id}"]')


def _assert_red_flag(driver, match_id: int, url: str) -> None:
    flag = _flag(driver, match_id)
    assert flag.is_displayed()
    assert flag.text.strip().startswith("Disputed")
    style = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.backgroundColor, s.color];", flag
    )
    assert style == [FLAG_RED, WHITE], style
    assert flag.get_attribute("href").endswith(url)


def test_a_disputed_report_is_flagged_and_the_director_decides_it(
    browser, second_browser, asgi_server, log_in_at
) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players, match_length=5)
    flight_draw(flight_id=flight.pk, by=director)
    match = TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key="M1-1"
    )
    a, b = match.entry_a.player, match.entry_b.player
    # Side a reports 5-2 (the API's and the page's service).
    result_report(match_id=match.pk, by=a.user, score_a=5, score_b=2)
    base = asgi_server.url
    match_url = f"/events/{event.slug}/manage/matches/{match.pk}/"
    wait = WebDriverWait(browser, WAIT_SECONDS)
    desk_wait = WebDriverWait(second_browser, WAIT_SECONDS)

    # The director's desk, open and live: nothing disputed yet.
    log_in_at(asgi_server, director, driver=second_browser)
    second_browser.get(f"{base}/events/{event.slug}/manage/desk/")
    desk_wait.until(lambda d: d.find_element(By.ID, "desk-disputes"))
    assert not second_browser.find_elements(By.CSS_SELECTOR, "a.dispute-flag")
    _live(second_browser)
    second_browser.execute_script("window.__noReload = 1;")

    # Side b reports 2-5 on the flight's page: kept, and told the director decides.
    log_in_at(asgi_server, b.user)
    browser.get(f"{base}/events/{event.slug}/flights/{flight.pk}/")
    form = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "form.report-form"))
    form.find_element(By.NAME, "score_a").send_keys("2")
    form.find_element(By.NAME, "score_b").send_keys("5")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda d: "Your report differs from" in d.page_source)
    assert f"Your report differs from {a.name}" in browser.page_source
    mine = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".dispute-mine"))
    assert "the director decides" in mine.text
    assert not browser.find_elements(By.CSS_SELECTOR, "form.report-form")
    assert_accessible(browser, "the player's flight page, disputed")
    match.refresh_from_db()
    assert match.status == "disputed" and match.report_a and match.report_b

    # The desk shows the flag without a reload, in red, linking to the match.
    desk_wait.until(
        lambda d: d.find_elements(By.CSS_SELECTOR, f'a.dispute-flag[data-dispute="{match.pk}"]')
    )
    assert second_browser.execute_script("return window.__noReload;") == 1
    _assert_red_flag(second_browser, match.pk, match_url)
    assert_accessible(second_browser, "the desk with a dispute")

    # The flight's page flags it too, in its list of matches to play, with no quick score.
    second_browser.get(f"{base}/events/{event.slug}/manage/flights/{flight.pk}/")
    row = desk_wait.until(
        lambda d: d.find_element(By.CSS_SELECTOR, f'table.open-matches tr[data-match="{match.pk}"]')
    )
    _assert_red_flag(second_browser, match.pk, match_url)
    assert not row.find_elements(By.CSS_SELECTOR, "form.quick-result")
    assert_accessible(second_browser, "the flight's page with a dispute")

    # The director opens the match from the flag: both reports side by side.
    _flag(second_browser, match.pk).click()
    form = desk_wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "form.dispute-form"))
    reports = form.find_elements(By.CSS_SELECTOR, ".dispute-report")
    assert [r.get_attribute("data-side") for r in reports] == ["a", "b"]
    assert "5–2" in reports[0].text and "2–5" in reports[1].text  # noqa: RUF001
    assert f"Accept {a.name}'s report" in reports[0].text
    assert f"Accept {b.name}'s report" in reports[1].text
    assert not second_browser.find_elements(By.CSS_SELECTOR, "form.enter-form")
    assert_accessible(second_browser, "the disputed match's page")
    # On the director's phone: both reports fit 390 px, the buttons tap-sized.
    second_browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        width = second_browser.execute_script("return document.documentElement.clientWidth;")
        scroll = second_browser.execute_script("return document.documentElement.scrollWidth;")
        assert width == 390 and scroll <= width + 1, (width, scroll)
        for button in form.find_elements(By.CSS_SELECTOR, "button"):
            assert button.size["height"] >= 44, button.text
    finally:
        second_browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    form.find_element(By.NAME, "reason").send_keys("The score sheet says 2-5")
    reports[1].find_element(By.CSS_SELECTOR, "button.dispute-accept").click()
    desk_wait.until(lambda d: "The dispute is decided" in d.page_source)
    assert not second_browser.find_elements(By.CSS_SELECTOR, ".dispute-flag")
    facts = second_browser.find_element(By.ID, "match-facts").text
    assert "2–5" in facts and b.name in facts  # noqa: RUF001
    audit = second_browser.find_element(By.ID, "match-audit").text
    assert "The score sheet says 2-5" in audit
    assert_accessible(second_browser, "the decided match's page")

    # The flag is gone from the desk and the flight's page; the result stands.
    second_browser.get(f"{base}/events/{event.slug}/manage/desk/")
    desk_wait.until(lambda d: d.find_element(By.ID, "desk-disputes"))
    assert not second_browser.find_elements(By.CSS_SELECTOR, ".dispute-flag")
    second_browser.get(f"{base}/events/{event.slug}/manage/flights/{flight.pk}/")
    done = desk_wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "table.done-matches"))
    assert "M1-1" in done.text
    assert not second_browser.find_elements(By.CSS_SELECTOR, ".dispute-flag")
    match.refresh_from_db()
    assert (match.status, match.winner, match.score_a, match.score_b) == ("confirmed", "b", 2, 5)
    correction = ResultCorrection.objects.get(match=match)
    assert correction.kind == "dispute" and correction.by == director
