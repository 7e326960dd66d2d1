"""At the chouette table in two real, headless Chromiums on the real ASGI server (issue
18): the scorekeeper undoes the last game and ends the session, each through its
confirmation (a <details> with the real submit inside: no script, under the CSP), then
reopens it; the big screen in the other browser follows every step without a reload."""

from __future__ import annotations

import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chouette.models import ChouetteSession
from chouette.services.games import game_record
from tests.browser.conftest import WAIT_SECONDS
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_SECONDS = WAIT_SECONDS


def _live(driver) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda d: d.execute_script("return document.body.dataset.liveState") == "up"
    )
    time.sleep(0.3)


def _wall_games(driver) -> int:
    return driver.execute_script(
        "return document.querySelectorAll('#chouette-wall table.chouette-games tbody tr').length;"
    )


def test_undo_end_and_reopen_through_their_confirmations_live(
    browser, second_browser, asgi_server, log_in_at
) -> None:
    cast = players()
    keeper = scorekeeper()
    session = session_with(cast, by=keeper)
    for winner in ("team", "box"):
        session.refresh_from_db()
        entry = simple_entry(session, winner=winner)
        game_record(session_id=session.pk, by=keeper, entry=entry)
    board_url = f"{asgi_server.url}/chouette/{session.pk}/"
    wall = second_browser
    wall.get(board_url + "?wall=1")
    _live(wall)
    assert _wall_games(wall) == 2
    wall.execute_script("window.__noReload = 1;")

    log_in_at(asgi_server, keeper)
    browser.get(board_url)
    undo_button = browser.find_element(By.ID, "undo-button")
    assert not undo_button.is_displayed()  # inside the closed confirmation
    browser.find_element(By.CSS_SELECTOR, "#undo-confirm > summary").click()
    confirm = browser.find_element(By.CSS_SELECTOR, "#undo-confirm .confirm-body").text
    assert "Undo game 2 (Ann in the box, box wins a single)?" in confirm
    assert ChouetteSession.objects.get().events.filter(undone=True).count() == 0  # not yet
    undo_button.click()
    # The page is replaced after the post (and may be again by its live update): a
    # <main> read just before that is stale, so the wait looks again.
    WebDriverWait(
        browser, WAIT_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: "The last game has been undone." in d.find_element(By.TAG_NAME, "main").text)
    WebDriverWait(wall, LIVE_SECONDS).until(lambda d: _wall_games(d) == 1)

    browser.find_element(By.CSS_SELECTOR, "#end-confirm > summary").click()
    assert "End the session after 1 game?" in browser.find_element(By.ID, "end-confirm").text
    browser.find_element(By.ID, "end-button").click()
    WebDriverWait(browser, WAIT_SECONDS).until(lambda d: "/summary/" in d.current_url)
    assert not ChouetteSession.objects.get().is_open

    browser.get(board_url)
    assert "This session has ended" in browser.find_element(By.ID, "session-ended").text
    assert not browser.find_elements(By.ID, "enter-game")
    browser.find_element(By.ID, "reopen-session").click()
    WebDriverWait(browser, WAIT_SECONDS).until(lambda d: d.find_elements(By.ID, "enter-game"))
    assert "The session is open again" in browser.find_element(By.TAG_NAME, "main").text
    session = ChouetteSession.objects.get()
    assert session.is_open and session.reopened_by == keeper
    # Games go on: the big screen, never reloaded, shows the next one.
    game_record(session_id=session.pk, by=keeper, entry=simple_entry(session))
    WebDriverWait(wall, LIVE_SECONDS).until(lambda d: _wall_games(d) == 2)
    assert wall.execute_script("return window.__noReload;") == 1
