"""Issue 16, defect 11: the Content-Security-Policy breaks no page. The API docs (Swagger
UI from drf-spectacular-sidecar) render, and a page that follows the live WebSocket
connects to /ws/live/ under ``connect-src 'self'``. Any violation on any page of any
browser test fails that test (tests/browser/conftest.py)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.browser.conftest import csp_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_render_under_the_policy(browser, live_server, wait):
    browser.get(f"{live_server.url}/api/docs/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".swagger-ui .opblock"))
    assert "Backgammon club server API" in browser.find_element(By.CSS_SELECTOR, ".info").text
    assert csp_violations(browser) == []


def test_a_blocked_inline_script_is_caught(browser, live_server, wait):
    """The watch itself works: an inline script on our origin is refused and noted."""
    browser.get(f"{live_server.url}/healthz")
    browser.execute_script(
        "var s = document.createElement('script'); s.textContent = 'window.ran = 1;';"
        "document.body.appendChild(s);"
    )
    wait.until(lambda d: d.execute_script("return sessionStorage.getItem('csp-violations')"))
    assert browser.execute_script("return window.ran") is None
    noted = csp_violations(browser)
    assert noted and noted[0].startswith("script-src")


def test_the_online_chouette_play_page_runs_its_scripts_under_the_policy(
    browser, asgi_server, wait
):
    """The play page (chouette:play) of a game online, a cube decision waiting with a
    time window: static/chouette/play.js counts it down (it set ``data-until``), the
    live socket connects (static/games/live.js: ``data-live-state`` up), nothing is refused."""
    from chouette.online import services as online
    from games.play.dice import ScriptedDice
    from tests.browser.conftest import sign_in
    from tests.chouette.factories import online_play_first, players, session_with

    cast = players(("Ann", "Bob", "Cy"))
    session = session_with(cast, rolls={"Bob": 6, "Ann": 5, "Cy": 4})  # Bob box
    online.online_settings_update(
        session_id=session.pk, by=cast["Bob"].user, decision_seconds=600, decision_default="take"
    )
    game = online.online_game_start(
        session_id=session.pk, by=cast["Bob"].user, dice=ScriptedDice((1, 6))
    )
    # the team won the opening: Ann plays 6-1
    online_play_first(game, cast["Ann"].user)
    game.refresh_from_db()
    online.online_game_act(
        game_id=game.pk, by=cast["Bob"].user, action="box_double", expected_version=game.version
    )
    sign_in(browser, asgi_server.url, cast["Cy"].user)
    browser.get(f"{asgi_server.url}/chouette/{session.pk}/play/")
    wait.until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-ms-left]").get_attribute("data-until")
    )
    wait.until(lambda d: d.execute_script("return document.body.dataset.liveState") == "up")
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=countdown]").is_displayed()
    assert csp_violations(browser) == []
