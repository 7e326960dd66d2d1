"""Arranging a play in a real browser (static/games/board.js, R14): step buttons, taps on
the board's columns, Undo, Reset and Submit."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from games.engine.actions import state_from_dict
from games.models import Game
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def opening():
    """Anna won the opening roll with 3-1 and is to play it."""
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    return anna, match, game


def _checkers(browser, point: int | str) -> int:
    """How many of the viewer's checkers the board shows on ``point`` (read in one go:
    the script replaces the board after every step)."""
    return browser.execute_script(
        "var g = document.querySelector("
        "'.board g.checkers-bottom[data-point=\"' + arguments[0] + '\"]');"
        "return g ? Number(g.getAttribute('data-count')) : 0;",
        str(point),
    )


def tap(browser, point: int | str) -> None:
    """Tap the tap area of a point's column (``bar``, ``off``): what a finger hits."""
    browser.find_element(By.CSS_SELECTOR, f'.board rect.hit[data-point="{point}"]').click()


def _step(browser, label: str):
    return browser.find_element(
        By.XPATH, f'//div[@data-role="steps"]/button[normalize-space()="{label}"]'
    )


def _role(browser, role: str):
    return browser.find_element(By.CSS_SELECTOR, f'#arrange [data-role="{role}"]')


def test_arrange_undo_and_submit_a_play(browser, live_server, log_in, wait, opening):
    anna, match, game = opening
    log_in(anna.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))  # the script ran
    submit = _role(browser, "submit")
    assert not submit.is_enabled()
    assert _role(browser, "undo").get_attribute("disabled")
    assert _checkers(browser, 8) == 3 and _checkers(browser, 5) == 0

    # A step button: 8/5 with the 3; the board shows it, the 1 is left to play.
    _step(browser, "8/5").click()
    wait.until(lambda b: _checkers(b, 5) == 1)
    assert _checkers(browser, 8) == 2
    assert _role(browser, "dice").text == "1"
    assert _role(browser, "played").text == "8/5"
    assert not submit.is_enabled()
    # The button pressed is gone: the focus moved on to the next step's buttons.
    assert browser.switch_to.active_element.get_attribute("class") == "step"

    # Undo: back to the start.
    _role(browser, "undo").click()
    wait.until(lambda b: _checkers(b, 5) == 0)
    assert _checkers(browser, 8) == 3
    assert _role(browser, "dice").text == "3 1"

    # On the board: the checker on 8 can go to 7, 5 or 4, so it is picked first; then 5.
    tap(browser, 8)
    wait.until(
        lambda b: (
            "arrange-target"
            in b.find_element(
                By.CSS_SELECTOR, '.board polygon.point[data-point="5"]'
            ).get_attribute("class")
        )
    )
    tap(browser, 5)
    wait.until(lambda b: _checkers(b, 5) == 1)
    # Reset, then once more: 8/5 on the board, then 6/5 with a button.
    _role(browser, "reset").click()
    wait.until(lambda b: _checkers(b, 5) == 0)
    _step(browser, "6/5").click()
    wait.until(lambda b: _checkers(b, 5) == 1)
    _step(browser, "8/5").click()
    wait.until(lambda b: _checkers(b, 5) == 2)
    assert _checkers(browser, 6) == 4 and _checkers(browser, 8) == 2
    wait.until(lambda b: _role(b, "submit").is_enabled())
    assert _role(browser, "played").text == "8/5 6/5"
    assert browser.find_element(By.ID, "play").get_attribute("value") == _role(
        browser, "form"
    ).find_element(By.NAME, "position_id").get_attribute("value")

    _role(browser, "submit").click()
    wait.until(ec.staleness_of(submit))  # the page was posted and shown again
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".moves ol li")))
    game = Game.objects.get(pk=game.pk)
    assert game.version == 2
    after = state_from_dict(game.state)
    assert after.turn == 1  # Bence's turn now
    assert "8/5 6/5" in browser.find_element(By.CSS_SELECTOR, ".moves").text
    assert not browser.find_elements(By.ID, "arrange")  # no play to arrange any more
    anna_board = after.board_of(0).mover
    assert (anna_board[7], anna_board[5], anna_board[4]) == (2, 4, 2)  # 8/5 6/5 played


def test_without_the_script_the_list_of_plays_is_used(browser, live_server, log_in, wait, opening):
    """The page's own list still plays: pick a play, submit; the panel stays hidden
    until the script shows it."""
    anna, match, game = opening
    log_in(anna.user)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{live_server.url}/matches/{match.pk}/")
        assert not browser.find_element(By.ID, "arrange").is_displayed()
        option = browser.find_element(By.XPATH, '//select[@id="play"]/option[.="8/5 6/5"]')
        option.click()
        browser.find_element(By.XPATH, '//select[@id="play"]/../button[@type="submit"]').click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".moves ol li")))
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    assert Game.objects.get(pk=game.pk).version == 2


def test_a_double_on_the_board(browser, live_server, log_in, wait, opening):
    """6-6: each checker is picked, then put on a marked point; the dice played are
    dimmed on the board; Undo takes back a whole move of one checker."""
    anna, match, game = opening
    bence = match.player2
    services.game_play(game_id=game.pk, player=anna, expected_version=1, play="8/5 6/5")
    services.game_roll(game_id=game.pk, player=bence, expected_version=2, dice=ScriptedDice([6, 6]))
    log_in(bence.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))
    assert _role(browser, "dice").text == "6 6 6 6"
    for source, dest, count in ((24, 18, 1), (24, 18, 0), (13, 7, 4), (13, 7, 3)):
        tap(browser, source)
        wait.until(
            lambda b, dest=dest: (
                "arrange-target"
                in b.find_element(
                    By.CSS_SELECTOR, f'.board rect.hit[data-point="{dest}"]'
                ).get_attribute("class")
            )
        )
        tap(browser, dest)
        wait.until(lambda b, source=source, count=count: _checkers(b, source) == count)
    wait.until(lambda b: _role(b, "submit").is_enabled())
    assert _role(browser, "played").text == "24/18(2) 13/7(2)"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".board g.die.arrange-used")) == 2
    # Undo brings the last checker back and the second die is live again.
    _role(browser, "undo").click()
    wait.until(lambda b: _checkers(b, 13) == 4)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".board g.die.arrange-used")) == 1
    assert not _role(browser, "submit").is_enabled()
    browser.find_element(By.XPATH, '//div[@data-role="steps"]/button[.="13/7"]').click()
    wait.until(lambda b: _role(b, "submit").is_enabled())
    _role(browser, "submit").click()
    wait.until(lambda b: Game.objects.get(pk=game.pk).version == 4)
