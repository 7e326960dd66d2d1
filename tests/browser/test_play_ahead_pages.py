"""Issue 29, item 4 (acceptance): an early-finished pair plays on. An 8-player single
elimination is drawn; the two first-round matches feeding the first semi-final have
their results; while the other two first-round matches are still open, a semi-finalist
reports the semi-final on the public flight page and the director records it on the
flight's page (its quick score line). The result stands; both pages pass axe."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.browser.axe import assert_accessible
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db(transaction=True)


def _match(flight, slot) -> TournamentMatch:
    return TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key=slot
    )


def test_the_semi_final_is_played_while_round_one_goes_on(browser, live_server, wait, log_in):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(8, with_login=True), match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    for slot in ("M1-1", "M1-2"):
        result_enter(match_id=_match(flight, slot).pk, by=director, score_a=3, score_b=0)
    semi = next(
        m
        for m in TournamentMatch.objects.select_related("entry_a__player__user").filter(
            flight=flight, part="main", round=2
        )
        if m.entry_a_id and m.entry_b_id
    )
    assert semi.status == "ready"

    # A semi-finalist reports it on the public flight page.
    log_in(semi.entry_a.player.user)
    browser.get(f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/")
    form = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "form.report-form"))
    form.find_element(By.NAME, "score_a").send_keys("3")
    form.find_element(By.NAME, "score_b").send_keys("1")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda b: "You reported 3\u20131" in b.page_source)
    assert_accessible(browser, "the public flight page after a report")
    assert _match(flight, semi.slot_key).status == "reported"

    # The director records it on the flight's page, round 1 still open beside it.
    browser.delete_all_cookies()
    log_in(director)
    browser.get(f"{live_server.url}/events/{event.slug}/manage/flights/{flight.pk}/")
    row = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, f'tr[data-match="{semi.pk}"]'))
    assert "waiting" not in row.text
    for slot in ("M1-3", "M1-4"):
        other = _match(flight, slot)
        assert browser.find_elements(By.CSS_SELECTOR, f'tr[data-match="{other.pk}"]')
    assert_accessible(browser, "the director's flight page")
    quick = row.find_element(By.CSS_SELECTOR, "form.quick-result")
    quick.find_element(By.NAME, "score_a").send_keys("3")
    quick.find_element(By.NAME, "score_b").send_keys("1")
    quick.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda b: "The result was entered." in b.page_source)
    assert not browser.find_elements(By.CSS_SELECTOR, f'tr[data-match="{semi.pk}"] form')

    done = _match(flight, semi.slot_key)
    assert (done.status, done.winner, done.score_a, done.score_b) == ("confirmed", "a", 3, 1)
    assert [_match(flight, s).status for s in ("M1-3", "M1-4")] == ["ready", "ready"]
    # The public bracket shows the semi-final's result while round 1 is still played.
    browser.get(f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/")
    wait.until(lambda b: b.find_element(By.ID, "flight-board"))
    assert_accessible(browser, "the public flight page after the semi-final")
