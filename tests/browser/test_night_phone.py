"""ACCEPTANCE (issue 29, item 3): the director enters a whole round's results from a
390 x 844 phone, on the night view (``/events/<slug>/manage/night/``), in headless
Chromium on the real ASGI server: the first open match's form is on the first screen,
no setup (print links, entries, walk-ins, lateness, round settings) comes above the
list, each result is entered in its row and the rows move without a reload; a refused
score stays typed with the refusal on its row; the search box filters by name and
table; a result entered elsewhere shows live; axe finds nothing serious."""

from __future__ import annotations

import time

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import PHONE_HEIGHT, page_fit
from tests.factories import UserPlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import match_set_table, result_enter

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Kovács Anna", "Szabó Béla", "Tóth Csaba", "Nagy Dóra"]
NAMES += ["Varga Emil", "Kiss Flóra", "Molnár Gábor", "Farkas Hanna"]

OPEN_ROWS = "#night-open ~ [data-night-rows] [data-night-row]"

# Where the first open match's form is, and what sits above the list: every form,
# section or card of the page above the open list's heading (only the search form may).
LAYOUT = """
const heading = document.getElementById('night-open');
const first = document.querySelector(arguments[0] + ' form');
const top = heading.getBoundingClientRect().top + window.scrollY;
const above = [];
for (const el of document.querySelectorAll('main form, main section, main .card, main details')) {
  const r = el.getBoundingClientRect();
  if (r.top + window.scrollY < top && !el.matches('[data-night-search-form]')) {
    above.push(el.outerHTML.slice(0, 80));
  }
}
const setup = document.getElementById('night-setup').getBoundingClientRect().top + window.scrollY;
const form = first ? first.getBoundingClientRect() : null;
return {above: above, formBottom: form ? form.bottom + window.scrollY : null,
        formTop: form ? form.top + window.scrollY : null, setupTop: setup,
        paper: document.querySelectorAll('.paper-links, .round-form, .draw-form').length};
"""


def _open_ids(driver) -> list[int]:
    try:
        return [
            int(el.get_attribute("id").rsplit("-", 1)[1])
            for el in driver.find_elements(By.CSS_SELECTOR, OPEN_ROWS)
            if el.is_displayed()
        ]
    except StaleElementReferenceException:
        return [-1]


def _enter(driver, match_id: int, a: str, b: str) -> None:
    """Type the score into the row's boxes and press Enter (again if a live redraw
    replaced the row in between)."""

    def attempt(d) -> bool:  # type: ignore[no-untyped-def]
        try:
            row = d.find_element(By.ID, f"night-m-{match_id}")
            for name, value in (("score_a", a), ("score_b", b)):
                box = row.find_element(By.NAME, name)
                box.clear()
                box.send_keys(value)
            row.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        except (StaleElementReferenceException, NoSuchElementException):
            return False
        return True

    WebDriverWait(driver, WAIT_SECONDS).until(attempt)


def test_a_whole_round_from_the_phone(phone, asgi_server) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    players = [UserPlayerFactory(name=name) for name in NAMES]
    # Round by round (play ahead off): the round's matches stay the open ones until the
    # round is complete, so each next one is the first row (a semi-final played ahead is
    # tests/browser/test_play_ahead_pages.py's).
    flight = flight_with(event, players, match_length=5, play_ahead=False)
    flight_draw(flight_id=flight.pk, by=director)
    first_round = list(flight.matches.filter(round=1).order_by("index"))
    for table, m in zip((4, 3, 2, 1), first_round, strict=True):
        match_set_table(match_id=m.pk, by=director, table=table)
    by_table = sorted(TournamentMatch.objects.filter(round=1, flight=flight), key=lambda m: m.table)
    wait = WebDriverWait(phone, WAIT_SECONDS)

    sign_in(phone, asgi_server.url, director)
    phone.get(f"{asgi_server.url}/events/{event.slug}/manage/night/")
    wait.until(lambda d: d.execute_script("return document.body.dataset.liveState") == "up")
    time.sleep(0.3)
    phone.execute_script("window.__noReload = 1;")
    assert page_fit(phone).fits, page_fit(phone)
    assert _open_ids(phone) == [m.pk for m in by_table]  # by table
    assert_accessible(phone, "the night view")

    # A refusal keeps the typed score and says which match is wrong.
    first = by_table[0]
    _enter(phone, first.pk, "3", "1")
    wait.until(lambda d: d.find_elements(By.ID, f"night-error-{first.pk}"))
    row = phone.find_element(By.ID, f"night-m-{first.pk}")
    assert row.find_element(By.NAME, "score_a").get_attribute("value") == "3"
    assert row.find_element(By.NAME, "score_b").get_attribute("value") == "1"
    error = phone.find_element(By.ID, f"night-error-{first.pk}").text
    assert first.entry_a.player.name in error and first.slot_key in error
    assert TournamentMatch.objects.get(pk=first.pk).status == "ready"

    # The whole round, each from the first screen: the next open match is always the
    # first row, right under the header, and no setup comes above the list.
    for n, m in enumerate(by_table):
        phone.execute_script("window.scrollTo(0, 0);")
        layout = phone.execute_script(LAYOUT, OPEN_ROWS)
        assert layout["above"] == [] and layout["paper"] == 0, layout
        assert layout["formBottom"] is not None and layout["formBottom"] <= PHONE_HEIGHT, layout
        assert layout["formBottom"] < layout["setupTop"], layout
        wait.until(lambda d, pk=m.pk: _open_ids(d)[:1] == [pk])
        _enter(phone, m.pk, "5", str(n))
        wait.until(lambda d, pk=m.pk: pk not in _open_ids(d) and -1 not in _open_ids(d))
        assert TournamentMatch.objects.get(pk=m.pk).status == "confirmed"
        # The row moved to the results, which are folded.
        wait.until(
            lambda d, pk=m.pk: d.find_elements(By.CSS_SELECTOR, f"#night-done #night-m-{pk}")
        )
    assert phone.execute_script("return window.__noReload") == 1  # no reload

    # The next round's matches are the open ones now, with the winners' names.
    second = list(TournamentMatch.objects.filter(flight=flight, round=2).order_by("index"))
    wait.until(lambda d: sorted(_open_ids(d)) == sorted(m.pk for m in second))
    text = phone.find_element(By.ID, "night-open").find_element(By.XPATH, "..").text
    for m in by_table:
        assert m.entry_a.player.name in text  # side a won 5-n each time

    # Searching by name and by table, in the page.
    search = phone.find_element(By.ID, "night-q")
    search.send_keys("kovacs")
    wait.until(lambda d: len(_open_ids(d)) == 1)
    search.clear()
    search.send_keys("x")
    search.clear()
    phone.execute_script(
        "arguments[0].dispatchEvent(new Event('input'));", phone.find_element(By.ID, "night-q")
    )
    wait.until(lambda d: len(_open_ids(d)) == 2)

    # A result entered elsewhere (the other director's phone) shows without a reload.
    result_enter(match_id=second[0].pk, by=director, score_a=5, score_b=4)
    wait.until(lambda d: second[0].pk not in _open_ids(d) and -1 not in _open_ids(d))
    assert phone.execute_script("return window.__noReload") == 1
    assert page_fit(phone).fits, page_fit(phone)
    assert_accessible(phone, "the night view after the round")
