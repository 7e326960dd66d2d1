"""Playing on the board by tapping, shared by the browser tests that play whole games
(tests/browser/test_match_acceptance.py, test_practice_match.py,
test_demo_first_match.py): tap an element as a finger would, tap a whole play out of the
board's step buttons, and wait for the game stored to change after the other side's
turn."""

from __future__ import annotations

import time
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from games.engine.actions import state_from_dict
from games.models import Match


def tap(driver: Any, css: str, *, wait: float) -> None:
    """Tap the first element matching ``css`` once it is there and shown."""

    def ready(d: Any) -> bool:
        try:
            found = [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]
            if not found:
                return False
            d.execute_script("arguments[0].scrollIntoView({block: 'center'});", found[0])
            # A tap where the element is: what is drawn on top of it (the checkers on a
            # point) gets it, as a finger's would.
            ActionChains(d).move_to_element(found[0]).click().perform()
        except Exception:  # swapped by a live update meanwhile: look again
            return False
        return True

    WebDriverWait(driver, wait).until(ready)


def played(driver: Any) -> str:
    """What the play being arranged says it has moved so far."""
    return driver.execute_script(
        "const e = document.querySelector('#arrange [data-role=played]');"
        " return e ? e.textContent : '';"
    )


def steps(driver: Any) -> int:
    """How many step buttons (each a legal checker move of the roll) the board offers."""
    return driver.execute_script(
        "return document.querySelectorAll('#arrange [data-role=steps] button.step').length;"
    )


def tap_a_whole_play(driver: Any, *, wait: float) -> None:
    """Tap the first step button offered until the play is whole, then Submit."""
    WebDriverWait(driver, wait).until(
        lambda d: d.execute_script(
            "const a = document.getElementById('arrange'); return a && !a.hidden;"
        )
    )
    for _ in range(4):
        if not steps(driver):
            break
        before = played(driver)
        tap(driver, "#arrange [data-role=steps] button.step", wait=wait)
        WebDriverWait(driver, wait).until(lambda d, b=before: played(d) != b)
    tap(driver, "#arrange [data-role=submit]", wait=wait)


def latest(match: Match) -> tuple[Any, Any]:
    """The match's newest game and its engine state."""
    game = match.games.order_by("-number").first()
    return game, state_from_dict(game.state)


def wait_for_a_change(match: Match, version: int, number: int, *, wait: float) -> None:
    """Until game ``number`` is past ``version``, another game began or the match ended."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        match.refresh_from_db()
        game, _state = latest(match)
        if (game.number, game.version) != (number, version) or match.status != "playing":
            return
        time.sleep(0.1)
    raise AssertionError(f"game {number} stayed at version {version}")
