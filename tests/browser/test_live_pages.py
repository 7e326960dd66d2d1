"""Live pages in a real, headless Chromium on the real ASGI server (uvicorn, the real Redis
channel layer): the demo tournament's wall follows the director's results without a
reload (tournaments.live, static/games/live.js)."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import WAIT_SECONDS
from tournaments.models import Event, TournamentMatch
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db(transaction=True)

#: Seconds a change may take to reach an open page: a bound for the test, with room for a
#: CI machine running four test processes on two cores (the issue asks for one second;
#: bench/live.py measures the push itself, a few milliseconds at p99).
LIVE_SECONDS = WAIT_SECONDS


def _live(browser) -> None:
    """Wait until the page's socket is open and has had a moment to send its watches."""
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda b: b.execute_script("return document.body.dataset.liveState") == "up"
    )
    time.sleep(0.3)


def test_the_demo_walls_bracket_follows_the_directors_results(browser, asgi_server) -> None:
    call_command("load_demo_club", verbosity=0)
    call_command("load_demo_tournament", verbosity=0)
    event = Event.objects.get(slug="demo-kupa")
    (flight,) = event.flights.all()
    director = event.directors.get(username="demo-director")
    ready = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk").first()
    slot = f'g.slot[data-slot="{ready.slot_key}"]'

    browser.get(f"{asgi_server.url}/events/{event.slug}/flights/{flight.pk}/?wall=1")
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: b.find_elements(By.CSS_SELECTOR, slot))
    assert "slot-played" not in browser.find_element(By.CSS_SELECTOR, slot).get_attribute("class")
    assert not browser.find_elements(By.CSS_SELECTOR, 'meta[http-equiv="refresh"]')
    _live(browser)
    browser.execute_script("window.__noReload = 1;")

    result_enter(match_id=ready.pk, by=director, score_a=ready.match_length, score_b=0)

    WebDriverWait(browser, LIVE_SECONDS).until(
        # Read in one script: the region may be swapped between two WebDriver calls.
        lambda b: b.execute_script(
            "const e = document.querySelector(arguments[0]);"
            " return !!e && e.classList.contains('slot-played');",
            slot,
        )
    )
    assert browser.execute_script("return window.__noReload;") == 1  # swapped, not reloaded
    # The swapped wall is laid out again to fit the screen (static/tournaments/wall.js).
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda b: b.execute_script(
            "return !!document.querySelector('#flight-wall .wall-parts.is-laid-out');"
        )
    )
    winner = ready.entry_a.player.name
    assert winner in browser.find_element(By.ID, "flight-wall").text
    assert browser.find_element(By.ID, "live-status").get_attribute("hidden") is not None
