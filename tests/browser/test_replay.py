"""The replay page in a real browser (issue 27; static/games/replay.js): a visitor steps
through a game with the buttons and the arrow keys, the board changes (checkers on the
points, the cube) and the move is said in notation and words, without reloading the
page; the address follows, so it is a link to the position shown. On the phone the
buttons are tapped."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from games.engine.actions import state_from_dict
from games.engine.position import position_id
from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.conftest import WAIT_SECONDS, csp_violations
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _game():
    """Anna opens 3-1 with 8/5 6/5; Bence doubles, Anna takes; Bence rolls 6-4 and plays."""
    anna, bence = PlayerFactory(name="Anna"), PlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    services.game_play(game_id=game.pk, player=anna, expected_version=1, play="8/5 6/5")
    services.cube_offer(game_id=game.pk, player=bence, expected_version=2)
    services.cube_take(game_id=game.pk, player=anna, expected_version=3)
    services.game_roll(game_id=game.pk, player=bence, expected_version=4, dice=ScriptedDice([6, 4]))
    game.refresh_from_db()
    state = state_from_dict(game.state)
    play = state.legal_plays()[0]
    outcome = services.game_play(
        game_id=game.pk,
        player=bence,
        expected_version=5,
        result_position_id=position_id(play.result),
    )
    return match, outcome.action.data["play"]


BOARD = """
const counts = {};
for (const g of document.querySelectorAll('[data-testid=replay-board] g.checkers-bottom')) {
  counts[g.dataset.point] = Number(g.dataset.count);
}
const cube = document.querySelector('[data-testid=replay-board] g.cube');
return {
  counts: counts,
  cube: cube ? [cube.dataset.value, cube.dataset.owner, cube.classList.contains('cube-offered')]
             : null,
  text: document.querySelector('[data-testid=replay-text]').textContent.trim(),
  step: document.querySelector('[data-replay-region]').dataset.step,
  url: location.search,
  reloaded: window.__noReload !== 1,
};
"""


def _shown(driver):
    return driver.execute_script(BOARD)


def _until_step(driver, step: int):
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: _shown(d)["step"] == str(step))
    return _shown(driver)


def _open(driver, base: str, path: str) -> None:
    driver.get(f"{base}/")
    driver.add_cookie({"name": "django_language", "value": "en", "path": "/"})
    driver.get(f"{base}{path}")
    driver.execute_script("window.__noReload = 1;")


def test_a_visitor_steps_through_a_game_with_the_buttons_and_the_keys(browser, live_server):
    match, bence_play = _game()
    _open(browser, live_server.url, f"/matches/{match.pk}/replay/1/")
    start = _shown(browser)
    assert start["step"] == "0" and start["text"] == "The starting position."
    # Anna (player 1) is at the bottom for a visitor: 5 on her 6, 3 on her 8, none on 5.
    assert start["counts"]["6"] == 5 and start["counts"]["8"] == 3 and "5" not in start["counts"]
    assert start["cube"][0] == "1" and start["cube"][1] == "centre"

    browser.find_element(By.CSS_SELECTOR, "[data-role=next]").click()
    one = _until_step(browser, 1)
    assert one["text"] == "Anna plays 3-1: 8/5 6/5"
    assert one["counts"]["5"] == 2 and one["counts"]["8"] == 2 and one["counts"]["6"] == 4
    assert one["url"] == "?move=1"
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=replay-dice]").text == "3-1"

    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    two = _until_step(browser, 2)
    assert two["text"] == "Bence doubles to 2."
    assert two["cube"] == ["2", "centre", True]
    assert "offered" in browser.find_element(By.CSS_SELECTOR, "[data-testid=replay-cube]").text

    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    three = _until_step(browser, 3)
    assert three["text"] == "Anna takes: the cube is at 2, owned by Anna."
    assert three["cube"] == ["2", "bottom", False]

    browser.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    assert _until_step(browser, 2)["text"] == "Bence doubles to 2."

    browser.switch_to.active_element.send_keys(Keys.END)
    last = _until_step(browser, 4)
    assert last["text"] == f"Bence plays 6-4: {bence_play}"
    assert last["counts"]["5"] == 2  # Anna's checkers did not move
    assert last["url"] == "?move=4"
    # At the last move "next" is no link; Home goes back to the start.
    assert not browser.find_elements(By.CSS_SELECTOR, "a[data-role=next]")
    browser.switch_to.active_element.send_keys(Keys.HOME)
    assert _until_step(browser, 0)["counts"]["6"] == 5

    # A line of the move list is a link to its position, marked as the current one.
    browser.find_element(By.CSS_SELECTOR, "[data-testid=replay-moves] a[data-index='3']").click()
    assert _until_step(browser, 3)["text"].startswith("Anna takes")
    current = browser.find_element(
        By.CSS_SELECTOR, "[data-testid=replay-moves] [aria-current=step]"
    )
    assert current.get_attribute("data-index") == "3"

    # Back in the history is the step before.
    browser.back()
    assert _until_step(browser, 0)["step"] == "0"
    assert _shown(browser)["reloaded"] is False  # every step without loading the page
    assert csp_violations(browser) == []

    # The address is a link to the position shown.
    browser.get(f"{live_server.url}/matches/{match.pk}/replay/1/?move=2")
    assert _shown(browser)["text"] == "Bence doubles to 2."


def test_on_a_phone_the_buttons_are_tapped(phone, live_server):
    match, _ = _game()
    _open(phone, live_server.url, f"/matches/{match.pk}/replay/1/?move=4")
    assert _shown(phone)["step"] == "4"
    for role in ("first", "prev", "next", "last"):
        box = phone.find_element(By.CSS_SELECTOR, f"[data-role={role}]").rect
        assert box["height"] >= 44 and box["width"] >= 44, (role, box)
    phone.find_element(By.CSS_SELECTOR, "a[data-role=prev]").click()
    assert _until_step(phone, 3)["text"].startswith("Anna takes")
    phone.find_element(By.CSS_SELECTOR, "a[data-role=first]").click()
    assert _until_step(phone, 0)["reloaded"] is False
    # The match page's games table links each game's replay.
    phone.get(f"{live_server.url}/matches/{match.pk}/")
    phone.find_element(By.CSS_SELECTOR, "[data-testid=replay-current]").click()
    WebDriverWait(phone, WAIT_SECONDS).until(lambda d: "/replay/1/" in d.current_url)
    assert _shown(phone)["step"] == "4"
