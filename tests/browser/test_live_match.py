"""A match followed live in two real browsers (issue 15; static/games/live.js): what one
player does appears on the other's page with no reload, over the real ASGI server and the
real Redis channel layer. How fast is bench/live.py's to measure (a push's p99 is a few
milliseconds); the wait here only bounds a test that would otherwise hang, with room for
a CI machine running four test processes on two cores."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from games.engine.actions import state_from_dict
from games.models import Game
from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.conftest import WAIT_SECONDS
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

#: How long the other page may take to show it (a bound, not the target: see above).
LIVE_SECONDS = WAIT_SECONDS


def _moves(driver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "section.moves li"))


def _mark(driver) -> None:
    """A marker that a reload would wipe out."""
    driver.execute_script("window.__noReload = 1;")


def _not_reloaded(driver) -> bool:
    return driver.execute_script("return window.__noReload === 1;")


def _watching(driver) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda d: d.execute_script("return document.body.dataset.liveState === 'up';")
    )


def _text(driver, css: str) -> str:
    """An element's text, read in one script: the live region may be swapped between
    two WebDriver calls (a found element then goes stale)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css
    )


def _click(driver, css: str) -> None:
    """Click the element as soon as it is there and enabled, in one script (see _text)."""
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda d: d.execute_script(
            "const e = document.querySelector(arguments[0]);"
            " if (e && !e.disabled) { e.click(); return true; } return false;",
            css,
        )
    )


def _to_act(match) -> int:
    game = Game.objects.filter(match=match).order_by("-number").first()
    return state_from_dict(game.state).player_to_act


def test_two_browsers_follow_each_others_moves_without_reloading(
    browser, second_browser, asgi_server, log_in_at
):
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=3, clock="seed002")
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    drivers = {0: browser, 1: second_browser}
    for index, player in ((0, anna), (1, bence)):
        log_in_at(asgi_server, player.user, driver=drivers[index])
        drivers[index].get(f"{asgi_server.url}/matches/{match.pk}/")
        _watching(drivers[index])
        _mark(drivers[index])

    for turn in range(4):
        mover = _to_act(match)
        me, other = drivers[mover], drivers[1 - mover]
        before = _moves(other)
        if me.find_elements(By.CSS_SELECTOR, "button[value=roll]"):
            _click(me, "button[value=roll]")  # then the play of the roll, redrawn
            WebDriverWait(me, WAIT_SECONDS).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "form.stacked select#play")
            )
        _click(me, "form.stacked button[type=submit]")
        WebDriverWait(other, LIVE_SECONDS).until(lambda d, n=before: _moves(d) > n)
        assert "Your turn." in _text(other, ".panel .turn"), turn
        # The one to act now has the controls, redrawn without a reload.
        assert other.find_elements(By.CSS_SELECTOR, "button[value=roll], button[value=double]")

    # A resignation offered in one browser is answered in the other; the next game
    # appears in both.
    mover = _to_act(match)
    me, other = drivers[mover], drivers[1 - mover]
    _click(me, "details.resign summary")
    _click(me, "details.resign button[type=submit]")
    WebDriverWait(other, LIVE_SECONDS).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "button[value=accept_resignation]")
    )
    _click(other, "button[value=accept_resignation]")
    for driver in drivers.values():
        WebDriverWait(driver, LIVE_SECONDS + 1).until(lambda d: "Game 2" in _text(d, ".panel h2"))
    assert all(_not_reloaded(d) for d in drivers.values())


def test_a_spectator_page_says_when_the_server_is_gone_and_comes_back_by_itself(
    browser, asgi_server
):
    """A page left open (a spectator, a wall) across a server restart: it says the live
    updates are interrupted, reconnects by itself, and what happened meanwhile shows."""
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    browser.get(f"{asgi_server.url}/matches/{match.pk}/")
    _watching(browser)
    _mark(browser)
    assert not browser.find_element(By.ID, "live-status").is_displayed()

    asgi_server.stop()
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda d: d.find_element(By.ID, "live-status").is_displayed()
    )
    state = state_from_dict(game.state)
    from games.engine.position import position_id

    services.game_play(  # played while the page's server is down
        game_id=game.pk,
        player=(anna, bence)[state.player_to_act],
        expected_version=game.version,
        result_position_id=position_id(state.legal_plays()[0].result),
    )
    asgi_server.start()
    _watching(browser)  # back by itself
    WebDriverWait(browser, WAIT_SECONDS).until(lambda d: _moves(d) == 1)
    assert not browser.find_element(By.ID, "live-status").is_displayed()
    assert _not_reloaded(browser)
