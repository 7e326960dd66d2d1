"""The match page's clocks count down by themselves (R12; static/games/matchclock.js): the
running player's delay, then the reserve, a second at a time, and the page is not
rewritten in between. The clock used to be redrawn on every animation frame, 60 times a
second whether or not a figure changed: a layout and a paint each time, for as long as a
phone had the page open."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.conftest import WAIT_SECONDS
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

# Counts every change made under the clocks (a text rewritten, a class toggled) from now.
WATCH = """
window.__clockChanges = 0;
new MutationObserver(function (records) { window.__clockChanges += records.length; })
  .observe(document.querySelector('.clocks'),
           {subtree: true, childList: true, characterData: true, attributes: true});
"""

RUNNING = """
const r = document.querySelector('.clocks .reserve[data-running]');
const d = r && r.parentElement.querySelector('.delay');
return r ? [d ? d.textContent : '', r.textContent] : null;
"""


def test_the_running_clock_counts_its_delay_then_its_reserve_once_a_second(
    browser, asgi_server, log_in_at
):
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(
        player1=anna, player2=bence, length=3, clock={"delay_ms": 2000, "reserve_ms": 600_000}
    )
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    log_in_at(asgi_server, anna.user)
    browser.get(f"{asgi_server.url}/matches/{match.pk}/")
    first = WebDriverWait(browser, WAIT_SECONDS).until(lambda d: d.execute_script(RUNNING))
    browser.execute_script(WATCH)
    watched = time.monotonic()
    assert first[1] == "10:00", first  # the reserve waits while the delay runs
    # The delay runs out (2 s), then the reserve shows its first second gone.
    WebDriverWait(browser, WAIT_SECONDS, poll_frequency=0.2).until(
        lambda d: d.execute_script(RUNNING)[1] == "9:59"
    )
    delay, reserve = browser.execute_script(RUNNING)
    assert (delay, reserve) == ("+0:00", "9:59")
    seconds = time.monotonic() - watched
    changes = browser.execute_script("return window.__clockChanges;")
    # About two seconds of delay and one of reserve, each redrawn once (two texts and a
    # class): a few changes a second, not one per frame (the old loop made ~120 a second).
    assert changes <= 6 * (seconds + 1), (changes, seconds)
