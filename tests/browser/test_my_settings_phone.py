"""The player's settings page on a 390x844 phone (issue 18): it fits the screen, its
choices are big enough to tap (44 px), and the side chosen there is the side the match
page draws the home board on."""

from __future__ import annotations

from typing import Any

import pytest

from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import PHONE_WIDTH
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

TAP = 44


def _width(driver: Any) -> int:
    return int(driver.execute_script("return document.documentElement.scrollWidth"))


def _home_side(driver: Any) -> str:
    """Where the match page's board has the viewer's home board: the tray is beside it."""
    return str(
        driver.execute_script(
            "var svg = document.querySelector('.board svg');"
            "var tray = svg.querySelector('.tray');"
            "var box = svg.getBoundingClientRect(), t = tray.getBoundingClientRect();"
            "return t.left + t.width / 2 < box.left + box.width / 2 ? 'left' : 'right';"
        )
    )


def test_the_settings_page_fits_a_phone_and_turns_the_board(phone, live_server) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    me, other = UserPlayerFactory(), UserPlayerFactory()
    match = services.match_create(player1=me, player2=other, length=3)
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    sign_in(phone, live_server.url, me.user)

    phone.get(f"{live_server.url}/matches/{match.pk}/")
    assert _home_side(phone) == "right"  # seed 000's default

    phone.get(f"{live_server.url}/players/me/settings/")
    assert phone.execute_script("return window.innerWidth") == PHONE_WIDTH
    assert _width(phone) <= PHONE_WIDTH
    controls = phone.find_elements(By.CSS_SELECTOR, ".my-settings .choice, .my-settings button")
    # two sides, the switch, auto-roll, forced plays, the turn sound, save
    assert len(controls) == 7
    heights = {c.text: c.size["height"] for c in controls}
    assert all(h >= TAP for h in heights.values()), heights

    phone.find_element(By.CSS_SELECTOR, "input[name=board_orientation][value=left]").click()
    phone.find_element(By.NAME, "switch_sides_after_match").click()
    phone.find_element(By.CSS_SELECTOR, ".my-settings button[type=submit]").click()
    saved = WebDriverWait(phone, WAIT_SECONDS).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".messages, .message-error")
    )
    assert "Your settings were saved." in saved[0].text
    assert phone.find_element(
        By.CSS_SELECTOR, "input[name=board_orientation][value=left]"
    ).is_selected()
    assert phone.find_element(By.NAME, "switch_sides_after_match").is_selected()

    phone.get(f"{live_server.url}/matches/{match.pk}/")
    assert _home_side(phone) == "left"
